"""Guideline profiles from YAML: the packaged file, or the one LECTERN_GUIDE_PROFILES names.

Each profile takes the everyday names of its documents' terms from `vocabulary.yaml` beside
this module (by profile name; a profile it does not name has none).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lectern.domain.documents import check_collection_name
from lectern.domain.guidance import GuideProfile, ShortName
from lectern.errors import ConfigurationError

PACKAGED = Path(__file__).with_name("profiles.yaml")
VOCABULARY = Path(__file__).with_name("vocabulary.yaml")
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


class _EntryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    term: str = Field(min_length=1, max_length=80)
    names: list[str] = Field(min_length=1)
    source: str = Field(min_length=10)
    """Where the document makes the equivalence: an entry nobody can check does not load."""


class _VocabularyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    vocabulary: dict[str, list[_EntryIn]]


def load_vocabulary(path: Path | None = None) -> dict[str, tuple[tuple[str, str], ...]]:
    """Profile name -> (everyday name, the documents' term) pairs, from `vocabulary.yaml`."""
    source = path or VOCABULARY
    try:
        parsed = _VocabularyIn.model_validate(yaml.safe_load(source.read_text(encoding="utf-8")))
    except OSError as error:
        raise ConfigurationError(f"guideline vocabulary: cannot read {source}: {error}") from None
    except (yaml.YAMLError, ValidationError) as error:
        raise ConfigurationError(f"guideline vocabulary: {source} is not valid: {error}") from None
    return {
        profile: tuple(
            (" ".join(name.casefold().split()), " ".join(entry.term.casefold().split()))
            for entry in entries
            for name in entry.names
        )
        for profile, entries in parsed.vocabulary.items()
    }


def load_profiles(
    path: Path | None = None, vocabulary: Path | None = None
) -> tuple[GuideProfile, ...]:
    """The profiles of a YAML file (the packaged one by default), checked, with their vocabulary.

    `vocabulary`: the everyday names file (`vocabulary.yaml` beside this module by default).
    """
    source = path or PACKAGED
    names_of = load_vocabulary(vocabulary)
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
                vocabulary=names_of.get(item.name, ()),
            )
        )
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        raise ConfigurationError(f"{_SETTING}: two profiles share a name in {source}")
    return tuple(profiles)
