"""Books as the HTTP API answers them (the models live in `entrypoints.schemas.books`)."""

from lectern.entrypoints.schemas.books import BookOut, CountOut, FacetsOut

__all__ = ["BookOut", "CountOut", "FacetsOut"]
