"""The FastAPI support questions a new user asked, with the packaged MiniLM and the shipped
answer check (issue 27): answered, from the page that says it; off-topic ones stay silent.

A collection of 14 real FastAPI pages (the answering ones and the pages that competed with
them for these questions), embedded with the real model through `bootstrap`.
"""

from __future__ import annotations

import shutil

import pytest

from lectern.bootstrap import Services, bootstrap
from lectern.domain.answering import RequestContext
from lectern.settings import Settings
from tests.collection_wiring import SHARED

DOCS = SHARED / "kb/fastapi-docs/docs"
PAGES = (
    "tutorial/query-params.md",
    "tutorial/query-params-str-validations.md",
    "tutorial/handling-errors.md",
    "tutorial/cors.md",
    "tutorial/middleware.md",
    "advanced/middleware.md",
    "tutorial/dependencies/sub-dependencies.md",
    "tutorial/path-operation-configuration.md",
    "tutorial/path-params.md",
    "tutorial/response-status-code.md",
    "advanced/response-headers.md",
    "advanced/response-cookies.md",
    "tutorial/background-tasks.md",
    "tutorial/static-files.md",
)


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Services:
    root = tmp_path_factory.mktemp("fastapi-answers")
    docs = root / "docs"
    for page in PAGES:
        (docs / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DOCS / page, docs / page)
    built = bootstrap(Settings(data_dir=root / "var"))
    built.collections().add("fastapi", docs)
    return built


@pytest.mark.parametrize(
    ("question", "page"),
    [
        ("How do I declare an optional query parameter?", "kb:tutorial/query-params.md"),
        ("How do I return a 404 error from a path operation?", "kb:tutorial/handling-errors.md"),
        ("How do I enable CORS?", "kb:tutorial/cors.md"),
    ],
)
def test_the_question_is_answered_from_its_page(
    services: Services, question: str, page: str
) -> None:
    result = services.kb_replier().ask(question, RequestContext("fastapi"))
    assert result.should_reply, result.decision_path
    assert page in {c.source_id for c in result.citations}, result.citations


@pytest.mark.parametrize(
    "question",
    [
        "How do I customise the Django admin site's list view?",
        "How do I center a div horizontally and vertically in CSS?",
        "How do I squash my last three git commits?",
    ],
)
def test_questions_the_pages_do_not_answer_stay_silent(services: Services, question: str) -> None:
    assert not services.kb_replier().ask(question, RequestContext("fastapi")).should_reply
