"""Problem reports, notes and wishes in a support channel are requests (the offline gate).

Each construct: the dev sentence it was found on, phrasings of our own, and near-misses
that must stay what they were. The answer check's number rule on documentation pages is at
the end, over real FastAPI-doc sentences.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.answer_check import AnswerCheck, Evidence, load_model
from lectern.domain.answering import classify_turn


def _asks(text: str) -> bool:
    return classify_turn(text).decision == "question"


# A negation typed without its apostrophe ("doesnt", "cant", "wont") is that negation.
@pytest.mark.parametrize(
    "text",
    [
        "curl -X POST -d '{\"a\":1}' without -H content-type and fastapi doesnt take it as "
        "json. old IoT devices send like this and we cant update them",  # dev17
        "uvicorn wont start after the upgrade",
        "the swagger page doesnt load my custom css",
        "my tests cant reach the dependency override",
        "the background task doesnt run after the response goes out",
        "the pydantic model doesnt accept extra fields",
    ],
)
def test_a_failure_typed_without_an_apostrophe_is_a_request(text: str) -> None:
    assert _asks(text)


@pytest.mark.parametrize(
    "text",
    [
        "we dont deploy on fridays",
        "I cant wait for the next release",
        "it doesnt matter",
        "we wont deploy on fridays",
    ],
)
def test_a_feeling_a_habit_or_a_promise_without_an_apostrophe_is_not(text: str) -> None:
    assert not _asks(text)


# "never" + the verb that should have happened: a failure.
@pytest.mark.parametrize(
    "text",
    [
        "Container stops but the shutdown part of my lifespan never runs. Dockerfile has CMD "
        "fastapi run app/main.py --port 80 written without the brackets",  # dev20
        "the shutdown event never fires under gunicorn",
        "my background task never runs",
        "the startup hook never gets called in tests",
        "the websocket close handler never runs when the client drops",
        "the dependency's cleanup code never executes",
    ],
)
def test_what_never_happens_is_a_failure(text: str) -> None:
    assert _asks(text)


@pytest.mark.parametrize("text", ["we never deploy on fridays", "I never use docker", "never mind"])
def test_a_habit_or_never_mind_is_not_a_failure(text: str) -> None:
    assert not _asks(text)


# It works in one place, "but" ...: a failure in the other.
@pytest.mark.parametrize(
    "text",
    [
        "websocket chat works fine locally, but in prod with several workers people only see "
        "the messages of users who landed on the same worker",  # dev20
        "the endpoint works locally but returns 502 behind nginx",
        "it works with uvicorn but not with gunicorn workers",
        "cors works for GET but the POST preflight fails",
        "the cookie works on localhost but the browser drops it on the real domain",
        "streaming works in curl but the browser waits for the whole body",
    ],
)
def test_what_works_somewhere_but_not_elsewhere_is_a_failure(text: str) -> None:
    assert _asks(text)


@pytest.mark.parametrize(
    "text", ["everything works now, thanks", "I tried it but I'm fine now", "she works at the bank"]
)
def test_working_without_a_but_is_not_a_failure(text: str) -> None:
    assert not _asks(text)


# A pasted Python error asks what causes it.
@pytest.mark.parametrize(
    "text",
    [
        "pytest with httpx AsyncClient and Motor for mongo -> RuntimeError: Task attached to a "
        "different loop. first test passes, second one blows up",  # dev20
        "KeyError: 'user_id' when reading the session in a dependency",
        "after upgrading pydantic -> ValidationError: 1 validation error for Item",
        "sqlalchemy gives OperationalError: database is locked under load",
        "my middleware -> HTTPException: 401 raised twice",
        "starlette raises RuntimeError: No response returned. from my middleware",
    ],
)
def test_a_quoted_error_is_a_request(text: str) -> None:
    assert _asks(text)


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError is a subclass of Exception",
        "the runtime error page looks fine now",
        "valueerror: bad thing in the log",
    ],
)
def test_an_error_named_without_its_message_or_not_as_python_writes_it_is_not(text: str) -> None:
    assert not _asks(text)


# A wish with its subject dropped, as notes are written.
@pytest.mark.parametrize(
    "text",
    [
        "want to measure how long every request takes and add it as response header, for all "
        "routes at once",  # dev17
        "need to run a cleanup after every request",
        "want to return a csv file from an endpoint",
        "need to read a header in every route",
        "want to upload several files at once",
        "need to protect the docs page with a password",
    ],
)
def test_a_wish_without_its_subject_is_a_request(text: str) -> None:
    assert _asks(text)


@pytest.mark.parametrize(
    "text", ["want to thank everyone for the help", "like to think it's fine", "need to go"]
)
def test_a_social_wish_or_a_bare_one_is_not(text: str) -> None:
    assert not _asks(text)


# A wish for a part of a web service, then what it should do.
@pytest.mark.parametrize(
    "text",
    [
        "old django habit: I'd like a middleware that times every request and puts the "
        "duration in an X-Process-Time response header",  # dev20
        "I want a dependency that checks the api key on every route",
        "we need an endpoint that streams the log file",
        "I'd like a websocket that pushes new orders to the dashboard",
        "we'd like some middleware that adds a request id",
        "I want an upload that goes straight to disk",
    ],
)
def test_a_wish_for_a_part_of_a_web_service_is_a_request(text: str) -> None:
    assert _asks(text)


@pytest.mark.parametrize(
    "text", ["I want a coffee", "I want a refund for the course", "we need a router"]
)
def test_a_wish_for_something_else_or_a_bare_part_is_not(text: str) -> None:
    assert not _asks(text)


# "as" joins a named feature to what qualifies it, like "with" and "for".
@pytest.mark.parametrize(
    "text",
    [
        "query param as list ?tag=a&tag=b",  # dev20
        "response as a csv download",
        "header as a list of values",
        "cookie as httponly for the session",
        "dependency as a class with init args",
        "websocket as a background worker for notifications",
    ],
)
def test_a_feature_qualified_with_as_is_a_request(text: str) -> None:
    assert _asks(text)


@pytest.mark.parametrize(
    "text", ["treated as a list", "as far as I know", "the response as it was"]
)
def test_as_without_a_named_feature_is_not(text: str) -> None:
    assert not _asks(text)


# On documentation pages, the asker's numbers are their own data: no hard no.
_PATH_PARAMS = (
    "Path convertor. Using an option directly from Starlette you can declare a path parameter "
    "containing a path using a URL like: /files/{file_path:path}. In this case, the name of "
    "the parameter is file_path, and the last part, :path, tells it that the parameter should "
    "match any path. But you need file_path itself to contain a path, like "
    "home/johndoe/myfile.txt. So, the URL for that file would be something like: "
    "/files/home/johndoe/myfile.txt."
)


def _idf(term: str) -> float:
    return 2.0 + 0.0 * len(term)  # every word alike


@pytest.mark.parametrize(
    "question",
    [
        "route /files/{name} gives 404 when name is a whole path like home/johndoe/myfile.txt. "
        "how accept slashes inside the param",  # dev17
        "my path parameter is a file path like home/johndoe/myfile.txt and I get a 404",
        "404 for /files/home/johndoe/myfile.txt, how do I declare a path parameter holding a path",
        "path parameter containing a path with slashes, port 8000 gives 404",
        "how can a path parameter match a whole file path, my URL has 3 slashes",
        "/files/{file_path} returns 404 when the file path has slashes",
    ],
)
def test_a_number_the_page_lacks_is_weighed_on_pages_and_a_hard_no_elsewhere(
    question: str,
) -> None:
    check = AnswerCheck(load_model())
    evidence = [
        Evidence(
            "So, the URL for that file would be something like: /files/home/johndoe/myfile.txt.",
            _PATH_PARAMS,
            "Path Parameters",
            0.6,
        )
    ]
    assert check.judge(question, evidence, _idf).probability == 0.0
    assert check.judge(question, evidence, _idf, pages=True).probability > 0.0


def test_a_year_the_page_lacks_stays_a_hard_no_on_pages() -> None:
    check = AnswerCheck(load_model())
    evidence = [Evidence("/files/home/johndoe/myfile.txt.", _PATH_PARAMS, "Path Parameters", 0.6)]
    judged = check.judge("path parameter with a path in 2019", evidence, _idf, pages=True)
    assert judged.probability == 0.0


# The reviewer's: statements and thanks that are no request (each construct's near-misses).
@pytest.mark.parametrize(
    "text",
    [
        # something works, "but" no failure after it
        "thanks, it works now but I had to restart the server",
        "all working, but thanks for the help",
        "that works but it's ugly, thanks anyway",
        "works great but the docs could be clearer",
        # "never" without what should have happened
        "the docs never lie",
        "it never rains but it pours",
        "that never gets old",
        # a feeling or a stance at the start of a line, with or without its apostrophe
        "doesnt matter",
        "doesn't matter",
        "cant complain",
        "can't complain",
        "wont happen again, sorry",
        "won't happen again, sorry",
        # a wish without its subject and without a task verb
        "want to go home early today",
        "want to let you know it works",
        "need to grab lunch first",
        # an error quoted and said to be settled
        "thanks, the KeyError: was my typo, all good now",
        "the ValueError: was my mistake, sorted",
        "AttributeError: fixed it, it was the import",
    ],
)
def test_a_statement_or_thanks_is_no_request(text: str) -> None:
    assert not _asks(text), classify_turn(text)


@pytest.mark.parametrize(
    "text",
    [
        "it works on my machine but not in docker",
        "works locally but fails in prod",
        "the endpoint works locally but returns 502 behind nginx",
        "it works with uvicorn but the tests can't reach it",
        "the startup event never fires",
        "the cleanup never gets called",
        "doesnt work after the upgrade",
        "can't connect to the database from the container",
        "want to return a csv file from an endpoint",
        "want to measure how long every request takes",
        "KeyError: 'user_id' when reading the session in a dependency",
        "thanks! now I get KeyError: 'user' in the dependency",
    ],
)
def test_the_near_misses_are_still_requests(text: str) -> None:
    assert _asks(text), classify_turn(text)
