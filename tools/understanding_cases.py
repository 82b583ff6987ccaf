"""Per-case outcomes of the understanding sets, for tuning on the dev splits only.

`lectern evaluate understanding` prints figures; this prints (or writes as JSON lines) every
message with what was expected, what the assistant did, and the layer's readings of it
(confidence, margin, the likeliest intents, what it decided), so false questions can be
sorted by why they were asked. It refuses the held-out splits (test, test2 ... test20).

    LECTERN_DATA_DIR=/work/var-copy python tools/understanding_cases.py --split dev \
        --surface workspace --out /tmp/cases.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lectern.application.evaluation.understanding_splits import TUNING_SPLITS

TUNABLE = TUNING_SPLITS


def main() -> None:
    """Run the chosen dev split's surfaces and write one record per judged message."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=TUNABLE, default="dev")
    parser.add_argument("--surface", action="append", choices=("assistant", "workspace"))
    parser.add_argument("--out", type=Path, help="JSON lines (default: standard output)")
    parser.add_argument("--failures", action="store_true", help="only the wrong ones")
    parser.add_argument(
        "--only", action="append", default=[], help="only the cases whose id ends with this"
    )
    args = parser.parse_args()

    import lectern.application.evaluation.understanding as judging
    import lectern.application.evaluation.workspace as workspace_runner
    from lectern.adapters.understanding import layer as layer_module
    from lectern.application.evaluation.assistant import ConversationRunner
    from lectern.entrypoints.cli.common import _services
    from lectern.entrypoints.cli.evaluate_understanding import run_understanding

    readings: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    original_read = layer_module.Understanding.read
    original_decided = layer_module.Understanding.decided

    def read(self: Any, text: str, tools: Any, mentions: Any = (), *, said: Any = None) -> Any:
        reading = original_read(self, text, tools, mentions, said=said)
        readings.append(
            {
                "text": said if said is not None else text,
                "masked": text,
                "ranked": [(s.intent, round(s.score, 4)) for s in reading.ranked[:4]],
                "confidence": round(reading.confidence, 4),
                "margin": round(reading.margin, 4),
            }
        )
        return reading

    def decided(self: Any, reading: Any) -> Any:
        intent = original_decided(self, reading)
        readings.append(
            {
                "decided": intent,
                "best": reading.best if reading.ranked else None,
                "confidence": round(reading.confidence, 4),
                "margin": round(reading.margin, 4),
                "ranked": [(s.intent, round(s.score, 4)) for s in reading.ranked[:4]],
            }
        )
        return intent

    layer_module.Understanding.read = read  # type: ignore[method-assign]
    layer_module.Understanding.decided = decided  # type: ignore[method-assign]

    run_case = ConversationRunner.run_case
    judge_assistant = judging.judge_assistant
    run_ws = workspace_runner.run_workspace_case
    judge_ws = judging.judge_workspace

    def run_case_logged(self: Any, case: Any) -> Any:
        readings.clear()
        outcome = run_case(self, case)
        outcome_readings = list(readings)
        judged = judge_assistant(case, outcome)
        records.append(
            {
                "surface": "assistant",
                "id": case.id,
                "say": case.turns[-1],
                "expected": [c.tool for c in case.calls],
                "expect_clarify": case.expect_clarify,
                "expect_intent": case.expect_intent,
                "made": [c.get("name") for c in outcome.calls],
                "calls": outcome.calls,
                "clarified": outcome.clarified,
                "reply": getattr(outcome, "reply", ""),
                "tools_ok": judged.tools_ok,
                "state_ok": judged.state_ok,
                "wrong_action": judged.wrong_action,
                "problems": outcome.problems,
                "readings": outcome_readings,
            }
        )
        return outcome

    def run_ws_logged(case: Any, world: Any) -> Any:
        readings.clear()
        outcome = run_ws(case, world)
        outcome_readings = list(readings)
        for index, turn in enumerate(case.turns):
            if turn.expect_calls is None:
                continue
            judged = judge_ws(case, outcome)
            made = outcome.calls[index] if index < len(outcome.calls) else []
            records.append(
                {
                    "surface": "workspace",
                    "id": case.id,
                    "say": turn.say,
                    "page": turn.page,
                    "expected": [c["tool"] for c in turn.expect_calls],
                    "expect_calls": turn.expect_calls,
                    "expect_clarify": turn.expect_clarify,
                    "expect_intent": turn.expect_intent,
                    "made": [c["name"] for c in made],
                    "calls": made,
                    "clarified": outcome.clarified[index]
                    if index < len(outcome.clarified)
                    else False,
                    "reply": outcome.replies[index] if index < len(outcome.replies) else "",
                    "tools_ok": all(j.tools_ok for j in judged),
                    "state_ok": outcome.state_ok,
                    "wrong_action": any(j.wrong_action for j in judged),
                    "problems": outcome.problems,
                    "readings": outcome_readings,
                }
            )
        return outcome

    ConversationRunner.run_case = run_case_logged  # type: ignore[method-assign]
    workspace_runner.run_workspace_case = run_ws_logged

    if args.only:
        import lectern.entrypoints.cli.evaluate_understanding as command

        every_case = command.sampled

        def only(cases: Any, every: int, key: Any) -> Any:
            chosen = every_case(cases, every, key)
            return [c for c in chosen if any(key(c).endswith(end) for end in args.only)]

        command.sampled = only  # type: ignore[assignment]

    settings = _services().settings.model_copy(update={"assistant_provider": "rules"})
    surfaces = tuple(args.surface or ("assistant", "workspace"))
    report = run_understanding(settings, (args.split,), surfaces, "fastapi")
    sink = args.out.open("w", encoding="utf-8") if args.out else sys.stdout
    for record in records:
        if args.failures and record["tools_ok"] and record["state_ok"]:
            continue
        sink.write(json.dumps(record) + "\n")
    sys.stderr.write(json.dumps(report["surfaces"], indent=1) + "\n")


if __name__ == "__main__":
    main()
