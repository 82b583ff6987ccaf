"""Pending actions in SQL."""
