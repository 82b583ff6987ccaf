"""Automatic reviews: cited comments, triggers on and off, failures retried and harmless.

The queue tests run against the machine's Redis (rq) and the in-process thread fallback.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from rq.registry import FailedJobRegistry

from lectern.adapters.jobs.review_outbox import OutboxReviewQueue
from lectern.adapters.jobs.rq_reviews import RqReviewQueue, run_review_worker
from lectern.adapters.jobs.thread_reviews import ThreadReviewQueue
from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.application.workspace.ports import ReviewJob
from lectern.application.workspace.reviews import ReviewService
from lectern.domain.grounding import is_valid_snippet
from lectern.domain.workspace import REVIEWER, Comment, ReviewSettings
from tests.workspace_world import Seeded, seeded

BRIEFING = (
    b"# Gateway briefing\n\n"
    b"Check Point Quantum Security Gateways contain an information disclosure vulnerability. "
    b"The moon is made of green cheese and orbits the earth slowly every single night. "
    b"Contact ops@acme.example for access to the gateway consoles.\n"
)


@pytest.fixture
def world(tmp_path: Path) -> Seeded:
    return seeded(tmp_path)


def _reviews(world: Seeded) -> ReviewService:
    return ReviewService(world.service, ExtractiveLLM(), PatternPiiDetector())


def _source_text(world: Seeded, source: str) -> str:
    kind, _, ident = source.partition(":")
    if kind == "document":
        return world.service.document_view("alice", ident).view.document.text
    task = world.service.task("alice", ident)
    return f"{task.title}. {task.description}"


def _assert_citations_verified(world: Seeded, comment: Comment) -> None:
    assert comment.citations
    for citation in comment.citations:
        assert is_valid_snippet(citation.snippet, _source_text(world, citation.source)), citation
        assert f'"{citation.snippet}" {citation.label}' in comment.text


def test_a_document_review_summarises_finds_pii_and_checks_statements(world: Seeded) -> None:
    link = world.service.upload_document("bob", world.vpn.id, "briefing.md", BRIEFING)
    job = ReviewJob(world.acme, world.vpn.id, f"document:{link.id}", "document_created", "bob")
    comment = _reviews(world).run(job)
    assert comment is not None and comment.author == REVIEWER
    assert comment.document_id == link.id
    text = comment.text
    assert "Summary:" in text
    assert "Personal data found: email address: 1" in text and "ops@acme.example" not in text
    supported, unsupported = text.split("No support found in the project's documents:")
    assert "Check Point Quantum Security Gateways contain" in supported.split("Supported:")[1]
    assert "supported by" in supported and "[advisories:cve-2024-24919.md" in supported
    assert "green cheese" in unsupported
    assert "ops@acme" not in text and "example for access" not in text
    _assert_citations_verified(world, comment)
    assert world.service.comments("alice", document_id=link.id) == [comment]


def test_a_task_review_cites_the_task(world: Seeded) -> None:
    job = ReviewJob(world.acme, world.vpn.id, f"task:{world.patch.id}", "task_in_review", "bob")
    comment = _reviews(world).run(job)
    assert comment is not None and comment.task_id == world.patch.id
    _assert_citations_verified(world, comment)
    assert "Personal data: none found." in comment.text


def test_a_review_of_a_target_that_is_gone_posts_nothing(world: Seeded) -> None:
    job = ReviewJob(world.acme, world.vpn.id, "document:missing", "document_created", "bob")
    assert _reviews(world).run(job) is None


def _thread_world(world: Seeded, handler: object) -> ThreadReviewQueue:
    queue = ThreadReviewQueue(handler, retries=2, retry_seconds=0)  # type: ignore[arg-type]
    world.service.reviews = queue
    return queue


def test_reviews_on_yield_a_comment_and_off_yield_none(world: Seeded) -> None:
    queue = _thread_world(world, _reviews(world).run)
    quiet = world.service.upload_document("bob", world.vpn.id, "quiet.md", BRIEFING)
    queue.drain()
    assert world.service.comments("bob", document_id=quiet.id) == []
    world.service.set_reviews("alice", world.acme, ReviewSettings(document_created=True))
    loud = world.service.upload_document("bob", world.vpn.id, "loud.md", BRIEFING)
    queue.drain()
    (comment,) = world.service.comments("bob", document_id=loud.id)
    _assert_citations_verified(world, comment)
    queue.close()


def test_a_failing_review_is_retried_with_a_limit_and_changes_nothing(world: Seeded) -> None:
    attempts: list[str] = []

    def broken(job: ReviewJob) -> None:
        attempts.append(job.target)
        raise RuntimeError("the model is down")

    queue = _thread_world(world, broken)
    world.service.set_reviews("alice", world.acme, ReviewSettings(document_created=True))
    link = world.service.upload_document("bob", world.vpn.id, "briefing.md", BRIEFING)
    before = world.service.document_view("bob", link.id).view.document
    queue.drain()
    assert len(attempts) == 3  # the first try and two retries
    assert world.service.document_view("bob", link.id).view.document == before
    assert world.service.document("bob", link.id) == link
    assert world.service.comments("bob", document_id=link.id) == []
    queue.close()


# --- rq on the machine's Redis ----------------------------------------------------------


@pytest.fixture
def rq_queue(redis_url: str) -> RqReviewQueue:
    queue = RqReviewQueue(
        redis_url, queue_name=f"lectern-test-{uuid.uuid4().hex[:8]}", retries=2, retry_seconds=0
    )
    yield queue  # type: ignore[misc]
    queue.queue.empty()
    FailedJobRegistry(queue=queue.queue).cleanup()
    for key in queue.connection.scan_iter(f"*{queue.queue.name}*"):
        queue.connection.delete(key)
    queue.close()


@pytest.mark.redis
def test_a_document_created_with_reviews_on_gets_a_review_through_redis(
    world: Seeded, rq_queue: RqReviewQueue
) -> None:
    world.service.reviews = rq_queue
    world.service.set_reviews("alice", world.acme, ReviewSettings(document_created=True))
    link = world.service.upload_document("bob", world.vpn.id, "briefing.md", BRIEFING)
    assert rq_queue.queue.count == 1
    run_review_worker(rq_queue, _reviews(world).run, burst=True)
    (comment,) = world.service.comments("bob", document_id=link.id)
    _assert_citations_verified(world, comment)


@pytest.mark.redis
def test_a_failing_review_on_redis_is_retried_then_kept_as_failed(
    world: Seeded, rq_queue: RqReviewQueue
) -> None:
    attempts: list[str] = []

    def broken(job: ReviewJob) -> None:
        attempts.append(job.target)
        raise RuntimeError("the model is down")

    world.service.reviews = rq_queue
    world.service.set_reviews("alice", world.acme, ReviewSettings(document_created=True))
    link = world.service.upload_document("bob", world.vpn.id, "briefing.md", BRIEFING)
    before = world.service.document_view("bob", link.id).view.document
    run_review_worker(rq_queue, broken, burst=True)
    assert len(attempts) == 3
    assert len(FailedJobRegistry(queue=rq_queue.queue)) == 1
    assert world.service.document_view("bob", link.id).view.document == before
    assert world.service.comments("bob", document_id=link.id) == []


@pytest.mark.redis
def test_a_review_that_fails_once_is_posted_on_the_retry(
    world: Seeded, rq_queue: RqReviewQueue
) -> None:
    reviews = _reviews(world)
    failures = [RuntimeError("a timeout")]

    def flaky(job: ReviewJob) -> object:
        if failures:
            raise failures.pop()
        return reviews.run(job)

    world.service.reviews = rq_queue
    world.service.set_reviews("alice", world.acme, ReviewSettings(task_in_review=True))
    world.service.update_task("bob", world.hunt.id, {"status": "in_review"})
    run_review_worker(rq_queue, flaky, burst=True)
    assert len(world.service.comments("bob", task_id=world.hunt.id)) == 1


def test_an_unreachable_redis_never_fails_the_edit(world: Seeded) -> None:
    world.service.reviews = RqReviewQueue("redis://127.0.0.1:1/0")
    world.service.set_reviews("alice", world.acme, ReviewSettings(document_created=True))
    link = world.service.upload_document("bob", world.vpn.id, "briefing.md", BRIEFING)
    assert world.service.document("bob", link.id) == link


@pytest.mark.redis
def test_a_review_queued_while_redis_is_down_is_kept_and_runs_when_it_returns(
    world: Seeded, rq_queue: RqReviewQueue
) -> None:
    outbox = OutboxReviewQueue(RqReviewQueue("redis://127.0.0.1:1/0"), world.store.engine)
    world.service.reviews = outbox
    world.service.set_reviews("alice", world.acme, ReviewSettings(document_created=True))
    link = world.service.upload_document("bob", world.vpn.id, "briefing.md", BRIEFING)
    assert world.service.document("bob", link.id) == link  # the edit stood
    assert outbox.waiting() == 1
    assert outbox.flush() == 0  # still down: kept, its attempt counted
    assert outbox.waiting() == 1
    outbox.inner = rq_queue  # Redis is back
    assert outbox.flush() == 1
    assert outbox.waiting() == 0
    assert rq_queue.queue.count == 1
    run_review_worker(rq_queue, _reviews(world).run, burst=True)
    (comment,) = world.service.comments("bob", document_id=link.id)
    _assert_citations_verified(world, comment)
    assert outbox.flush() == 0  # nothing twice
