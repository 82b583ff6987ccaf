"""Intent by meaning: the nearest-example layer against a classifier trained on the pools.

This is the measurement that led to the trained intent model (`intent_model.py`, wired in
since session 12); the "layer" column is the layer read by its nearest examples alone, as
it was before. The understanding sets hold five pools of requests (dev to dev5: the
held-out test splits are never read here). Each single-intent request (its kind a tool or a
conversational intent; compound, context and clarify requests left out) is a labelled
utterance. For each pool in turn, a logistic regression over the packaged MiniLM's vectors
is fitted on the intent examples plus the other pools (C as the packaged model's) and
scored on that pool, beside the nearest-example layer (`Understanding.read`: nearest
examples plus cues) on the same requests.
Accuracy is the share whose best intent is the labelled one, per surface; the ratio is the
trained model's accuracy over the layer's, in the same run. A third reader, the regression over
the vector and the message's hashed n-grams (`intent_features.py`, what the packaged model reads
since session 15), is printed beside it with its ratio over the vector alone.

    python bench/intent_models.py [--json FILE]

Needs the `train` extra (scikit-learn). It measures the intent alone, not the plan filled
from it: a right intent with wrong arguments still counts as right here.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.understanding.intent_examples import CONVERSATIONAL, EXAMPLES
from lectern.adapters.understanding.intent_features import (
    SURFACE_DIMS,
    SURFACE_WEIGHT,
    surface_vector,
)
from lectern.adapters.understanding.intent_training import DEV_POOLS, C
from lectern.adapters.understanding.intents import NearestExampleClassifier
from lectern.adapters.understanding.layer import Understanding
from lectern.application.evaluation.understanding import split_file

POOLS = DEV_POOLS
SURFACES = ("assistant", "workspace")


def _requests(pool: str, surface: str) -> list[tuple[str, str]]:
    found = split_file(pool, surface)
    if found is None:
        return []
    cases = json.loads(Path(str(found)).read_text(encoding="utf-8"))["cases"]
    out = []
    for case in cases:
        kind = str(case.get("kind", ""))
        if kind in ("compound", "context", "clarify") or kind not in EXAMPLES:
            continue
        said = case.get("request") or case.get("turns")
        last = said[-1] if isinstance(said, list) else said
        text = last.get("say") if isinstance(last, dict) else last
        if isinstance(text, str) and text.strip():
            out.append((text, kind))
    return out


def _held_out_right(
    train: list[tuple[str, str]],
    test: list[tuple[str, str]],
    features: Callable[[str], npt.NDArray[np.float32]],
) -> int:
    """How many of `test` a logistic regression fitted on `train`'s features reads right."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, max_iter=5000)
    model.fit(np.stack([features(t) for t, _ in train]), [k for _, k in train])
    predicted = model.predict(np.stack([features(t) for t, _ in test]))
    return sum(str(p) == kind for p, (_, kind) in zip(predicted, test, strict=True))


def main() -> None:
    """Leave one pool out, per surface: the layer and the trained models on the same requests."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    embedder = OnnxMiniLMEmbedder(threads=2)
    layer = Understanding(NearestExampleClassifier(embedder, EXAMPLES, Path(tempfile.mkdtemp())))
    data = {(p, s): _requests(p, s) for p in POOLS for s in SURFACES}
    texts = sorted(
        {t for rows in data.values() for t, _ in rows}
        | {e for examples in EXAMPLES.values() for e in examples}
    )
    started = time.perf_counter()
    vectors = dict(zip(texts, embedder.embed_array(texts), strict=True))
    example_rows = [(e, intent) for intent, examples in EXAMPLES.items() for e in examples]
    surfaced = {
        t: np.concatenate([v, SURFACE_WEIGHT * surface_vector(t, SURFACE_DIMS)])
        for t, v in vectors.items()
    }
    report: dict[str, Any] = {"embedded": len(texts), "seconds": 0.0, "rows": []}
    for surface in SURFACES:
        allowed = sorted({k for p in POOLS for _, k in data[(p, surface)]} | set(CONVERSATIONAL))
        for held in POOLS:
            test = data[(held, surface)]
            if not test:
                continue
            train = example_rows + [r for p in POOLS if p != held for r in data[(p, surface)]]
            train = [(t, k) for t, k in train if k in allowed]
            trained = _held_out_right(train, test, lambda t: vectors[t])
            with_grams = _held_out_right(train, test, lambda t: surfaced[t])
            today = 0
            for text, kind in test:
                ranked = layer.read(text, allowed).ranked
                today += bool(ranked) and ranked[0].intent == kind
            row = {
                "surface": surface,
                "held_out_pool": held,
                "requests": len(test),
                "layer_today": round(today / len(test), 3),
                "trained_on_other_pools": round(trained / len(test), 3),
                "ratio": round(trained / today, 2) if today else None,
                "trained_with_ngrams": round(with_grams / len(test), 3),
                "ngrams_ratio": round(with_grams / trained, 2) if trained else None,
                "training_rows": len(train),
            }
            report["rows"].append(row)
            print(
                f"{surface:9} held out {held:4}: {len(test):3} requests  layer "
                f"{row['layer_today']:.3f}  trained {row['trained_on_other_pools']:.3f}  "
                f"ratio {row['ratio']}  with n-grams {row['trained_with_ngrams']:.3f} "
                f"(x{row['ngrams_ratio']} the vector alone; trained on {len(train)})"
            )
        right = {
            key: sum(r[key] * r["requests"] for r in report["rows"] if r["surface"] == surface)
            for key in ("layer_today", "trained_on_other_pools", "trained_with_ngrams")
        }
        total = sum(r["requests"] for r in report["rows"] if r["surface"] == surface)
        print(
            f"{surface:9} all pools: layer {right['layer_today'] / total:.3f}  vector alone "
            f"{right['trained_on_other_pools'] / total:.3f}  with n-grams "
            f"{right['trained_with_ngrams'] / total:.3f}"
        )
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
