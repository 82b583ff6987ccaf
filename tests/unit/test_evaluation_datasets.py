"""The judged query set: labelling rules, and the files' checks and coverage."""

import json
import shutil
import uuid
from importlib import resources
from pathlib import Path

import pytest

from lectern.application.evaluation.datasets import (
    DATA_PACKAGE,
    Criteria,
    load_dataset,
    load_judgments,
    load_queries,
)
from lectern.application.evaluation.labelling import LABELLER, label
from lectern.domain.books import Book
from lectern.errors import DatasetError

DUNE = Book(
    id=uuid.UUID(int=1),
    title="Dune",
    authors=("Frank Herbert",),
    categories=("science fiction", "classics"),
    description="On the desert planet Arrakis, a noble family is betrayed.",
    language="en",
    published_year=1965,
)


def _criteria(**kw: object) -> Criteria:
    return Criteria.model_validate(kw)


def test_all_facets_grade_3_two_thirds_2_less_1_none_0() -> None:
    facets = [
        {"name": "sf", "any": ["science fiction"], "weight": 2},
        {"name": "desert", "any": ["desert*"]},
        {"name": "dragons", "any": ["dragon*"]},
    ]
    assert label(DUNE, _criteria(facets=facets[:2])).grade == 3
    result = label(DUNE, _criteria(facets=facets))  # 3 of 4 weight
    assert result.grade == 2
    assert result.matched == ("sf: science fiction in categories", "desert: desert* in description")
    assert label(DUNE, _criteria(facets=facets[1:])).grade == 1  # 1 of 2 weight
    assert label(DUNE, _criteria(facets=facets[2:])).grade == 0


def test_terms_match_whole_words_unless_starred_and_only_in_named_fields() -> None:
    def grade(term: str, fields: tuple[str, ...] = ("description",)) -> int:
        return label(DUNE, _criteria(facets=[{"name": "t", "any": [term], "fields": fields}])).grade

    assert grade("planet") == 3 and grade("plan") == 0 and grade("plan*") == 3
    assert grade("frank herbert") == 0 and grade("frank herbert", ("authors",)) == 3
    assert grade("DESERT PLANET") == 3  # case-folded


def test_exact_and_excluded_titles() -> None:
    assert label(DUNE, _criteria(exact_titles=["dune"])).grade == 3
    excluded = label(DUNE, _criteria(exclude_titles=["dune"], exact_titles=["dune"]))
    assert excluded.grade == 0 and excluded.matched == ("excluded title: dune",)


def test_language_and_year_constraints_cap_the_grade() -> None:
    facets = [{"name": "sf", "any": ["science fiction"]}]
    assert label(DUNE, _criteria(facets=facets, language="es")).grade == 1
    assert label(DUNE, _criteria(facets=facets, min_year=2000)).grade == 1
    assert label(DUNE, _criteria(facets=facets, max_year=1970, language="en")).grade == 3
    unknown = Book(id=uuid.UUID(int=2), title="X", categories=("science fiction",))
    capped = label(unknown, _criteria(facets=facets, language="en", min_year=1900))
    assert capped.grade == 2 and "language unknown" in capped.matched


def test_packaged_set_covers_what_the_issue_asks() -> None:
    dataset = load_dataset()
    queries = dataset.queries
    assert len(queries) >= 60
    assert {q.intent for q in queries} == {"recommendation", "factual", "exploratory"}
    tags = {t for q in queries for t in q.tags}
    for needed in (
        "author",
        "title",
        "mood",
        "like-x",
        "misspelling",
        "multilingual",
        "filter:language",
        "filter:years",
        "filter:category",
    ):
        assert needed in tags, needed
    assert all(any(g > 0 for g in dataset.qrels[q.id].values()) for q in queries)
    kinds = {t.kind for t in dataset.negative_tests}
    assert kinds == {
        "out_of_catalog",
        "ambiguous",
        "contradictory_filters",
        "injection",
        "empty",
        "garbage",
    }
    judgments = load_judgments()
    assert judgments is not None
    labellers = {p.labeller for pairs in judgments.judgments.values() for p in pairs}
    assert LABELLER in labellers and any(x.startswith("hand-review") for x in labellers)
    assert all(
        p.note for pairs in judgments.judgments.values() for p in pairs if p.labeller != LABELLER
    )
    assert [f.name for f in dataset.files] == [
        "test_queries.json",
        "relevance_judgments.json",
        "negative_tests.json",
        "exclusion_requests.json",
    ]
    assert all(len(f.sha256) == 64 for f in dataset.files)


def test_the_exclusion_dev_set_states_checkable_constraints() -> None:
    exclusions = load_dataset().exclusions
    assert exclusions is not None
    requests = exclusions.file.requests
    assert len(requests) >= 40
    assert all(
        r.exclude_categories
        or r.exclude_authors
        or r.exclude_titles
        or r.exclude_youth
        or r.min_pages
        or r.max_pages
        for r in requests
    )
    for kind in ("exclude_categories", "exclude_authors", "exclude_titles"):
        assert sum(1 for r in requests if getattr(r, kind)) >= 5, kind
    assert sum(1 for r in requests if r.exclude_youth) >= 5
    assert sum(1 for r in requests if r.min_pages or r.max_pages) >= 10
    issue_examples = {
        "something like the hunger games but for adults, not too long",
        "a mystery that is not a cozy mystery",
        "horror novels other than stephen king",
        "war novels, excluding anything about vietnam",
        "vampire books but not twilight",
    }
    assert not issue_examples & {r.text.casefold() for r in requests}


def test_a_folder_without_the_exclusion_set_measures_none(tmp_path: Path) -> None:
    assert load_dataset(_copy(tmp_path)).exclusions is None


def _copy(tmp_path: Path) -> Path:
    for name in ("test_queries.json", "relevance_judgments.json", "negative_tests.json"):
        source = resources.files(DATA_PACKAGE).joinpath(name)
        with resources.as_file(source) as path:
            shutil.copy(path, tmp_path / name)
    return tmp_path


def test_malformed_files_are_refused_naming_the_problem(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "negative_tests.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DatasetError, match="negative_tests.json is not valid JSON"):
        load_dataset(folder)
    _copy(tmp_path)
    data = json.loads((folder / "test_queries.json").read_text(encoding="utf-8"))
    data["queries"][0]["intent"] = "shopping"
    (folder / "test_queries.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"test_queries.json: queries.0.intent"):
        load_dataset(folder)
    data["queries"][0]["intent"] = "factual"
    data["version"] = "other"
    (folder / "test_queries.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DatasetError, match="re-run `lectern evaluate label`"):
        load_dataset(folder)
    (folder / "relevance_judgments.json").unlink()
    assert load_judgments(folder) is None
    with pytest.raises(DatasetError, match="cannot read evaluation file relevance_judgments"):
        load_dataset(folder)
    assert load_queries(folder).version == "other"


def test_a_query_without_any_relevant_judgment_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    data = json.loads((folder / "relevance_judgments.json").read_text(encoding="utf-8"))
    first = next(iter(data["judgments"]))
    for pair in data["judgments"][first]:
        pair["grade"] = 0
    (folder / "relevance_judgments.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DatasetError, match=f"no relevant book judged for {first}"):
        load_dataset(folder)
