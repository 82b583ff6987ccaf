"""Readers of the catalog's source formats and the fetcher of their files."""
