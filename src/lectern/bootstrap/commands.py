"""Operations a command runs over whole services: migrate, train the answer check, bots."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.application.ports import ProgressReporter
from lectern.bootstrap.operations import git_commit
from lectern.bootstrap.services import Services, bootstrap
from lectern.domain.books import JSONValue
from lectern.errors import ConfigurationError
from lectern.settings import Settings


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What `lectern migrate` did: rows per table, and the indexes built for the target."""

    tables: dict[str, int]
    books_indexed: int
    collections_indexed: dict[str, int]


def migrate_install(
    settings: Settings,
    target_url: str,
    *,
    batch_size: int = 2_000,
    progress: ProgressReporter | None = None,
    skip_indexes: bool = False,
) -> MigrationReport:
    """Copy this install's catalog database to `target_url`, then index it for the target.

    The target's settings are these settings with LECTERN_CATALOG_URL replaced, so the
    engine (LECTERN_ENGINE and its settings) is whichever this environment configures: the
    embedded indexes in the data directory, or the servers the environment names.
    """
    from lectern.adapters.catalog.copy import copy_catalog, open_databases

    source, target = open_databases(settings.resolved_catalog_url, target_url)
    try:
        copied = copy_catalog(source, target, batch_size=batch_size, progress=progress)
    finally:
        source.dispose()
        target.dispose()
    books = 0
    indexed: dict[str, int] = {}
    if not skip_indexes:
        services = bootstrap(settings.model_copy(update={"catalog_url": target_url}))
        if copied.tables.get("books"):
            books = services.indexing().index(progress=progress).passages
        collections = services.collections()
        for summary in collections.summaries():
            name = summary.record.name
            indexed[name] = collections.reindex(name, progress).passages
        catalog = services.catalog
        if isinstance(catalog, SqlAlchemyBookCatalog):
            catalog.close()
    return MigrationReport(dict(copied.tables), books, indexed)


def discord_support_bot(services: Services, collection: str) -> Any:
    """The support bot on Discord over `collection` (`lectern kb bot`), not yet connected."""
    try:
        from lectern.adapters.chat.discord_bot import DiscordReplies, DiscordSupportBot
    except ImportError:
        raise ConfigurationError(
            "lectern kb bot needs discord.py: pip install -e '.[discord]'"
        ) from None
    from lectern.application.answering.chat_channel import ChannelBot

    settings = services.settings
    replier = services.kb_replier()

    def make_bot(replies: DiscordReplies) -> ChannelBot:
        return ChannelBot(
            "discord",
            replier,
            replies,
            collection=collection,
            window_seconds=settings.ai_batch_window_seconds,
        )

    return DiscordSupportBot(make_bot, channels=settings.discord_channel_set)


def train_answer_gate(
    settings: Settings,
    clapnq: Path,
    collection: str,
    output: Path,
    *,
    progress: ProgressReporter | None = None,
    build: Callable[[Settings], Services] | None = None,
    terse: bool = True,
) -> dict[str, JSONValue]:
    """Train the answer check on ClapNQ and its perturbed twins; write the model file.

    With `terse`, each question is also asked as a terse support request
    (`question_styles.terse_variant`), labelled and split as its source.

    Every question (the 600 originals and the checked twins) is split by its passage (60/20/20
    train/dev/test); the regression learns on train, its threshold is picked on dev, test is
    reported. Returns the training report (also written beside the model, in the file).
    """
    from lectern.adapters.understanding.answer_training import (
        MODEL_VERSION_PREFIX,
        LabelledQuestion,
        collect,
        fit,
    )
    from lectern.application.answering.rules import RuleReplySteps
    from lectern.application.evaluation.answering import load_clapnq
    from lectern.application.evaluation.perturbed import make_twins, original_splits
    from lectern.application.evaluation.question_styles import terse_variants

    make = build or bootstrap
    services = make(settings)
    kb = services.knowledge_bases().get(collection)
    splits = original_splits(clapnq)
    questions = [
        LabelledQuestion(c.id, c.question, c.answerable, splits[c.id], c.gold_sentences)
        for c in load_clapnq(clapnq)
    ]
    questions += [
        LabelledQuestion(t.id, t.question, False, t.split, (), "perturbed")
        for t in make_twins(clapnq)
    ]
    # The same questions as terse support requests, so that the model does not learn the
    # full question's shape as a sign of an answer; each keeps its passage's split.
    terse_of = terse_variants({q.id: q.question for q in questions}) if terse else {}
    questions += [
        replace(q, id=f"{q.id}-terse", question=terse_of[q.id], source=f"{q.source}-terse")
        for q in list(questions)
        if q.id in terse_of
    ]
    if progress is not None:
        progress.start("answer check: signals", len(questions))
    rows = collect(
        questions,
        kb,
        RuleReplySteps(settings.ai_max_answer_chars),
        settings.ai_max_sources,
        progress.advance if progress is not None else None,
    )
    version = f"{MODEL_VERSION_PREFIX}-{git_commit()[:7]}"
    model = fit(rows, version=version)
    report = {
        **model.report,
        "collection": collection,
        "min_relevance": settings.ai_min_relevance,
        "questions": {
            s: sum(1 for q in questions if q.split == s) for s in ("train", "dev", "test")
        },
    }
    model = replace(model, report=report)
    output.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    return cast(dict[str, JSONValue], model.to_json())


def packaged_answer_model() -> Path:
    """The answer check's model file shipped in the package."""
    from lectern.adapters.understanding import answer_check

    return Path(answer_check.__file__).with_name(answer_check.MODEL_FILE)
