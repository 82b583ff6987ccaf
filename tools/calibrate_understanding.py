"""Re-decide the layer's logged readings at other floors: how `READ_FLOOR` was chosen.

Input: JSON lines from `tools/understanding_cases.py` (dev splits only). Each message the
layer read gives one decision point: its best intent after the words that rule out, the
softmax confidence, the margin, and what the set expected (an intent, a tool, or a question).
Every rule is scored on the same points:

- acting on the best intent is right when it is the expected one, a wrong look-up when it
  changes nothing, a wrong change when it would propose one (or a question was due);
- asking is right when a question was due, needless otherwise.

The utility weighs a wrong change twice (`+1` right, `-1` wrong look-up or needless question,
`-2` wrong change). Offline, a change read right but planned into a question ("close the
task": which task?) still counts as acting, so the full run (`lectern evaluate
understanding`) decides between rules this ranks alike. The sweep covers the floor and
margin for every intent and a lower floor for look-ups alone; a logistic regression over
top score, margin, log-odds of the confidence and "changes something" (scikit-learn, the
`train` extra) is fitted on the first file set as the comparison. Choose on one split,
confirm on the other:

    python tools/calibrate_understanding.py --fit dev-*.jsonl --check dev2-*.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from lectern.adapters.understanding.intent_examples import CONVERSATIONAL
from lectern.adapters.understanding.layer import (
    CHANGES,
    CONFIDENCE_FLOOR,
    MARGIN_FLOOR,
    READ_FLOOR,
)

Point = dict[str, Any]
Rule = Callable[[Point], bool]


def points(paths: Iterable[Path]) -> list[Point]:
    """One decision point per message the layer decided (multi-turn workspace cases skipped)."""
    found: list[Point] = []
    for path in paths:
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        turns = Counter(r["id"] for r in records)
        for record in records:
            decided = [r for r in record["readings"] if "decided" in r]
            if not decided or turns[record["id"]] > 1:
                continue
            last = decided[-1]
            wanted = None
            if not record["expect_clarify"]:
                expected = record["expected"]
                wanted = record["expect_intent"] or (expected[0] if expected else None)
            found.append(
                {
                    "say": record["say"],
                    "best": last["best"],
                    "wanted": wanted,
                    "confidence": last["confidence"],
                    "margin": last["margin"],
                    "top": last["ranked"][0][1],
                }
            )
    return found


def outcome(found: list[Point], act: Rule) -> dict[str, Any]:
    """What a rule does on the points, and its utility."""
    tally = Counter[str]()
    for point in found:
        if act(point):
            if point["best"] == point["wanted"]:
                tally["acts_right"] += 1
            elif point["best"] in CHANGES:
                tally["wrong_changes"] += 1
            else:
                tally["wrong_look_ups"] += 1
        elif point["wanted"] is None:
            tally["asks_right"] += 1
        else:
            tally["needless_questions"] += 1
    asked = tally["asks_right"] + tally["needless_questions"]
    return {
        **tally,
        "question_precision": round(tally["asks_right"] / asked, 3) if asked else None,
        "utility": tally["acts_right"]
        + tally["asks_right"]
        - tally["wrong_look_ups"]
        - tally["needless_questions"]
        - 2 * tally["wrong_changes"],
    }


def threshold_rule(floor: float, margin: float, read_floor: float) -> Rule:
    """The layer's decision: the floor and margin, and a lower floor for look-ups."""

    def act(point: Point) -> bool:
        if point["confidence"] >= floor and point["margin"] >= margin:
            return True
        looks = point["best"] not in CHANGES and point["best"] not in CONVERSATIONAL
        return looks and point["confidence"] >= read_floor

    return act


def _features(point: Point) -> list[float]:
    share = min(max(point["confidence"], 1e-4), 1 - 1e-4)
    return [
        point["top"],
        point["margin"],
        math.log(share / (1 - share)),
        float(point["best"] in CHANGES),
    ]


def main() -> None:
    """Sweep on `--fit`, report the same rules on `--check`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--report", type=Path, help="write the report as JSON here")
    args = parser.parse_args()
    fit, check = points(args.fit), points(args.check)
    rules: list[dict[str, Any]] = []
    for floor in (0.4, 0.5, 0.55, 0.6):
        for margin in (0.0, 0.01, 0.02):
            for read_floor in (0.0, 0.3, 0.35, 0.4, 0.45, 0.5, 1.0):
                if read_floor < 1.0 and read_floor >= floor:
                    continue
                act = threshold_rule(floor, margin, read_floor)
                rules.append(
                    {
                        "floor": floor,
                        "margin": margin,
                        "read_floor": read_floor,
                        "fit": outcome(fit, act),
                        "check": outcome(check, act) if check else None,
                    }
                )
    rules.sort(key=lambda r: (-r["fit"]["utility"], -r["read_floor"], -r["floor"]))
    report: dict[str, Any] = {
        "fit_points": len(fit),
        "check_points": len(check),
        "current": next(
            r for r in rules if (r["floor"], r["margin"], r["read_floor"]) == (0.55, 0.01, 1.0)
        ),
        "in_code": next(
            r
            for r in rules
            if (r["floor"], r["margin"], r["read_floor"])
            == (CONFIDENCE_FLOOR, MARGIN_FLOOR, READ_FLOOR)
        ),
        "best": rules[:5],
    }
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        report["logistic_regression"] = "not fitted: install the train extra (scikit-learn)"
    else:
        labels = [int(p["best"] == p["wanted"]) for p in fit]
        model = LogisticRegression().fit([_features(p) for p in fit], labels)
        fitted = []
        for cut in (0.3, 0.4, 0.5, 0.6, 0.7):

            def act(point: Point, cut: float = cut) -> bool:
                return float(model.predict_proba([_features(point)])[0, 1]) >= cut

            fitted.append(
                {
                    "p_right_at_least": cut,
                    "fit": outcome(fit, act),
                    "check": outcome(check, act) if check else None,
                }
            )
        report["logistic_regression"] = {
            "features": ["top score", "margin", "log-odds of confidence", "changes something"],
            "coefficients": [round(float(c), 4) for c in model.coef_[0]],
            "intercept": round(float(model.intercept_[0]), 4),
            "rules": fitted,
        }
    text = json.dumps(report, indent=1)
    if args.report:
        args.report.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
