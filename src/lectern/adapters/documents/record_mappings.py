"""A records mapping (YAML): its schema, the mappings Lectern ships, and loading one.

The mapping names the id, the title and text templates, the metadata fields searches may
filter on, the reference URLs, records to skip, and joins; `records.py` reads records with it.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lectern.domain.metadata_filters import FilterField
from lectern.errors import MappingError

MAPPINGS = resources.files("lectern.adapters.documents") / "mappings"


class FilterSpec(BaseModel):
    """A filter a search may use: where its value comes from and how it compares."""

    model_config = ConfigDict(extra="forbid")
    field: str
    type: Literal["keyword", "date", "number"] = "keyword"


class ReferencesSpec(BaseModel):
    """Where reference URLs are: a list field, or text split on a separator."""

    model_config = ConfigDict(extra="forbid")
    field: str
    separator: str | None = None


class JoinSpec(BaseModel):
    """Values from related rows: rows of `file` whose `link` field equals the record's `key`."""

    model_config = ConfigDict(extra="forbid")
    file: str
    where: dict[str, str] = Field(default_factory=dict)
    link: str
    key: str = "id"
    take: str
    """The related row's field pointing at the object to name (e.g. `source_ref`)."""
    lookup: list[str]
    """Files of the objects; only objects found there are kept (e.g. groups, not malware)."""
    field: str = "name"
    skip_if: list[str] = Field(default_factory=lambda: ["revoked", "x_mitre_deprecated"])


class RecordMapping(BaseModel):
    """A records mapping file (YAML)."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    format: Literal["json", "jsonl", "csv", "toml-markdown"] | None = None
    files: list[str] = Field(default_factory=list)
    records: str | None = None
    id: str | None = None
    id_from: list[str] = Field(default_factory=list)
    cite_as: str = "{@id}"
    title: str
    text: str
    url: str | None = None
    skip_if: list[str] = Field(default_factory=list)
    split: bool = True
    filters: dict[str, FilterSpec] = Field(default_factory=dict)
    references: ReferencesSpec | None = None
    joins: dict[str, JoinSpec] = Field(default_factory=dict)
    constants: dict[str, str] = Field(default_factory=dict)
    """Fields every record gets (`source_type: rustsec`), read as `@name`."""
    cvss: str | None = None
    """The field with a CVSS 3.x/4.0 vector: scored into `@cvss_score` and `@severity`."""
    optional: list[str] = Field(default_factory=list)
    """Fields that some sets of records lack altogether (a few advisories have no keywords):
    exempt from the check that every named field occurs somewhere."""

    def filter_fields(self) -> tuple[FilterField, ...]:
        """The filters this mapping declares, for the collection."""
        return tuple(FilterField(n, s.type, s.field) for n, s in self.filters.items())


def shipped_mappings() -> list[str]:
    """Names of the mappings that come with Lectern (`cisa-kev`, `mitre-attack`, ...)."""
    return sorted(
        p.name.removesuffix(".yaml") for p in MAPPINGS.iterdir() if p.name.endswith(".yaml")
    )


def load_mapping(name_or_path: str) -> tuple[RecordMapping, str]:
    """A mapping from a shipped name or a YAML file, and its text (stored with the collection)."""
    shipped = MAPPINGS / f"{name_or_path}.yaml"
    if shipped.is_file():
        text = shipped.read_text(encoding="utf-8")
    else:
        path = Path(name_or_path)
        if not path.is_file():
            shipped_names = ", ".join(shipped_mappings())
            raise MappingError(f"no mapping file {name_or_path!r} (shipped: {shipped_names})")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise MappingError(f"cannot read the mapping {path}: {error}") from None
    return parse_mapping(text, name_or_path), text


def parse_mapping(text: str, origin: str = "mapping") -> RecordMapping:
    """Validate a mapping's YAML text."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise MappingError(f"{origin}: not YAML ({error})") from None
    if not isinstance(data, dict):
        raise MappingError(f"{origin}: expected a mapping of keys (id, title, text, ...)")
    try:
        mapping = RecordMapping.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'mapping'}: {e['msg']}" for e in error.errors()
        )
        raise MappingError(f"{origin}: {problems}") from None
    if not mapping.id and not mapping.id_from:
        raise MappingError(f"{origin}: name the record id with `id` (or `id_from` fields to hash)")
    return mapping
