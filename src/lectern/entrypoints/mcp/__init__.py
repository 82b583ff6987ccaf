"""Lectern over the Model Context Protocol."""
