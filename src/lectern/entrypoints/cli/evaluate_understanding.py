"""`lectern evaluate understanding`: the understanding sets per surface and split.

Figures and their definitions: `application/evaluation/understanding.py`. The book assistant
runs over a copy of the data directory's catalog; each workspace case on a freshly seeded
demo workspace; the guideline and KB surfaces only when their collections (`nist`, `rfc`,
and `--kb-collection`) are in the data directory. With `local` or `hybrid` the local model
is loaded once and shared by every case's world, and each call it makes is checked against
the tool's input model (`valid_call_rate`). `--every N` runs every N-th case by sorted id
of the book and workspace sets (a fixed sample when the model is slow).
"""

from __future__ import annotations

import itertools
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from lectern.application.evaluation.understanding_splits import SPLIT_CHOICES
from lectern.entrypoints.cli.common import _guarded, _services, out
from lectern.errors import ConfigurationError, LecternError

if TYPE_CHECKING:
    from lectern.application.evaluation.tool_calls import CheckedCalls
    from lectern.application.evaluation.understanding import Judged
    from lectern.bootstrap import Services
    from lectern.settings import Settings

MODEL_PROVIDERS = ("local", "hybrid")
"""The providers whose local model is loaded once and its calls checked."""


Case = TypeVar("Case")


def sampled(cases: Sequence[Case], every: int, key: Callable[[Case], str]) -> list[Case]:
    """Every `every`-th case in the order of `key` (all of them in that order when 1)."""
    return sorted(cases, key=key)[::every]


class _NoReviews:
    """Reviews are not part of what the sets measure."""

    def enqueue(self, job: Any) -> str:
        del job
        return "not-run"


def _assistant(
    settings: Settings, source: Path, every: int, overrides: dict[str, Any]
) -> list[Judged] | str:
    from lectern.application.assistant.books import resolve_book
    from lectern.application.evaluation.assistant import ConversationRunner, load_conversations
    from lectern.application.evaluation.understanding import judge_assistant
    from lectern.bootstrap import bootstrap

    catalog = settings.data_dir / "catalog.db"
    if settings.catalog_url:
        return "not run: the book sets run on a copy of the data directory's SQLite catalog"
    if not catalog.is_file():
        return f"not run: no book catalog at {catalog} (run `lectern ingest` first)"
    with tempfile.TemporaryDirectory(prefix="lectern-understanding-") as folder:
        copy = Path(folder) / "catalog.db"
        _snapshot(catalog, copy)
        services = bootstrap(
            settings.model_copy(update={"catalog_url": f"sqlite:///{copy}"}), **overrides
        )

        def resolve(title: str) -> str | None:
            try:
                return str(resolve_book(services.tool_deps(), title).id)
            except LecternError:
                return None

        runner = ConversationRunner(
            services.assistant(), services.library(), services.catalog, resolve
        )
        cases = sampled(load_conversations(source), every, lambda case: case.id)
        return [judge_assistant(case, runner.run_case(case)) for case in cases]


def _workspace(
    settings: Settings, shared: Services, source: Path, every: int, overrides: dict[str, Any]
) -> list[Judged]:
    from lectern.application.evaluation.understanding import judge_workspace
    from lectern.application.evaluation.workspace import (
        WorkspaceWorld,
        load_workspace_conversations,
        run_workspace_case,
    )
    from lectern.application.workspace.demo import DEMO_ATTACK, DEMO_KEV, DemoUsers, seed_demo
    from lectern.bootstrap import bootstrap

    collections = shared.collections()
    links = []
    for label in (*DEMO_KEV, *DEMO_ATTACK):
        try:
            resolved = collections.resolve(f"[{label}]")
        except LecternError:
            continue
        links.append((resolved.document.collection, resolved.document.id))
    numbers = itertools.count(1)
    with tempfile.TemporaryDirectory(prefix="lectern-understanding-ws-") as folder:

        def make_world(today: date | None) -> WorkspaceWorld:
            database = Path(folder) / f"case-{next(numbers)}.db"
            clock = {} if today is None else {"clock": _fixed_clock(today)}
            services = bootstrap(
                settings.model_copy(update={"catalog_url": f"sqlite:///{database}"}),
                collections=collections,
                review_queue=_NoReviews(),
                **overrides,
                **clock,
            )
            workspace = services.workspace()
            demo = seed_demo(workspace, DemoUsers(viewer="vera"), links)
            rival = workspace.create_organization("mallory", "Umbrella")
            project = workspace.create_project("mallory", rival.id, "Umbrella secrets")
            task = workspace.create_task("mallory", project.id, "Patch the Check Point gateways")
            return WorkspaceWorld(workspace, services.assistant(), demo, project.id, task.id)

        judged: list[Judged] = []
        for case in sampled(load_workspace_conversations(source), every, lambda c: c.id):
            judged += judge_workspace(case, run_workspace_case(case, make_world(case.today)))
        return judged


