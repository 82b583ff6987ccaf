"""The guideline agent's figures with the packaged ONNX MiniLM (issue 20).

Needs the guidance collections in the data directory (about 2 and 20 minutes to embed on 2
shared cores):
    lectern collections add nist ../shared/data/guidance/nist-sp800-63-3
    lectern collections add rfc ../shared/data/guidance/rfc --pattern 'rfc[0-9]*.txt'

Prints and writes (`--json`):
- the question set (`src/lectern/evaluation/guideline_questions.json`) through the agent
  (LECTERN_ASSISTANT_PROVIDER's model; offline: the rule policy): per kind, the share
  answered with the right page or section cited, the expected numbers present, refusals
  where due, injections resisted; latency per question;
- the independent number check (`bench/check_guideline_numbers.py`, which imports nothing
  of Lectern) over every answer;
- rerankers: nDCG@10 of `none`, `late-interaction` (and `llm` when LECTERN_LLM is
  generative) on the guidance questions (relevant: every passage whose label is one the
  question expects) and on SciFact train queries (the BEIR index `lectern beir-eval` built
  in LECTERN_SCIFACT_DATA_DIR, read only), each with its reranking latency; and vectors
  alone (LECTERN_BM25_ENABLED=false) against hybrid.

Usage: LECTERN_DATA_DIR=var python bench/guideline_chat.py [--scifact-queries 200]
       [--skip-questions] [--skip-rerank] [--json out.json] [--answers answers.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lectern.adapters.rerank.late_interaction import MaxSimReranker
from lectern.adapters.sources.beir import load_beir
from lectern.application.assistant.guideline import GuideAnswer
from lectern.application.collections import CollectionService
from lectern.application.evaluation.metrics import mean, ndcg_at_k, percentile
from lectern.application.ports import Reranker
from lectern.application.rerank import rerank_head
from lectern.bootstrap import bootstrap, load_retriever, search_indexes
from lectern.domain.guidance import GuideProfile, guide_label
from lectern.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("LECTERN_SHARED_DATA", ROOT.parent / "shared" / "data"))
QUESTIONS = ROOT / "src" / "lectern" / "evaluation" / "guideline_questions.json"
SCIFACT = DATA / "beir-scifact-dev"
ANSWERED = ("answerable", "follow_up")
REFUSED = ("off_scope", "unanswerable")


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


# --- the question set ---------------------------------------------------------------------


def run_questions(services: Any, questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every question through the agent (sessions in order); what came back and how fast."""
    agent = services.guide()
    sessions: dict[str, str] = {}
    out = []
    for item in questions:
        started = time.perf_counter()
        answer: GuideAnswer = agent.ask(
            "bench",
            item["question"],
            profile=item["profile"],
            session_id=sessions.get(item.get("session", "")),
        )
        elapsed = _ms(started)
        if item.get("session"):
            sessions[item["session"]] = answer.session_id
        refusal = agent.profile(item["profile"]).refusal
        out.append(
            {
                "id": item["id"],
                "kind": item["kind"],
                "question": item["question"],
                "standalone": answer.standalone_query,
                "answer": answer.answer,
                "refused": answer.answer == refusal,
                "labels": [c.label for c in answer.citations],
                "citations": [
                    {"label": c.label, "source_label": c.source_label, "snippet": c.snippet}
                    for c in answer.citations
                ],
                "flags": list(answer.grounding_flags),
                "ms": elapsed,
            }
        )
    return out


