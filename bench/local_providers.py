"""`rules`, `local` and `hybrid` on the same sample of the understanding sets, in one run.

    LECTERN_DATA_DIR=<a copy of a built data dir> python bench/local_providers.py \
        [--every 12] [--split dev] [--provider rules --provider local --provider hybrid] \
        [--free-every 36] [--out report.json]

The sample is every N-th case by sorted id of the book assistant and workspace sets (the
same cases for every provider). The packaged GGUF model is loaded once, on `--threads` cores,
and shared by `local` and `hybrid` (llama.cpp keeps the evaluated prefix of the tool
signatures across them); every call it makes is checked against the tool's input model.
`--free-every M` adds `local-free` on every M-th case: the same model without the grammar
(the way it ran before). Prints one row per provider and surface: tools and arguments, end state,
clarification recall, wrong actions, the share of valid model calls, and seconds a message. The
machine may be shared: the seconds are per run, not a promise.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.cli.evaluate_understanding import SPLIT_CHOICES, run_understanding
from lectern.settings import Settings, load_settings

COLUMNS = (
    "tool_accuracy",
    "state_accuracy",
    "clarify_recall",
    "wrong_action_rate",
    "valid_call_rate",
    "model_steps",
)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.1%}" if isinstance(value, float) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=12)
    parser.add_argument("--split", default="dev", choices=[s for s in SPLIT_CHOICES if s != "all"])
    parser.add_argument("--provider", action="append", choices=("rules", "local", "hybrid"))
    parser.add_argument("--surface", action="append", choices=("assistant", "workspace"))
    parser.add_argument("--free-every", type=int, help="Also the model without grammar.")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    base = load_settings(embed_threads=args.threads)
    runs = [(p, True, args.every) for p in args.provider or ("rules", "local", "hybrid")]
    if args.free_every:
        runs.append(("local", False, args.free_every))
    model = bootstrap(base.model_copy(update={"assistant_provider": "local"})).local_tool_model()
    surfaces = tuple(args.surface or ("assistant", "workspace"))
    report: dict[str, Any] = {"every": args.every, "split": args.split, "runs": {}}
    print("provider | surface | cases | " + " | ".join(COLUMNS) + " | s/message")
    for provider, grammar, every in runs:
        name = provider if grammar else "local-free"
        settings = base.model_copy(update={"assistant_provider": provider})
        model.model.constrained = grammar

        def build(chosen: Settings) -> Services:
            return bootstrap(chosen, local_tool_model=model)

        started = time.perf_counter()
        result = run_understanding(
            settings, (args.split,), surfaces, "fastapi", build=build, every=every
        )
        result["seconds"] = round(time.perf_counter() - started, 1)
        report["runs"][name] = result
        for surface, by_split in result["surfaces"].items():
            figures = by_split[args.split]
            if isinstance(figures, str):
                print(f"{name} | {surface} | {figures}")
                continue
            per_message = figures["seconds"] / max(figures["messages"], 1)
            cells = " | ".join(_cell(figures.get(column)) for column in COLUMNS)
            print(f"{name} | {surface} | {figures['messages']} | {cells} | {per_message:.1f}")
            for line in figures.get("invalid_calls", []):
                print(f"    invalid: {line}")
        if args.out is not None:
            args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
