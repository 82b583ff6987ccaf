"""Pure domain: frozen dataclasses and functions, no frameworks."""
