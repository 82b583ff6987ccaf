"""Collections: acceptance figures and speed, with the packaged ONNX MiniLM.

(Not `bench/collections.py`: run as a script, that name would shadow the standard library.)

Adds every shipped collection to a fresh data directory (or brings it up to date) and prints:
- ClapNQ dev (the distinct passages of both halves): for the 300 answerable questions, the
  gold passage at rank 1 and in the top 5, by the default search (hybrid, convex 0.6/0.4,
  MMR), hybrid without MMR, BM25 alone and vectors alone;
- FinanceBench dev: for each of the 16 questions, whether the evidence page is among the
  first 5 distinct pages of the ranked passages, and which questions fail;
- SciFact (train queries) added through the `beir` records mapping: nDCG@10 of the
  collection's index scored exactly as `lectern beir-eval --method hybrid` scores its own
  index built from `load_beir` (the BEIR index reuses the collection's vectors by text
  hash, so the model runs once), and of the collection's own search (documents, MMR);
- per shipped collection: documents, passages, ingest (read + split) and index (embed +
  build) throughput in passages per second, and search p50/p95 over fixed queries.

Usage: python bench/document_collections.py [--data-dir /tmp/lectern-bench-collections]
       [--only clapnq,financebench,scifact,kb,nist,rfc,kev,attack] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lectern.adapters.documents.record_mappings import load_mapping
from lectern.adapters.documents.records import RecordsReader
from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.adapters.sources.beir import load_beir
from lectern.adapters.vector.faiss_index import ArrayEmbedder, text_hash
from lectern.application.collections import AddReport, CollectionService
from lectern.application.evaluation.beir import evaluate, rank
from lectern.application.evaluation.metrics import percentile
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.bootstrap import bootstrap, load_retriever, make_embedder, search_indexes
from lectern.domain.documents import ExtractedDocument, document_id
from lectern.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("LECTERN_SHARED_DATA", ROOT.parent / "shared" / "data"))
REPEATS = 3

QUERIES: dict[str, list[str]] = {
    "kb": [
        "how to declare optional query parameters",
        "dependencies with yield and cleanup",
        "return a custom status code",
        "upload files with UploadFile",
        "CORS middleware allowed origins",
        "background tasks after returning a response",
        "OAuth2 password flow with JWT tokens",
        "response model exclude unset values",
        "path parameters with types",
        "testing with TestClient",
    ],
    "nist": [
        "minimum length of memorized secrets",
        "rate limiting failed authentication attempts",
        "SMS out-of-band authenticator restricted",
        "reauthentication at AAL2 every 12 hours",
        "identity proofing evidence at IAL2",
        "federation assertion lifetime",
        "password composition rules",
        "biometric false match rate",
        "session inactivity timeout at AAL3",
        "look-up secrets entropy",
    ],
    "rfc": [
        "GET method safe and idempotent",
        "404 Not Found status code",
        "OAuth 2.0 authorization code grant",
        "JWT signature validation",
        "TLS 1.3 handshake key exchange",
        "cookie Max-Age attribute",
        "UUID version 4 random bits",
        "SMTP MAIL FROM command",
        "DNS resource record TTL",
        "TCP connection establishment three-way handshake",
        "HTTP/2 flow control window",
        "base64url encoding alphabet",
        "CSV quoted fields with line breaks",
        "private address space 10.0.0.0",
    ],
    "kev": [
        "Microsoft Exchange remote code execution",
        "Citrix NetScaler buffer overflow",
        "VPN vulnerabilities used by ransomware",
        "Apache Log4j JNDI lookup",
        "Windows kernel privilege escalation",
        "Fortinet FortiOS SSL VPN",
        "Chrome V8 type confusion",
        "Ivanti Connect Secure authentication bypass",
        "SQL injection in MOVEit Transfer",
        "Git link following",
    ],
    "attack": [
        "create a domain account for persistence",
        "credential dumping from LSASS memory",
        "phishing with a malicious attachment",
        "scheduled task execution",
        "DNS tunneling for command and control",
        "disable security tools",
        "pass the hash lateral movement",
        "data encrypted for impact ransomware",
        "process injection into a legitimate process",
        "exfiltration over a web service",
    ],
}

COLLECTIONS: dict[str, tuple[Path, dict[str, str]]] = {
    "clapnq": (DATA / "qa" / "clapnq-dev", {"mapping": "clapnq"}),
    "financebench": (DATA / "pdf" / "financebench-dev", {}),
    "scifact": (DATA / "beir-scifact-dev" / "corpus.jsonl.gz", {"mapping": "beir"}),
    "kev": (
        DATA / "threat" / "cisa-kev" / "known_exploited_vulnerabilities.json",
        {"mapping": "cisa-kev"},
    ),
    "attack": (DATA / "threat" / "mitre-attack", {"mapping": "mitre-attack"}),
    "nist": (DATA / "guidance" / "nist-sp800-63-3", {}),
    "kb": (DATA / "kb" / "fastapi-docs" / "docs", {}),
    "rfc": (DATA / "guidance" / "rfc", {"pattern": "rfc[0-9]*.txt"}),
}


def _pdf_pages(path: Path) -> int:
    """The pages of the PDFs under `path` (0 for a collection without PDFs)."""
    import pypdfium2

    pages = 0
    for pdf in sorted(path.rglob("*.pdf")) if path.is_dir() else []:
        document = pypdfium2.PdfDocument(pdf)
        pages += len(document)
        document.close()
    return pages


def _add(service: CollectionService, name: str, results: dict[str, Any]) -> AddReport:
    path, options = COLLECTIONS[name]
    started = time.perf_counter()
    report = service.add(name, path, **options)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    embedded = report.index.embedded if report.index else 0
    pdf_pages = _pdf_pages(path)
    results.setdefault("collections", {})[name] = {
        "documents": report.documents,
        "passages": report.passages,
        "skipped": len(report.skipped),
        "add_seconds": round(seconds, 1),
        "read_seconds": round(report.read_seconds, 2),
        "index_seconds": round(report.index_seconds, 2),
        "embedded": embedded,
        "ingest_passages_per_s": round(report.new_passages / report.read_seconds, 1)
        if report.read_seconds and report.new_passages
        else None,
        "index_passages_per_s": round(embedded / report.index_seconds, 1)
        if report.index_seconds and embedded
        else None,
        # Issue 29's ingest figure: PDF pages read and split per second (text PDFs).
        "pdf_pages": pdf_pages,
        "ingest_pdf_pages_per_s": round(pdf_pages / report.read_seconds, 1)
        if pdf_pages and report.read_seconds
        else None,
    }
    print(
        f"{name}: {report.documents:,} documents, {report.passages:,} passages, "
        f"{len(report.skipped)} skipped, add {seconds:.1f} s (read {report.read_seconds:.1f} s, "
        f"index {report.index_seconds:.1f} s, {embedded:,} embedded)"
        + (
            f"; {pdf_pages:,} PDF pages read at {pdf_pages / report.read_seconds:.0f}/s"
            if pdf_pages and report.read_seconds
            else ""
        ),
        flush=True,
    )
    return report


def _latency(service: CollectionService, name: str, queries: Sequence[str]) -> dict[str, float]:
    service.search(name, queries[0])  # loads the indexes and pages in the model
    times = []
    for _ in range(REPEATS):
        for query in queries:
            started = time.perf_counter()
            service.search(name, query)
            times.append((time.perf_counter() - started) * 1000)
    return {"p50_ms": round(percentile(times, 0.5), 1), "p95_ms": round(percentile(times, 0.95), 1)}


def _ranks_of(ranked_uris: Sequence[str], gold: str) -> int | None:
    return ranked_uris.index(gold) + 1 if gold in ranked_uris else None


def clapnq(service: CollectionService, results: dict[str, Any]) -> None:
    """Gold passage at rank 1 and in the top 5 for the answerable questions."""
    folder = COLLECTIONS["clapnq"][0]
    mapping, _ = load_mapping("clapnq")
    reader = RecordsReader(mapping)
    key_to_uri: dict[tuple[str, str], str] = {}
    for item in reader.read(folder):
        if isinstance(item, ExtractedDocument):
            key_to_uri[(item.title, item.text)] = item.uri
    questions = [
        json.loads(line)
        for line in (folder / "clapnq_dev_answerable.jsonl").read_text().splitlines()
        if line.strip()
    ]
    loaded = service._load("clapnq")  # noqa: SLF001 - the bench ranks with the engine itself
    retriever = loaded.retriever
    uri_of = {doc_id: uri for uri in key_to_uri.values() for doc_id in [document_id("clapnq", uri)]}

    def uris(passage_ids: Sequence[str]) -> list[str]:
        seen: list[str] = []
        for pid in passage_ids:
            uri = uri_of[retriever.lexical.group_of(pid)]
            if uri not in seen:
                seen.append(uri)
        return seen

    methods: dict[str, Callable[[str], list[str]]] = {
        "search (hybrid + MMR, default)": lambda q: [
            h.document.uri for h in service.search("clapnq", q, k=5).results
        ],
        "hybrid, no MMR": lambda q: [
            h.document.uri for h in service.search("clapnq", q, k=5, mmr_lambda=None).results
        ],
        "BM25 alone": lambda q: uris([h.id for h in retriever.lexical_only(q, 50)]),
        "vectors alone": lambda q: uris([h.id for h in retriever.vector_only(q, 50)]),
    }
    scores: dict[str, dict[str, float]] = {}
    for label, method in methods.items():
        first = top5 = 0
        for question in questions:
            passage = question["passages"][0]
            gold = key_to_uri[(passage["title"].strip(), passage["text"].strip())]
            position = _ranks_of(method(question["input"])[:5], gold)
            first += position == 1
            top5 += position is not None
        scores[label] = {
            "rank1": round(first / len(questions), 4),
            "top5": round(top5 / len(questions), 4),
        }
        print(
            f"  ClapNQ {label}: rank 1 {first / len(questions):.1%}, "
            f"top 5 {top5 / len(questions):.1%} ({len(questions)} questions)",
            flush=True,
        )
    results["clapnq"] = scores


def financebench(service: CollectionService, results: dict[str, Any]) -> None:
    """Whether each question's evidence page is among the first five pages returned."""
    folder = COLLECTIONS["financebench"][0]
    questions = [
        json.loads(line)
        for line in (folder / "questions.jsonl").read_text().splitlines()
        if line.strip()
    ]
    rows = []
    found = 0
    for question in questions:
        evidence = question["evidence"][0]
        wanted = (f"{evidence['doc_name']}.pdf", evidence["evidence_page_num"] + 1)
        response = service.search("financebench", question["question"], k=10, per_document=10)
        hits = sorted(
            (
                (p.score, h.document.uri, p.passage.page)
                for h in response.results
                for p in h.passages
            ),
            key=lambda row: -row[0],
        )
        pages: list[tuple[str, int | None]] = []
        for _, uri, page in hits:
            if (uri, page) not in pages:
                pages.append((uri, page))
        ok = wanted in pages[:5]
        found += ok
        rows.append(
            {
                "id": question["financebench_id"],
                "question": question["question"][:90],
                "wanted": f"{wanted[0]} p.{wanted[1]}",
                "in_top5": ok,
                "top_pages": [f"{u} p.{p}" for u, p in pages[:5]],
            }
        )
    share = found / len(questions)
    print(
        f"  FinanceBench: evidence page in the top 5 pages for {found}/{len(questions)} "
        f"({share:.0%})",
        flush=True,
    )
    for row in rows:
        if not row["in_top5"]:
            print(f"    miss {row['id']}: wanted {row['wanted']}; got {row['top_pages'][:3]}")
    results["financebench"] = {"share": round(share, 4), "questions": rows}


