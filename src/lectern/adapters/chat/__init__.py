"""Chat platforms the support bot lives on (one module per platform)."""
