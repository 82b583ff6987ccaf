"""The embedded engine at scale, simulated: a synthetic corpus of N passages, indexed and queried.

Text is drawn from the catalog's own vocabulary (word frequencies of the books' titles and
descriptions, so BM25's postings are as skewed as real ones), vectors are random unit-length
384-d float32 rows. Each size runs in its own process (a clean RSS baseline), generating the
corpus in chunks, then builds both indexes exactly as `lectern index` does (bm25s with our
tokenizer; FAISS flat up to LECTERN_EXACT_INDEX_MAX, HNSW M=32 above), saves them, and times
queries (top 100, the candidate pool). A Qdrant projection follows from the same sizes.

Usage: python bench/scale.py [--sizes 100000,300000,1000000] [--queries 200]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BOOKS = Path(os.environ.get("LECTERN_TEST_BOOKS", ROOT.parent / "shared" / "data" / "books"))
DIMENSION = 384
WORDS_PER_PASSAGE = (40, 120)
"""Passage lengths, uniform: the catalog's book passages are 20-200 words."""
CHUNK = 50_000
POOL = 100
GIB = 1024**3


def vocabulary() -> tuple[list[str], np.ndarray]:
    """Words of the catalog's titles and descriptions with their relative frequencies."""
    counts: Counter[str] = Counter()
    word = re.compile(r"[a-z][a-z'-]+")
    for path, fields in (
        (BOOKS / "7k-books" / "books.csv", ("title", "description", "categories")),
        (BOOKS / "goodbooks-10k" / "books.csv", ("title",)),
    ):
        with path.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                for name in fields:
                    counts.update(word.findall((row.get(name) or "").lower()))
    words = [w for w, _ in counts.most_common()]
    weights = np.array([counts[w] for w in words], dtype=np.float64)
    return words, weights / weights.sum()


def rss_bytes() -> int:
    """Resident memory of this process now (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def tree_bytes(directory: Path) -> int:
    """Size of every file under `directory`."""
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of `values` (milliseconds in, milliseconds out)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def one_size(size: int, queries: int, seed: int, exact_max: int | None) -> dict[str, float]:
    """Generate, build, save and query one corpus of `size` passages; figures as a dict."""
    from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
    from lectern.adapters.vector.faiss_index import FaissVectorIndex, _one_thread
    from lectern.domain.retrieval import Passage
    from lectern.settings import Settings

    settings = Settings()
    rng = np.random.default_rng(seed)
    words, weights = vocabulary()
    word_array = np.array(words, dtype=object)

    started = time.perf_counter()
    passages: list[Passage] = []
    vectors = np.empty((size, DIMENSION), dtype=np.float32)
    for start in range(0, size, CHUNK):
        count = min(CHUNK, size - start)
        lengths = rng.integers(*WORDS_PER_PASSAGE, size=count)
        drawn = word_array[rng.choice(len(words), size=int(lengths.sum()), p=weights)]
        offset = 0
        for row, length in enumerate(lengths):
            text = " ".join(drawn[offset : offset + length])
            offset += int(length)
            pid = f"p{start + row}"
            passages.append(Passage(id=pid, text=text, embed_text="", group=pid))
        chunk = rng.standard_normal((count, DIMENSION), dtype=np.float32)
        chunk /= np.linalg.norm(chunk, axis=1, keepdims=True)
        vectors[start : start + count] = chunk
    generated = time.perf_counter() - started

    base = rss_bytes()
    started = time.perf_counter()
    lexical = Bm25sLexicalIndex.build(passages)
    lexical_build = time.perf_counter() - started
    lexical_rss = rss_bytes() - base

    base = rss_bytes()
    started = time.perf_counter()
    vector = FaissVectorIndex.from_vectors(
        vectors,
        [p.id for p in passages],
        "synthetic",
        exact_max=settings.exact_index_max if exact_max is None else exact_max,
        hnsw_m=settings.hnsw_m,
    )
    vector_build = time.perf_counter() - started
    # The vectors themselves were allocated before the baseline: a flat index copies them.
    vector_rss = rss_bytes() - base

    work = Path(tempfile.mkdtemp(prefix="lectern-scale-"))
    try:
        lexical.save(work / "lexical")
        lexical_disk = tree_bytes(work / "lexical")
        np.save(work / "vectors.npy", vectors)
        vector_disk = (work / "vectors.npy").stat().st_size
        if vector.index_type != "flat":
            import faiss

            faiss.write_index(vector._index, str(work / "faiss.index"))
            vector_disk += (work / "faiss.index").stat().st_size
    finally:
        shutil.rmtree(work, ignore_errors=True)

    query_texts = [
        " ".join(word_array[rng.choice(len(words), size=int(rng.integers(2, 7)), p=weights)])
        for _ in range(queries)
    ]
    query_vectors = rng.standard_normal((queries, DIMENSION), dtype=np.float32)
    query_vectors /= np.linalg.norm(query_vectors, axis=1, keepdims=True)
    lexical_ms: list[float] = []
    vector_ms: list[float] = []
    with _one_thread():
        for text, query_vector in zip(query_texts, query_vectors, strict=True):
            started = time.perf_counter()
            lexical.search(text, POOL)
            lexical_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            vector.search(tuple(float(x) for x in query_vector), POOL)
            vector_ms.append((time.perf_counter() - started) * 1000)
    return {
        "passages": size,
        "vector_index": vector.index_type,
        "generate_s": generated,
        "lexical_build_s": lexical_build,
        "vector_build_s": vector_build,
        "lexical_rss": lexical_rss,
        "vector_rss": vector_rss,
        "lexical_disk": lexical_disk,
        "vector_disk": vector_disk,
        "lexical_p50": percentile(lexical_ms, 0.5),
        "lexical_p95": percentile(lexical_ms, 0.95),
        "vector_p50": percentile(vector_ms, 0.5),
        "vector_p95": percentile(vector_ms, 0.95),
        "peak_rss": _peak_rss(),
    }


def _peak_rss() -> int:
    """The process's peak resident memory (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def mb(value: float) -> str:
    """Bytes as MB, no decimals."""
    return f"{value / 1024**2:,.0f}"


