"""Conversation history: in memory, or in Redis with a time to live."""
