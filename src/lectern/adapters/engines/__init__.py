"""Retrieval engines beyond the embedded bm25s + FAISS pair (Qdrant)."""