def _snapshot(database: Path, copy: Path) -> None:
    """A consistent copy of a SQLite file that another process may be writing.

    A file copy of a database in WAL mode misses what the log holds and may catch a write
    half done (one book message of a split read differently in runs made while other
    evaluations used the same data directory). SQLite's online backup copies one consistent
    state, the log included.
    """
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(copy)) as target:
        source.backup(target)


def _fixed_clock(today: date) -> Callable[[], datetime]:
    """A clock stopped at 09:00 UTC on `today`: a case's relative dates count from its day."""
    moment = datetime(today.year, today.month, today.day, 9, tzinfo=UTC)
    return lambda: moment


def _guideline(shared: Services, source: Path) -> list[Judged] | str:
    import time

    from lectern.application.evaluation.understanding import judge_guideline

    questions = json.loads(source.read_text(encoding="utf-8"))["questions"]
    agent = shared.guide()
    for profile in sorted({str(q["profile"]) for q in questions}):
        try:
            shared.collections().show(agent.profile(profile).collection)
        except LecternError as error:
            return f"not run: {error}"
    sessions: dict[str, str] = {}
    judged = []
    for item in questions:
        started = time.perf_counter()
        try:
            answer = agent.ask(
                "understanding",
                item["question"],
                profile=item["profile"],
                session_id=sessions.get(item.get("session", "")),
            )
        except LecternError as error:
            return f"not run: {error}"
        ms = (time.perf_counter() - started) * 1000
        if item.get("session"):
            sessions[item["session"]] = answer.session_id
        record = {
            "answer": answer.answer,
            "refused": answer.answer == agent.profile(item["profile"]).refusal,
            "labels": [c.label for c in answer.citations],
            "ms": ms,
        }
        judged.append(judge_guideline(item, record))
    return judged


def _kb(shared: Services, source: Path, collection: str) -> list[Judged] | str:
    from lectern.application.evaluation.answering import ReplyEvaluation, load_support_questions
    from lectern.application.evaluation.understanding import judge_reply

    _, cases = load_support_questions(source)
    try:
        records = ReplyEvaluation(shared.kb_replier(), shared.knowledge_bases(), collection).run(
            cases
        )
    except LecternError as error:
        return f"not run: {error}"
    return [judge_reply(r.answerable, r.replied, r.latency_ms) for r in records]


