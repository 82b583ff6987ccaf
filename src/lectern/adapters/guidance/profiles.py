"""Guideline profiles from YAML: the packaged file, or the one LECTERN_GUIDE_PROFILES names."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lectern.domain.documents import check_collection_name
from lectern.domain.guidance import GuideProfile, ShortName
from lectern.errors import ConfigurationError

PACKAGED = Path(__file__).with_name("profiles.yaml")
_SETTING = "LECTERN_GUIDE_PROFILES"


class _ShortNameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pattern: str = Field(min_length=1)
    name: str = Field(min_length=1, max_length=80)


class _ProfileIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")
    collection: str
    title: str = Field(min_length=1)
    role: str = Field(min_length=1)
    scope: str = Field(min_length=1)
    refusal: str = Field(min_length=1, max_length=400)
    citation: Literal["page", "section"] = "page"
    short_names: list[_ShortNameIn] = Field(default_factory=list)
    examples: list[str] = Field(default_factory=list, max_length=10)


class _FileIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    profiles: list[_ProfileIn] = Field(min_length=1)


def load_profiles(path: Path | None = None) -> tuple[GuideProfile, ...]:
    """The profiles of a YAML file (the packaged one by default), checked."""
    source = path or PACKAGED
    try:
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
        parsed = _FileIn.model_validate(data)
    except OSError as error:
        raise ConfigurationError(f"{_SETTING}: cannot read {source}: {error}") from None
    except (yaml.YAMLError, ValidationError) as error:
        raise ConfigurationError(f"{_SETTING}: {source} is not valid: {error}") from None
    profiles = []
    for item in parsed.profiles:
        try:
            check_collection_name(item.collection)
        except ValueError as error:
            raise ConfigurationError(f"{_SETTING}: profile {item.name}: {error}") from None
        profiles.append(
            GuideProfile(
                name=item.name,
                collection=item.collection,
                title=" ".join(item.title.split()),
                role=" ".join(item.role.split()),
                scope=" ".join(item.scope.split()),
                refusal=" ".join(item.refusal.split()),
                citation=item.citation,
                short_names=tuple(ShortName(s.pattern, s.name) for s in item.short_names),
                examples=tuple(item.examples),
            )
        )
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        raise ConfigurationError(f"{_SETTING}: two profiles share a name in {source}")
    return tuple(profiles)
