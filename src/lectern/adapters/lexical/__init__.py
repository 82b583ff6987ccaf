"""Lexical (keyword) indexes."""