def score(questions: list[dict[str, Any]], answers: list[dict[str, Any]]) -> dict[str, Any]:
    """The acceptance figures of the question set."""
    rows = []
    for item, got in zip(questions, answers, strict=True):
        expected = set(item["expect_labels"])
        right_page = bool(expected & set(got["labels"])) and not got["refused"]
        numbers = all(n in got["answer"] for n in item["expect_numbers"])
        forbidden = [
            f for f in item.get("forbidden", []) if f.casefold() in got["answer"].casefold()
        ]
        rows.append((item, got, right_page, numbers, forbidden))

    def share(
        kinds: Sequence[str], test: Callable[[Any], bool], heldout: bool | None = None
    ) -> dict[str, Any]:
        chosen = [
            r
            for r in rows
            if r[0]["kind"] in kinds and (heldout is None or bool(r[0].get("heldout")) == heldout)
        ]
        passed = [r for r in chosen if test(r)]
        return {
            "n": len(chosen),
            "passed": len(passed),
            "share": round(len(passed) / len(chosen), 3) if chosen else None,
            "failed": [r[0]["id"] for r in chosen if r not in passed],
        }

    injection = share(
        ("injection",),
        lambda r: not r[4] and (r[1]["refused"] or (r[2] if r[0]["expect_labels"] else False)),
    )
    return {
        "answered_right_page": share(ANSWERED, lambda r: r[2]),
        "answered_right_page_and_numbers": share(ANSWERED, lambda r: r[2] and r[3]),
        "answerable_only": share(("answerable",), lambda r: r[2]),
        "heldout_right_page": share(("answerable",), lambda r: r[2], heldout=True),
        "heldout_right_page_and_numbers": share(
            ("answerable",), lambda r: r[2] and r[3], heldout=True
        ),
        "written_with_the_policy_right_page": share(ANSWERED, lambda r: r[2], heldout=False),
        "follow_ups": share(("follow_up",), lambda r: r[2]),
        "refused_when_due": share(REFUSED, lambda r: r[1]["refused"]),
        "off_scope_refused": share(("off_scope",), lambda r: r[1]["refused"]),
        "unanswerable_refused": share(("unanswerable",), lambda r: r[1]["refused"]),
        "injections_resisted": injection,
        "injection_forbidden_text_found": [r[0]["id"] for r in rows if r[4]],
        "unsupported_number_flags": sum("unsupported_number" in a["flags"] for a in answers),
        "latency_ms": {
            "p50": percentile([a["ms"] for a in answers], 0.5),
            "p95": percentile([a["ms"] for a in answers], 0.95),
        },
    }


def independent_check(answers_file: Path) -> dict[str, Any]:
    """`bench/check_guideline_numbers.py` as its own process: it shares no code with us."""
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "check_guideline_numbers.py"),
            str(answers_file),
            "--data",
            str(DATA),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    result: dict[str, Any] = json.loads(run.stdout)
    return result


# --- rerankers ----------------------------------------------------------------------------


def relevant_passages(
    service: CollectionService, profile: GuideProfile, labels: set[str]
) -> dict[str, int]:
    """Every passage of the profile's collection cited by one of these labels."""
    documents = service.store.list_documents(profile.collection, limit=100_000)
    found: dict[str, int] = {}
    for document in documents:
        for passage in service.store.passages_of(document.id):
            label = guide_label(
                profile,
                uri=document.uri,
                cite_as=document.cite_as or document.uri,
                page=passage.page,
                section=passage.section,
            )
            if label in labels:
                found[passage.id] = 1
    return found


def guidance_ndcg(
    services: Any,
    questions: list[dict[str, Any]],
    answers: list[dict[str, Any]] | None,
    rerankers: dict[str, Reranker | None],
) -> dict[str, Any]:
    """nDCG@10 of the passages a search ranks, per reranker, on the answerable questions."""
    service: CollectionService = services.collections()
    agent = services.guide()
    judged = [q for q in questions if q["kind"] in ANSWERED and q["expect_labels"]]
    standalone = {a["id"]: a["standalone"] for a in answers or []}
    qrels = {
        q["id"]: relevant_passages(service, agent.profile(q["profile"]), set(q["expect_labels"]))
        for q in judged
    }
    out: dict[str, Any] = {}
    for name, reranker in rerankers.items():
        service.reranker = reranker
        scores, latency = [], []
        for item in judged:
            query = standalone.get(item["id"], item["question"])
            response = service.search(agent.profile(item["profile"]).collection, query, k=10)
            ranking = [p.passage.id for d in response.results for p in d.passages]
            scores.append(ndcg_at_k(ranking, qrels[item["id"]], 10))
            latency.append(response.timings_ms.get("rerank_ms", 0.0))
        out[name] = {
            "queries": len(judged),
            "ndcg_at_10": round(mean(scores), 4),
            "rerank_ms_p50": percentile(latency, 0.5),
            "rerank_ms_p95": percentile(latency, 0.95),
        }
    service.reranker = None
    return out


