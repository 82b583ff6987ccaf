"""Split the understanding pool v2 into dev2 and test2 by a seeded shuffle, per surface.

The pool (one JSON file per surface, the existing sets' shape) was written by a helper who had
not read the rules. Each surface's cases are sorted by id, shuffled with `random.Random(SEED +
surface)`, grouped by kind (stable, so the shuffled order holds inside a kind) and dealt
alternately, so each half gets about half of every kind; the questions of one guideline
session are dealt as one. The first of the deal goes to dev2. `--check` rebuilds the pool
from the two splits and confirms the same deal comes out.

Usage: python tools/split_understanding_pool.py POOL_DIR
       python tools/split_understanding_pool.py --check
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

SEED = "pool-v2-2026-11-26"
SURFACES = ("workspace", "assistant", "guideline", "kb")
SETS = Path(__file__).resolve().parent.parent / "src/lectern/evaluation/understanding"
WRITTEN_BY = (
    "Written for issue 26 by a helper engineer who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of "
    "docs/assistant.md, not the earlier sets' requests): requests as people write them "
    "(terse, polite, indirect, questions and commands, typos, compound, context-dependent "
    "'this one' / 'it' with a page context) and requests whose right reply is a clarifying "
    "question. Every expectation is what a careful reader judges right from the words and the "
    "data: the seeded demo workspace, titles checked in the book catalog sources, guideline "
    "answers read in NIST SP 800-63 and the RFCs (page = form-feed page), KB answers in the "
    "FastAPI docs. expect_clarify: one clarifying question back, no action, state unchanged. "
    "expect_intent: greeting, thanks, capabilities or off_topic, no tool. One pool (origin "
    "pool-v2), split per surface by tools/split_understanding_pool.py (seeded shuffle, dealt "
    "by kind). "
)
ABOUT = {
    "dev2": WRITTEN_BY + "This is DEV2: tune on it. TEST2 (../test2) is held out: run it once, "
    "at the end of the work on issue 26.",
    "test2": WRITTEN_BY + "This is TEST2, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of the work on issue 26, and report that run.",
}


def items_key(surface: str) -> str:
    """The key of the cases in a surface's file."""
    return "questions" if surface in ("guideline", "kb") else "cases"


def deal(surface: str, items: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    """The (dev2, test2) halves of one surface's pool; a guideline session stays whole."""
    units: dict[str, list[dict[str, Any]]] = {}
    for item in sorted(items, key=lambda item: str(item["id"])):
        units.setdefault(str(item.get("session") or item["id"]), []).append(item)
    ordered = list(units.values())
    random.Random(f"{SEED}:{surface}").shuffle(ordered)
    by_kind = sorted(ordered, key=lambda unit: str(unit[0].get("kind", unit[0].get("answerable"))))
    return (
        [item for unit in by_kind[0::2] for item in unit],
        [item for unit in by_kind[1::2] for item in unit],
    )


def document(surface: str, split: str, items: list[Any]) -> dict[str, Any]:
    """A split file in the existing sets' shape."""
    return {
        "version": f"understanding-{surface}-{split}-pool-v2",
        "about": ABOUT[split],
        items_key(surface): sorted(items, key=lambda item: str(item["id"])),
    }


def write(pool: Path) -> None:
    """Deal every surface of the pool into dev2 and test2."""
    for surface in SURFACES:
        items = json.loads((pool / f"{surface}.json").read_text(encoding="utf-8"))
        items = items[items_key(surface)] if isinstance(items, dict) else items
        for split, half in zip(("dev2", "test2"), deal(surface, items), strict=True):
            folder = SETS / split
            folder.mkdir(exist_ok=True)
            text = json.dumps(document(surface, split, half), indent=1, ensure_ascii=False)
            (folder / f"{surface}.json").write_text(text + "\n", encoding="utf-8")
            print(f"{split}/{surface}.json: {len(half)}")


def check() -> bool:
    """Whether the split files are the deal of their union."""
    same = True
    for surface in SURFACES:
        halves = []
        for split in ("dev2", "test2"):
            data = json.loads((SETS / split / f"{surface}.json").read_text(encoding="utf-8"))
            halves.append(data[items_key(surface)])
        dev2, test2 = deal(surface, halves[0] + halves[1])
        ok = {i["id"] for i in dev2} == {i["id"] for i in halves[0]}
        print(
            f"{surface}: {len(halves[0])} dev2, {len(halves[1])} test2, {'ok' if ok else 'DIFFERS'}"
        )
        same = same and ok
    return same


def main() -> int:
    """Write the splits from a pool folder, or check the packaged ones."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pool", nargs="?", type=Path, help="folder with <surface>.json")
    parser.add_argument("--check", action="store_true", help="check the packaged splits")
    args = parser.parse_args()
    if args.check:
        return 0 if check() else 1
    if args.pool is None:
        parser.error("give the pool folder, or --check")
    write(args.pool)
    return 0


if __name__ == "__main__":
    sys.exit(main())
