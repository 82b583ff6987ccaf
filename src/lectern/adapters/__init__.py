"""Adapters: one technology per module, converting at the boundary."""
