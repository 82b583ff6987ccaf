"""The evaluation sets shipped in the `lectern.evaluation` data package, or files in their place.

Every loader reads through here, so a set is found the same way whichever evaluation asks.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from lectern.errors import DatasetError

DATA_PACKAGE = "lectern.evaluation"
"""The package the evaluation sets ship in (`src/lectern/evaluation/`)."""


def packaged_bytes(name: str, directory: Path | None = None) -> bytes:
    """The evaluation file `name`, from `directory` when given, else the packaged one.

    A file that cannot be read raises `DatasetError` naming it.
    """
    try:
        if directory is None:
            return resources.files(DATA_PACKAGE).joinpath(name).read_bytes()
        return (directory / name).read_bytes()
    except OSError as error:
        raise DatasetError(f"cannot read evaluation file {name}: {error}") from error


def packaged_text(name: str, path: Path | None = None) -> str:
    """The text of the packaged evaluation file `name`, or of the file at `path` in its place.

    Errors (`OSError`) reach the caller, which says which set it could not read.
    """
    if path is None:
        return resources.files(DATA_PACKAGE).joinpath(name).read_text(encoding="utf-8")
    return path.read_text(encoding="utf-8")
