"""Lectern: answers from a corpus you can check."""

__version__ = "0.1.0"
