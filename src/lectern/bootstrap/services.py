"""The front: `bootstrap()` and `Services`, one class over every capability's wiring."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from lectern.bootstrap.base import Overrides
from lectern.bootstrap.guideline import GuidelineWiring
from lectern.bootstrap.operations import OperationsWiring
from lectern.bootstrap.uploads import UploadWiring
from lectern.errors import ConfigurationError
from lectern.settings import Settings


@dataclass
class Services(GuidelineWiring, UploadWiring, OperationsWiring):
    """Everything the entry points use, built from one Settings; each part on first use."""


def bootstrap(settings: Settings, **overrides: Any) -> Services:
    """Build the services; any port named in `Overrides` can be passed instead (tests: fakes).

    Nothing is built here: each part is made on first use, so an app or command pays only
    for what it touches.
    """
    try:
        given = Overrides(**overrides)
    except TypeError:
        known = ", ".join(f.name for f in fields(Overrides))
        unknown = ", ".join(sorted(set(overrides) - {f.name for f in fields(Overrides)}))
        raise ConfigurationError(f"bootstrap cannot override {unknown}; it knows {known}") from None
    return Services(settings=settings, overrides=given)
