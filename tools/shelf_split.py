"""The shelf benchmark's split, drawn by its rules and written to the repository.

    python tools/shelf_split.py --tags DIR           # print the draw
    python tools/shelf_split.py --tags DIR --check   # fail when the stored split differs
    python tools/shelf_split.py --tags DIR --write   # write lectern/evaluation/shelf_split.json

The draw needs the ingested catalog (which shelves hold 10 to 100 catalog works), so it runs
over the data directory of the settings (LECTERN_DATA_DIR). Write it once, before tuning:
every `lectern evaluate shelves` then reads the names from the file, never draws them again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lectern.application.evaluation import shelves as bench
from lectern.bootstrap import bootstrap
from lectern.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
STORED = ROOT / "src" / "lectern" / "evaluation" / bench.SPLIT_FILE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tags", type=Path, required=True, help="the goodbooks-10k-tags folder")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true")
    action.add_argument("--check", action="store_true")
    args = parser.parse_args()
    services = bootstrap(load_settings())
    group_of = services.retriever().lexical.group_of
    found = bench.catalog_works(services.catalog.iter_batches(), group_of)
    split = bench.draw_split(bench.read_shelves(args.tags), found.works.get, found.words_of)
    text = split.to_json()
    if args.write:
        STORED.write_text(text, encoding="utf-8")
    elif args.check:
        if STORED.read_text(encoding="utf-8") != text:
            sys.exit(f"{STORED} differs from the rules' draw over this catalog")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