def qdrant_projection(rows: list[dict[str, float]], node_ram_gib: float) -> list[str]:
    """Qdrant memory per passage and shards for 1M-100M passages, as Markdown lines.

    Qdrant's own sizing rule is vectors x dimension x 4 bytes x 1.5 (the HNSW graph, payload
    and overhead); with scalar (int8) quantization the in-RAM copy is a quarter and the
    originals move to disk, with binary quantization a thirty-second. The sparse BM25 vector
    holds about one (index, weight) pair per distinct term; its size comes from the measured
    corpus (the bm25s matrix on disk holds the same pairs).
    """
    biggest = max(rows, key=lambda r: r["passages"])
    sparse = biggest["lexical_disk"] / biggest["passages"]
    dense = {
        "float32": DIMENSION * 4 * 1.5,
        "int8 (scalar)": DIMENSION * 1.5,
        "binary": DIMENSION / 8 * 1.5,
    }
    payload = 300.0
    """Bytes of payload per passage held in RAM (ids, group, the filter fields, indexed)."""
    usable = node_ram_gib * GIB * 0.7
    lines = [
        f"Bytes per passage in RAM (dense 384-d x 1.5 overhead + sparse {sparse:,.0f} B "
        f"+ payload {payload:.0f} B); shards on {node_ram_gib:.0f} GiB nodes filled to 70%:",
        "",
        "| passages | quantization | bytes/passage | RAM total | nodes, replication 1 |"
        " nodes, replication 2 |",
        "|---|---|---|---|---|---|",
    ]
    for total in (1_000_000, 10_000_000, 100_000_000):
        for name, per_vector in dense.items():
            per_passage = per_vector + sparse + payload
            ram = per_passage * total
            nodes = max(1, math.ceil(ram / usable))
            lines.append(
                f"| {total:,} | {name} | {per_passage:,.0f} | {ram / GIB:,.1f} GiB | {nodes} |"
                f" {nodes * 2} |"
            )
    return lines


def main() -> None:
    """Run each size in a fresh process and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,300000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--node-ram-gib", type=float, default=32.0)
    parser.add_argument(
        "--exact-max",
        type=int,
        help="vectors up to this many use the exact (flat) index; default LECTERN_EXACT_INDEX_MAX",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_size(args.one, args.queries, args.seed, args.exact_max)))
        return

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if not sizes or any(s < 1_000 for s in sizes):
        sys.exit("--sizes takes comma-separated passage counts of at least 1000")
    load_before = os.getloadavg()
    rows: list[dict[str, float]] = []
    for size in sizes:
        done = subprocess.run(
            [
                sys.executable,
                __file__,
                "--one",
                str(size),
                "--queries",
                str(args.queries),
                *([] if args.exact_max is None else ["--exact-max", str(args.exact_max)]),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            print(f"{size:,} passages failed:\n{done.stderr[-2000:]}", file=sys.stderr)
            break
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        # Each size as soon as it is measured: a long run stopped later keeps what it had.
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    load_after = os.getloadavg()

    print(
        f"Load average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after, "
        f"on {os.cpu_count()} cores; top {POOL} per query, {args.queries} queries, one thread."
    )
    print()
    print(
        "| passages | BM25 build s | BM25 RSS MB | BM25 disk MB | BM25 p50/p95 ms |"
        " vectors | vector build s | vector RSS MB | vector disk MB | vector p50/p95 ms |"
        " peak RSS MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {int(r['passages']):,} | {r['lexical_build_s']:.1f} | {mb(r['lexical_rss'])} |"
            f" {mb(r['lexical_disk'])} | {r['lexical_p50']:.1f} / {r['lexical_p95']:.1f} |"
            f" {r['vector_index']} | {r['vector_build_s']:.1f} | {mb(r['vector_rss'])} |"
            f" {mb(r['vector_disk'])} | {r['vector_p50']:.1f} / {r['vector_p95']:.1f} |"
            f" {mb(r['peak_rss'])} |"
        )
    if rows:
        print()
        print("\n".join(qdrant_projection(rows, args.node_ram_gib)))
        print()
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
