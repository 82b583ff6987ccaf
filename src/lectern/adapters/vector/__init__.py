"""Vector indexes."""
