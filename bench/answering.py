"""Knowledge-base replies on ClapNQ dev and research citations on KEV/ATT&CK (issue 15).

    LECTERN_DATA_DIR=/path/to/var python bench/answering.py [--tune] [--limit N] [--out FILE]

Needs the collections (real embeddings, the packaged MiniLM):
    lectern collections add clapnq ../shared/data/qa/clapnq-dev --mapping clapnq
    lectern collections add threats ../shared/data/threat/cisa-kev --mapping cisa-kev
    lectern collections add threats ../shared/data/threat/mitre-attack --mapping mitre-attack
    lectern collections add fastapi ../shared/data/kb/fastapi-docs/docs   (--support-collection)

The same run as `lectern evaluate answering`: ClapNQ (halves), its perturbed twins
(train/dev/test by passage, with the BM25 threshold baseline tuned on train), the multi-turn
conversations (ClapNQ generated, FastAPI by hand with --support-collection), research.
`--tune` first runs every question with no relevance floor and picks the floor on the
`tune` half (half of each class, split by a hash of the question id), reporting what it
does on the `held_out` half; then the configured defaults run (LECTERN_AI_MIN_RELEVANCE),
with the BM25 top-score baseline computed from the same run. The artifact goes to
`<data dir>/evaluation/runs/<run id>.json`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from lectern.entrypoints.cli.evaluate_answering import run_answering_evaluation
from lectern.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
CLAPNQ = ROOT.parent / "shared" / "data" / "qa" / "clapnq-dev"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clapnq", type=Path, default=CLAPNQ)
    parser.add_argument("--collection", default="clapnq")
    parser.add_argument("--research-collection", default="threats")
    parser.add_argument("--tune", action="store_true", help="also sweep the relevance floor")
    parser.add_argument("--limit", type=int, help="only the first n questions of each file")
    parser.add_argument("--out", type=Path, help="also write the artifact here")
    parser.add_argument(
        "--support-collection", help="also the FastAPI support questions over this collection"
    )
    args = parser.parse_args()
    began = time.perf_counter()
    artifact, path = run_answering_evaluation(
        load_settings(),
        args.clapnq,
        args.collection,
        args.research_collection,
        tune=args.tune,
        limit=args.limit,
        support_collection=args.support_collection,
    )
    if "relevance_sweep" in artifact:
        print("relevance sweep:", json.dumps(artifact["relevance_sweep"]))
    replies = artifact["replies"]
    assert isinstance(replies, dict)
    for split, values in replies.items():
        assert isinstance(values, dict)
        print(f"{split:9}", json.dumps({k: v for k, v in values.items() if k != "gates"}))
    print("gates", json.dumps(replies["all"]["gates"]))  # type: ignore[index,call-overload]
    print("bm25 baseline:", json.dumps(artifact["bm25_baseline"]))
    print("targets:", json.dumps(artifact["targets"]))
    print("research:", json.dumps(artifact["research"]))
    if "transfer" in artifact:
        print("transfer:", json.dumps(artifact["transfer"]))
    perturbed = artifact.get("perturbed")
    if isinstance(perturbed, dict):
        for split, values in perturbed.items():
            if isinstance(values, dict) and "balanced_accuracy" in values:
                shown = {k: v for k, v in values.items() if k not in ("gates", "reflection")}
                print(f"perturbed {split}", json.dumps(shown))
        print("perturbed bm25 baseline:", json.dumps(perturbed.get("bm25_baseline")))
    if "conversations" in artifact:
        print("conversations:", json.dumps(artifact["conversations"]))
    for record in artifact["research_records"]:  # type: ignore[union-attr]
        assert isinstance(record, dict)
        if record["recall"] != 1 or record["precision"] != 1:
            print("  ", record["id"], "gold", record["gold"], "cited", record["cited"])
    print(f"artifact: {path} ({time.perf_counter() - began:.0f} s)")
    if args.out:
        args.out.write_text(json.dumps(artifact, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
