"""Our nDCG@10, Recall@100 and MRR@10 equal trec_eval's (via ir-measures) on a SciFact run.

The run is real: bm25s over the whole SciFact corpus for its judged train queries, from
../shared/data. The comparison is per query, so a difference on any query fails.
"""

from __future__ import annotations

import ir_measures
import pytest
from ir_measures import RR, R, nDCG

from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
from lectern.adapters.sources.beir import load_beir
from lectern.application.evaluation.metrics import ndcg_at_k, recall_at_k, reciprocal_rank_at_k
from tests.integration.test_retrieval_adapters import SCIFACT

QUERIES = 300


@pytest.fixture(scope="module")
def scifact_run() -> tuple[dict[str, list[str]], dict[str, dict[str, int]]]:
    if not (SCIFACT / "corpus.jsonl.gz").is_file():
        pytest.fail(f"SciFact is missing at {SCIFACT}")
    data = load_beir(
        SCIFACT / "corpus.jsonl.gz", SCIFACT / "queries-train.jsonl", SCIFACT / "qrels-train.tsv"
    )
    index = Bm25sLexicalIndex.build(data.passages)
    queries = dict(list(data.queries.items())[:QUERIES])
    rankings = {qid: [h.id for h in index.search(text, 100)] for qid, text in queries.items()}
    qrels = {qid: dict(data.qrels[qid]) for qid in queries}
    return rankings, qrels


def test_metrics_equal_trec_eval_per_query(
    scifact_run: tuple[dict[str, list[str]], dict[str, dict[str, int]]],
) -> None:
    rankings, qrels = scifact_run
    # trec_eval sorts by score; strictly decreasing scores keep our order with no ties.
    run = {
        qid: {doc: 1000.0 - rank for rank, doc in enumerate(ids)} for qid, ids in rankings.items()
    }
    theirs: dict[tuple[str, str], float] = {}
    for metric in ir_measures.iter_calc([nDCG @ 10, R @ 100, RR @ 10], qrels, run):
        theirs[(metric.query_id, str(metric.measure))] = metric.value
    compared = 0
    for qid, ranking in rankings.items():
        judged = qrels[qid]
        assert ndcg_at_k(ranking, judged, 10) == pytest.approx(theirs[(qid, "nDCG@10")], abs=1e-9)
        assert recall_at_k(ranking, judged, 100) == pytest.approx(theirs[(qid, "R@100")], abs=1e-9)
        assert reciprocal_rank_at_k(ranking, judged, 10) == pytest.approx(
            theirs[(qid, "RR@10")], abs=1e-9
        )
        compared += 1
    assert compared == QUERIES
    # Not a degenerate run: BM25 finds SciFact's evidence often.
    assert sum(theirs[(q, "nDCG@10")] for q in rankings) / QUERIES > 0.5
