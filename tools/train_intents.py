"""Fit the intent model the understanding layer reads (`adapters/understanding/intent_model.json`).

    python tools/train_intents.py                  # the packaged model: examples + every dev pool
    python tools/train_intents.py --without dev4 --out /tmp/no-dev4.json

`--without POOL` leaves one dev pool out, so that pool can measure the model honestly
(`lectern evaluate understanding --split POOL` with `LECTERN_INTENT_MODEL` set to the file).
Needs the `train` extra (scikit-learn). Prints how many rows each intent has and the fit's
accuracy on its own rows (a sanity check, not a measure: the pools it was fitted on are not
held out).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np

from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.understanding import intent_model
from lectern.adapters.understanding.intent_examples import EXAMPLES
from lectern.adapters.understanding.intent_training import (
    DEV_POOLS,
    C,
    calibrated_scale,
    example_rows,
    fit,
    held_out_logits,
    pool_rows,
    training_rows,
    write,
)


def main() -> None:
    """Fit on the examples and the dev pools (less `--without`) and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without", action="append", default=[], choices=DEV_POOLS)
    parser.add_argument("--c", type=float, default=C)
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(intent_model.__file__).with_name(intent_model.MODEL_FILE),
    )
    args = parser.parse_args()
    pools = [p for p in DEV_POOLS if p not in args.without]
    rows = training_rows(EXAMPLES, pools)
    started = time.perf_counter()
    embedder = OnnxMiniLMEmbedder(threads=2)
    vectors = np.asarray(embedder.embed_array([t for t, _ in rows]), dtype=np.float32)
    by_text = {t: v for (t, _), v in zip(rows, vectors, strict=True)}
    # Calibration: each pool read by a model fitted without it; the scale that fits those
    # held-out readings best is the packaged model's.
    by_pool = pool_rows(EXAMPLES, pools)
    logits, labels = held_out_logits(
        example_rows(EXAMPLES), by_pool, by_text, embedder.model_id, args.c
    )
    scale = calibrated_scale(logits, labels)
    held_right = sum(
        max(row, key=row.__getitem__) == k for row, k in zip(logits, labels, strict=True)
    )
    report = {
        "pools": pools,
        "rows": len(rows),
        "c": args.c,
        "held_out_requests": len(labels),
        "held_out_accuracy": round(held_right / max(1, len(labels)), 3),
        "scale": scale,
    }
    model = fit(rows, vectors, embedder.model_id, c=args.c, scale=scale, report=report)
    hits = sum(
        max(model.logits(v, text).items(), key=lambda kv: kv[1])[0] == intent
        for v, (text, intent) in zip(vectors, rows, strict=True)
    )
    write(model, args.out)
    counts = Counter(intent for _, intent in rows)
    print(f"{len(rows)} rows over {len(counts)} intents from the examples and {', '.join(pools)}")
    print("fewest rows: " + ", ".join(f"{i} {n}" for i, n in counts.most_common()[-5:]))
    print(f"accuracy on its own rows: {hits / len(rows):.3f} (not held out)")
    print(
        f"each pool held out in turn: {report['held_out_accuracy']:.3f} of "
        f"{len(labels)} requests read right; calibrated logit scale {scale}"
    )
    print(f"wrote {args.out} in {time.perf_counter() - started:.1f} s (key {model.key})")


if __name__ == "__main__":
    main()
