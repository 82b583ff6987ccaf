"""Read a BEIR data set: corpus.jsonl(.gz), queries.jsonl, qrels.tsv."""

from __future__ import annotations

import csv
import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from lectern.application.evaluation.beir import BeirDataset
from lectern.domain.retrieval import Passage
from lectern.errors import SourceError


def _open(path: Path) -> IO[str]:
    try:
        if path.suffix == ".gz":
            return gzip.open(path, "rt", encoding="utf-8")
        return path.open(encoding="utf-8")
    except OSError as error:
        raise SourceError(f"cannot read {path}: {error.strerror or error}") from error


def _json_lines(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    with _open(path) as handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except json.JSONDecodeError as error:
                    raise SourceError(f"{path}:{number}: not JSON ({error.msg})") from None
                if not isinstance(value, dict) or "_id" not in value:
                    raise SourceError(f"{path}:{number}: expected an object with an _id")
                yield number, value
        except (OSError, EOFError, UnicodeDecodeError) as error:
            raise SourceError(f"cannot read {path}: {error}") from error


def load_beir(corpus: Path, queries: Path, qrels: Path) -> BeirDataset:
    """The passages, the queries that have judgments, and the graded judgments."""
    passages = []
    for _, doc in _json_lines(corpus):
        text = ". ".join(str(doc.get(k) or "") for k in ("title", "text") if doc.get(k)).strip()
        passages.append(Passage(str(doc["_id"]), text, text, str(doc["_id"])))
    if not passages:
        raise SourceError(f"{corpus} holds no documents")
    judgments: dict[str, dict[str, int]] = {}
    try:
        with qrels.open(encoding="utf-8", newline="") as handle:
            for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
                if not row or (number == 1 and not row[-1].strip().lstrip("-").isdigit()):
                    continue  # header
                if len(row) < 3 or not row[-1].strip().lstrip("-").isdigit():
                    raise SourceError(f"{qrels}:{number}: expected query-id, corpus-id, score")
                judgments.setdefault(row[0], {})[row[-2]] = int(row[-1])
    except OSError as error:
        raise SourceError(f"cannot read {qrels}: {error.strerror or error}") from error
    texts = {str(q["_id"]): str(q.get("text") or "") for _, q in _json_lines(queries)}
    judged = {qid: texts[qid] for qid in judgments if qid in texts and texts[qid].strip()}
    if not judged:
        raise SourceError(f"no query in {queries} has a judgment in {qrels}")
    return BeirDataset(passages, judged, {q: judgments[q] for q in judged})