def run_understanding(
    settings: Settings,
    splits: tuple[str, ...],
    surfaces: tuple[str, ...],
    kb_collection: str,
    build: Callable[[Settings], Services] | None = None,
    every: int = 1,
) -> dict[str, Any]:
    """Figures per surface and split (a string says why a surface did not run)."""
    from lectern.application.evaluation.tool_calls import CallTally
    from lectern.application.evaluation.understanding import figures, splits_present
    from lectern.bootstrap import bootstrap

    model = settings.resolved_local_model_path
    if settings.assistant_provider in MODEL_PROVIDERS and not model.is_file():
        # Without the file each model step fails, the rules' question stands and the figures
        # are the rules' under the model's name: refused before any case runs.
        raise ConfigurationError(
            f"no local model at {model}: `make local-llm` writes it to var/models of the "
            "checkout; set LECTERN_LOCAL_MODEL_PATH to it, or run from a data directory that "
            "holds it"
        )
    shared = (build or bootstrap)(settings)
    checked = _checked_model(shared) if settings.assistant_provider in MODEL_PROVIDERS else None
    overrides: dict[str, Any] = {} if checked is None else {"local_tool_model": checked}
    report: dict[str, Any] = {"provider": settings.assistant_provider, "surfaces": {}}
    for surface in surfaces:
        for split, found in splits_present(surface, splits):
            source = Path(str(found))
            result: list[Judged] | str
            if checked is not None:
                checked.tally = CallTally()
            started = time.perf_counter()
            if surface == "assistant":
                result = _assistant(settings, source, every, overrides)
            elif surface == "workspace":
                result = _workspace(settings, shared, source, every, overrides)
            elif surface == "guideline":
                result = _guideline(shared, source)
            else:
                result = _kb(shared, source, kb_collection)
            seconds = time.perf_counter() - started
            if isinstance(result, str):
                report["surfaces"].setdefault(surface, {})[split] = result
                continue
            found_figures = figures(result)
            found_figures["seconds"] = round(seconds, 1)
            if checked is not None:
                found_figures.update(checked.tally.figures())
                found_figures["invalid_calls"] = checked.tally.invalid
            report["surfaces"].setdefault(surface, {})[split] = found_figures
    return report


def _checked_model(shared: Services) -> CheckedCalls:
    """The local model, loaded once for every case's world, its calls checked."""
    from lectern.application.evaluation.tool_calls import CheckedCalls

    return CheckedCalls(shared.local_tool_model(), shared.tool_registry())


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.1%}" if isinstance(value, float) and value <= 1 else str(value)


def evaluate_understanding(
    provider: Annotated[
        str, typer.Option(help="The assistant's model: rules, local or hybrid.")
    ] = "rules",
    split: Annotated[
        str,
        typer.Option(
            help=f"One of {', '.join(SPLIT_CHOICES)}: a devN half is for tuning, test and "
            "testN halves are held out (run each once); all runs dev and test."
        ),
    ] = "dev",
    surface: Annotated[
        list[str] | None,
        typer.Option(help="Only these surfaces (assistant, workspace, guideline, kb)."),
    ] = None,
    kb_collection: Annotated[
        str, typer.Option(help="The collection of the FastAPI documentation.")
    ] = "fastapi",
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    every: Annotated[
        int,
        typer.Option(min=1, help="Every N-th case of the book and workspace sets, by sorted id."),
    ] = 1,
) -> None:
    """Tools and arguments, end state, clarifications, wrong actions and latency."""
    from lectern.application.evaluation.understanding import SPLITS, SURFACES

    if split not in SPLIT_CHOICES:
        raise typer.BadParameter(f"--split takes {', '.join(SPLIT_CHOICES)}, not {split!r}")
    chosen = tuple(surface or SURFACES)
    unknown = [s for s in chosen if s not in SURFACES]
    if unknown:
        raise typer.BadParameter(f"unknown surface {unknown[0]!r}; one of {', '.join(SURFACES)}")

    def run() -> None:
        base = _services().settings
        settings = base.model_copy(update={"assistant_provider": provider})
        splits = SPLITS if split == "all" else (split,)
        report = run_understanding(settings, splits, chosen, kb_collection, every=every)
        if as_json:
            sys.stdout.write(json.dumps(report, indent=1) + "\n")
            return
        names: tuple[str, ...] = (
            "tool_accuracy",
            "state_accuracy",
            "clarify_precision",
            "clarify_recall",
            "wrong_action_rate",
            "latency_p50_ms",
            "latency_p95_ms",
            "seconds",
        )
        if provider in MODEL_PROVIDERS:
            names = (*names, "model_steps", "valid_call_rate")
        out.print(f"provider {provider}", highlight=False)
        out.print("surface/split | messages | " + " | ".join(names), highlight=False)
        for name, by_split in report["surfaces"].items():
            for which, result in by_split.items():
                if isinstance(result, str):
                    out.print(f"{name}/{which} | {result}", highlight=False)
                    continue
                cells = " | ".join(_cell(result.get(n)) for n in names)
                out.print(f"{name}/{which} | {result['messages']} | {cells}", highlight=False)

    _guarded(run)
