"""Evaluation inputs (JSON), versioned with the code."""