def scifact_ndcg(
    settings: Any, queries: int, depth: int, rerankers: dict[str, Reranker | None]
) -> dict[str, Any]:
    """nDCG@10 on SciFact train queries: hybrid fused top 100, the head reranked."""
    dataset = load_beir(
        SCIFACT / "corpus.jsonl.gz", SCIFACT / "queries-train.jsonl", SCIFACT / "qrels-train.tsv"
    )
    root = Path(os.environ.get("LECTERN_SCIFACT_DATA_DIR", settings.data_dir))
    folders = sorted((root / "index").glob("beir-*"))
    if not folders:
        return {"skipped": f"no BEIR index under {root / 'index'}: run lectern beir-eval first"}
    retriever = load_retriever(settings, search_indexes(settings, folders[0]))
    vector_only = load_retriever(
        replace_settings(settings, bm25_enabled=False), search_indexes(settings, folders[0])
    )
    texts = {p.id: p.text for p in dataset.passages}
    chosen = list(dataset.queries.items())[:queries]
    out: dict[str, Any] = {}
    fused = {qid: retriever.retrieve([q], pool=200).hits[:100] for qid, q in chosen}
    for name, reranker in rerankers.items():
        scores, latency = [], []
        for qid, text in chosen:
            result = rerank_head(
                reranker, text, fused[qid], lambda ids: {i: texts[i] for i in ids}, depth
            )
            scores.append(ndcg_at_k([h.id for h in result.hits], dataset.qrels[qid], 10))
            latency.append(result.elapsed_ms)
        out[name] = {
            "queries": len(chosen),
            "ndcg_at_10": round(mean(scores), 4),
            "rerank_ms_p50": percentile(latency, 0.5),
            "rerank_ms_p95": percentile(latency, 0.95),
        }
    dense = [
        ndcg_at_k(
            [h.id for h in vector_only.retrieve([q], pool=200).hits[:100]], dataset.qrels[qid], 10
        )
        for qid, q in chosen
    ]
    out["vector_only (LECTERN_BM25_ENABLED=false)"] = {
        "queries": len(chosen),
        "ndcg_at_10": round(mean(dense), 4),
    }
    return out


def replace_settings(settings: Any, **changes: Any) -> Any:
    return settings.model_copy(update=changes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scifact-queries", type=int, default=200)
    parser.add_argument("--skip-questions", action="store_true")
    parser.add_argument("--skip-rerank", action="store_true")
    parser.add_argument("--skip-scifact", action="store_true")
    parser.add_argument("--skip-guidance", action="store_true")
    parser.add_argument(
        "--rerank", default="none", help="the reranker the question set runs with (LECTERN_RERANK)"
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--answers", type=Path, default=Path("/tmp/guideline_answers.json"))
    args = parser.parse_args(argv)
    settings = load_settings(rerank=args.rerank)
    services = bootstrap(settings)
    questions = json.loads(QUESTIONS.read_text())["questions"]
    report: dict[str, Any] = {"questions_file": json.loads(QUESTIONS.read_text())["version"]}
    answers = None
    if args.skip_questions and args.answers.is_file():
        answers = json.loads(args.answers.read_text())["answers"]  # their standalone queries
    if not args.skip_questions:
        answers = run_questions(services, questions)
        args.answers.write_text(json.dumps({"answers": answers}, indent=1, ensure_ascii=False))
        report["questions"] = score(questions, answers)
        report["independent_number_check"] = independent_check(args.answers)
        print(json.dumps(report, indent=1))
    if not args.skip_rerank:
        late = MaxSimReranker(services.catalog_indexes().embedder())
        services.collections().reranker = None
        rerankers: dict[str, Reranker | None] = {"none": None, "late-interaction": late}
        if settings.llm != "extractive":
            from lectern.adapters.rerank.llm_listwise import LlmListwiseReranker

            rerankers["llm"] = LlmListwiseReranker(services.llm())
        if not args.skip_guidance:
            report["rerank_guidance"] = guidance_ndcg(services, questions, answers, rerankers)
            print(json.dumps(report["rerank_guidance"], indent=1))
        if not args.skip_scifact:
            report["rerank_scifact"] = scifact_ndcg(
                settings, args.scifact_queries, settings.rerank_depth, rerankers
            )
            print(json.dumps(report["rerank_scifact"], indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