class _ReusingEmbedder:
    """Serves vectors already computed for the same text; embeds only the rest."""

    def __init__(self, inner: ArrayEmbedder, known: dict[str, Any]) -> None:
        self.inner = inner
        self.known = known
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.reused = 0
        self.computed = 0

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return self.inner.embed(texts)

    def embed_array(self, texts: Sequence[str], progress: Any = None) -> Any:
        rows = np.zeros((len(texts), self.dimension), dtype=np.float32)
        missing = []
        for i, text in enumerate(texts):
            vector = self.known.get(text_hash(text))
            if vector is None:
                missing.append(i)
            else:
                rows[i] = vector
        if missing:
            rows[missing] = self.inner.embed_array([texts[i] for i in missing], progress)
        self.reused += len(texts) - len(missing)
        self.computed += len(missing)
        return rows


def scifact(service: CollectionService, settings: Settings, results: dict[str, Any]) -> None:
    """nDCG@10 of the collection and of `beir-eval`'s own index, scored the same way."""
    folder = DATA / "beir-scifact-dev"
    dataset = load_beir(
        folder / "corpus.jsonl.gz", folder / "queries-train.jsonl", folder / "qrels-train.tsv"
    )
    loaded = service._load("scifact")  # noqa: SLF001
    retriever = loaded.retriever
    documents = {
        ip.passage.document_id: ip.passage for ip in service.store.indexed_passages("scifact")
    }
    uri_of = {
        doc_id: d.uri for doc_id, d in service.store.documents("scifact", list(documents)).items()
    }
    pid_to_uri = {p.id: uri_of[doc_id] for doc_id, p in documents.items()}

    def collection_rank(r: HybridRetriever, method: Any, text: str) -> list[str]:
        return [pid_to_uri[i] for i in rank(r, method, text)]

    (collection_score,) = evaluate(retriever, dataset, ["hybrid"], ranker=collection_rank)

    def search_rank(_: HybridRetriever, method: Any, text: str) -> list[str]:
        del method
        return [h.document.uri for h in service.search("scifact", text, k=100).results]

    (search_score,) = evaluate(retriever, dataset, ["hybrid"], ranker=search_rank)
    generation = loaded.record.generation
    vectors = settings.index_dir / "collection-scifact" / str(generation) / "vectors"
    manifest = json.loads((vectors / "manifest.json").read_text())
    stored = np.load(vectors / "vectors.npy")
    known = dict(zip(manifest["hashes"], stored, strict=True))
    beir_folder = settings.index_dir / "beir-scifact-bench"
    reusing = _ReusingEmbedder(make_embedder(settings), known)
    indexes = DiskSearchIndexes(
        beir_folder,
        lambda: reusing,
        model_id=search_indexes(settings, beir_folder).model_id,
        dimension=search_indexes(settings, beir_folder).dimension,
    )
    indexes.sync(dataset.passages)
    beir_retriever = load_retriever(settings, indexes)
    (beir_score,) = evaluate(beir_retriever, dataset, ["hybrid"])
    results["scifact"] = {
        "beir_eval_ndcg10": round(beir_score.ndcg_at_10, 4),
        "collection_ndcg10": round(collection_score.ndcg_at_10, 4),
        "collection_search_ndcg10": round(search_score.ndcg_at_10, 4),
        "beir_recall100": round(beir_score.recall_at_100, 4),
        "collection_recall100": round(collection_score.recall_at_100, 4),
        "beir_index_vectors_reused": reusing.reused,
        "beir_index_vectors_computed": reusing.computed,
        "queries": beir_score.queries,
    }
    print(
        f"  SciFact nDCG@10: beir-eval {beir_score.ndcg_at_10:.4f}, collection "
        f"{collection_score.ndcg_at_10:.4f} (Recall@100 {beir_score.recall_at_100:.4f} vs "
        f"{collection_score.recall_at_100:.4f}); collection search with MMR "
        f"{search_score.ndcg_at_10:.4f}; {beir_score.queries} queries; the BEIR index reused "
        f"{reusing.reused} of the collection's vectors and computed {reusing.computed}",
        flush=True,
    )


