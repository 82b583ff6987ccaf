"""Full ingest of the catalog: wall time and peak memory, against a naive raw load.

Each contender runs in its own process so that peak RSS is its own:
- `lectern`: the real ingest (read 3 sources, normalise, merge, write SQLite in batches),
  then a second, unchanged ingest (the idempotent path);
- `raw-load`: what a user would script first: csv.DictReader each book file and
  `executemany` the raw rows into SQLite, with no normalisation, no merge, no provenance.

Usage: python bench/ingest.py --mirror ../shared/data/books
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAW_FILES = (
    "goodbooks-10k/books.csv",
    "goodbooks-10k-tags/book_tags_reduced.csv",
    "goodbooks-10k-tags/books_enriched.csv",
    "7k-books/books.csv",
    "goodreads-openlibrary/books.csv",
)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker_lectern(mirror: Path, work: Path) -> dict[str, float]:
    from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
    from lectern.adapters.sources.fetch import MirrorSourceFetcher
    from lectern.application.ingestion import IngestionService
    from lectern.bootstrap import default_sources

    started = time.perf_counter()
    catalog = SqlAlchemyBookCatalog.from_url(f"sqlite:///{work / 'catalog.db'}")
    service = IngestionService(catalog, MirrorSourceFetcher(mirror), default_sources())
    first = service.ingest()
    full = time.perf_counter() - started
    peak = _peak_mb()
    started = time.perf_counter()
    second = service.ingest()
    again = time.perf_counter() - started
    assert second.inserted == second.updated == 0
    return {"seconds": full, "peak_mb": peak, "books": first.books, "reingest_seconds": again}


def worker_raw(mirror: Path, work: Path) -> dict[str, float]:
    started = time.perf_counter()
    connection = sqlite3.connect(work / "raw.db")
    rows_total = 0
    for index, name in enumerate(RAW_FILES):
        with (mirror / name).open(newline="", encoding="utf-8") as handle:
            reader = csv.reader(handle)
            header = next(reader)
            columns = ", ".join(f'"c{i}"' for i in range(len(header)))
            connection.execute(f"create table t{index} ({columns})")
            marks = ", ".join("?" for _ in header)
            rows = [row for row in reader if len(row) == len(header)]
            connection.executemany(f"insert into t{index} values ({marks})", rows)
            rows_total += len(rows)
    connection.commit()
    connection.close()
    return {"seconds": time.perf_counter() - started, "peak_mb": _peak_mb(), "rows": rows_total}


def _run(kind: str, mirror: Path) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as work:
        output = subprocess.run(
            [sys.executable, __file__, "--mirror", str(mirror), "--worker", kind, "--work", work],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, required=True)
    parser.add_argument("--worker", choices=["lectern", "raw"])
    parser.add_argument("--work", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.worker:
        work = args.work
        result = (
            worker_lectern(args.mirror, work)
            if args.worker == "lectern"
            else worker_raw(args.mirror, work)
        )
        print(json.dumps(result))
        return
    if not args.mirror.is_dir():
        sys.exit(f"no data mirror at {args.mirror}")
    lectern = min(
        (_run("lectern", args.mirror) for _ in range(args.repeat)), key=lambda r: r["seconds"]
    )
    raw = min((_run("raw", args.mirror) for _ in range(args.repeat)), key=lambda r: r["seconds"])
    print(
        f"lectern full ingest: {lectern['seconds']:.2f} s wall, "
        f"peak RSS {lectern['peak_mb']:.0f} MB, {lectern['books']:,.0f} books"
    )
    print(f"lectern unchanged re-ingest: {lectern['reingest_seconds']:.2f} s")
    print(
        f"raw csv -> sqlite load (no normalisation/merge): {raw['seconds']:.2f} s wall, "
        f"peak RSS {raw['peak_mb']:.0f} MB, {raw['rows']:,.0f} rows"
    )
    print(
        f"ratio lectern / raw load: time {lectern['seconds'] / raw['seconds']:.1f}x, "
        f"memory {lectern['peak_mb'] / raw['peak_mb']:.1f}x"
    )


if __name__ == "__main__":
    main()
