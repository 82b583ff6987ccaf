"""What every schema module shares: strict request bodies and one-pass JSON responses."""

from __future__ import annotations

from fastapi import Response
from pydantic import BaseModel, ConfigDict


def json_response(model: BaseModel) -> Response:
    """A model built by our own mapping, serialised once (FastAPI would validate it again)."""
    return Response(model.model_dump_json(), media_type="application/json")


class StrictIn(BaseModel):
    """A request body: unknown fields are refused and values are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)