def _dataset_queries(name: str) -> list[str]:
    """Queries of the evaluation sets, for latency: the first 30 of each."""
    if name == "clapnq":
        path = DATA / "qa" / "clapnq-dev" / "clapnq_dev_answerable.jsonl"
        key = "input"
    elif name == "financebench":
        path = DATA / "pdf" / "financebench-dev" / "questions.jsonl"
        key = "question"
    elif name == "scifact":
        path = DATA / "beir-scifact-dev" / "queries-train.jsonl"
        key = "text"
    else:
        return []
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    return [json.loads(line)[key] for line in lines[:30]]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data-dir", type=Path, default=Path("/tmp/lectern-bench-collections"))
    parser.add_argument("--only", default=",".join(COLLECTIONS))
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    settings = Settings(data_dir=args.data_dir)
    service = bootstrap(settings).collections()
    results: dict[str, Any] = {"cores": os.cpu_count(), "load_average": os.getloadavg()[0]}
    for name in [n.strip() for n in args.only.split(",") if n.strip()]:
        _add(service, name, results)
        if name == "clapnq":
            clapnq(service, results)
        elif name == "financebench":
            financebench(service, results)
        elif name == "scifact":
            scifact(service, settings, results)
        queries = QUERIES.get(name) or _dataset_queries(name)
        if queries:
            latency = _latency(service, name, queries)
            results["collections"][name].update(latency)
            print(f"  search p50 {latency['p50_ms']} ms, p95 {latency['p95_ms']} ms", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))
    print(json.dumps(results.get("collections", {}), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
