"""Rerankers after fusion: late interaction over MiniLM token vectors, listwise by a model."""
