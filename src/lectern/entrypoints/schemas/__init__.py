"""Response models more than one entry point serves.

The HTTP API and the MCP server map books and collection searches the same way; neither
imports the other's package for it (the architecture test forbids a cycle between them).
"""
