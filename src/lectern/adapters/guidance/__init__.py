"""Guideline agent profiles, read from YAML (the packaged ones or an operator's file)."""
