"""Fit the answer check's threshold for knowledge bases of pages (`pages_threshold`).

    LECTERN_DATA_DIR=/work/var python tools/fit_pages_threshold.py            # writes it
    LECTERN_DATA_DIR=/work/var python tools/fit_pages_threshold.py --dry-run  # prints only

The answer check's model (`adapters/understanding/answer_check.json`) was fitted, and its
threshold picked, on ClapNQ: factoid questions over Wikipedia passages. A support knowledge
base is documentation pages asked how-to questions, whose answering sentences score lower
(session 14: on the KB dev pools every unanswerable question scored at most 0.35, and 18 of
67 answerable ones were silenced below 0.446). This runs the KB reply (rules, the `fastapi`
collection by default) over the understanding sets' KB dev splits, reads each question's
best probability from its decision path, and picks the lowest threshold at which the
replies to questions the docs do not answer stay within `MAX_WRONG_REPLIES` of them (a wrong
reply is worse than a silence). Printed: per split, each split read at a threshold picked
without it (the honest figure), beside the model's own threshold. Written into the model
file as `pages_threshold`, with this report; refit it after `--train-gate` refits the model.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from lectern.adapters.understanding import answer_check
from lectern.application.evaluation.answering import ReplyEvaluation, load_support_questions
from lectern.application.evaluation.understanding import split_file
from lectern.bootstrap import bootstrap
from lectern.settings import Settings

SPLITS = ("dev", "dev2", "dev4", "dev6", "dev8")
"""The KB dev splits (the test splits are never read here)."""
MAX_WRONG_REPLIES = 0.05
"""The most of the unanswerable questions a threshold may reply to."""
GRID = [round(0.10 + 0.01 * i, 2) for i in range(60)]
PACKAGED = Path(answer_check.__file__).with_name(answer_check.MODEL_FILE)

Scored = tuple[str, bool, float | None]
"""(split, answerable, the best sentence's probability or None when no draft was checked)."""


def scored(collection: str) -> list[Scored]:
    """Each KB dev question with its best probability, as the reply graph checked it."""
    services = bootstrap(Settings())
    rows: list[Scored] = []
    for split in SPLITS:
        found = split_file(split, "kb")
        if found is None:
            continue
        _, cases = load_support_questions(Path(str(found)))
        records = ReplyEvaluation(services.kb_replier(), services.knowledge_bases(), collection)
        for record in records.run(cases):
            probability = None
            for step in record.decision_path:
                match = re.fullmatch(r"check:\w+:([\d.]+)", step)
                if match:
                    probability = float(match.group(1))
            rows.append((split, record.answerable, probability))
    return rows


def right(rows: list[Scored], threshold: float) -> int:
    """How many questions get the right reply at `threshold`."""
    return sum(((p is not None and p >= threshold) == answerable) for _, answerable, p in rows)


def wrong_replies(rows: list[Scored], threshold: float) -> int:
    """How many unanswerable questions get a reply at `threshold`."""
    return sum(not a and p is not None and p >= threshold for _, a, p in rows)


def pick(rows: list[Scored]) -> float:
    """The lowest threshold whose wrong replies stay within MAX_WRONG_REPLIES."""
    unanswerable = sum(not a for _, a, _ in rows) or 1
    allowed = [t for t in GRID if wrong_replies(rows, t) / unanswerable <= MAX_WRONG_REPLIES]
    return min(allowed, default=GRID[-1])


def main() -> None:
    """Score, report leave-one-split-out, write the threshold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collection", default="fastapi")
    parser.add_argument("--model", type=Path, default=PACKAGED)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    model = answer_check.load_model(args.model)
    rows = scored(args.collection)
    report: dict[str, Any] = {"splits": {}}
    print(f"{'split':<6} {'n':>3} {'model threshold':>16} {'picked without it':>18}")
    for split in SPLITS:
        held = [r for r in rows if r[0] == split]
        if not held:
            continue
        threshold = pick([r for r in rows if r[0] != split])
        before, after = right(held, model.threshold), right(held, threshold)
        print(f"{split:<6} {len(held):>3} {before:>16} {after:>12} at {threshold}")
        report["splits"][split] = {
            "questions": len(held),
            "right_at_model_threshold": before,
            "right_left_out": after,
            "threshold_left_out": threshold,
            "wrong_replies_left_out": wrong_replies(held, threshold),
        }
    threshold = pick(rows)
    report.update(
        questions=len(rows),
        right_at_model_threshold=right(rows, model.threshold),
        right=right(rows, threshold),
        wrong_replies=wrong_replies(rows, threshold),
        picked="the lowest threshold replying to at most 5% of the unanswerable questions",
        collection=args.collection,
    )
    print(
        f"all    {len(rows):>3} {report['right_at_model_threshold']:>16} "
        f"{report['right']:>12} at {threshold} ({report['wrong_replies']} wrong replies)"
    )
    if args.dry_run:
        return
    data = json.loads(args.model.read_text(encoding="utf-8"))
    data["pages_threshold"] = threshold
    data.setdefault("report", {})["pages_threshold"] = report
    args.model.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote pages_threshold {threshold} into {args.model}")


if __name__ == "__main__":
    main()
