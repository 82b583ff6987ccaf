"""Lectern: answers from a corpus you can check."""

import os

# Set before numpy or FAISS load their OpenBLAS. A search multiplies matrices of at most
# 100 x 384; OpenBLAS worker threads then spin after each call and took a whole second
# core (measured: 20 ms of CPU per 10 ms search, 12.5 ms with one thread, and 8 concurrent
# searches 25% faster). Embedding (ONNX Runtime) and HNSW builds (OpenMP) keep their own
# threads. An explicit OPENBLAS_NUM_THREADS in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
