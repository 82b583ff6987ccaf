"""The ClapNQ evaluation end to end over the real files (hashed vectors: the real-model
figures are bench/answering.py's); every returned citation must hold."""

from __future__ import annotations

import json
from pathlib import Path

from lectern.adapters.llm.graphs.kb_reply import KnowledgeBaseReplyGraph
from lectern.application.answering.rules import RuleReplySteps
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.application.evaluation.answering import (
    ReplyEvaluation,
    answering_artifact,
    load_clapnq,
    reply_figures,
)
from tests.answering_world import knowledge_bases
from tests.collection_wiring import collection_service

CLAPNQ = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "qa" / "clapnq-dev"


def test_clapnq_replies_cite_only_what_the_passages_say(tmp_path: Path) -> None:
    service = collection_service(tmp_path / "var")
    report = service.add("clapnq", CLAPNQ, mapping="clapnq")
    assert report.documents == 596
    bases = knowledge_bases(service, tmp_path / "kb", min_relevance=0.3)
    replier = KnowledgeBaseReplier(KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases)
    cases = load_clapnq(CLAPNQ)
    sample = [c for c in cases if c.answerable][:40] + [c for c in cases if not c.answerable][:40]
    records = ReplyEvaluation(replier, bases, "clapnq").run(sample)
    figures = reply_figures(records)
    assert figures["citations"] and figures["citations_valid"] == 1.0
    replied = figures["replied"]
    assert isinstance(replied, int) and 0 < replied < len(sample)
    hit = figures["gold_sentence_hit"]
    assert isinstance(hit, float) and hit >= 0.4  # 0.53 with hashed vectors; MiniLM: 0.89
    assert all(r.top_lexical is not None for r in records)
    artifact = answering_artifact(
        records, [], run_id="r", started_at="t", git_commit="c", config={}, sweep=records
    )
    assert json.loads(json.dumps(artifact))["relevance_sweep"]["min_relevance"] > 0
