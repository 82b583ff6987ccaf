"""Entry points: the CLI and, later, the HTTP API."""
