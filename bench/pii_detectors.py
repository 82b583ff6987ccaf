"""Precision and recall of PII detectors on tests/data/pii_samples.json.

    PYTHONPATH=src python bench/pii_detectors.py              # ours
    PYTHONPATH=src python bench/pii_detectors.py --presidio   # also presidio's recognizers,
                                                             # when presidio-analyzer is installed
A finding counts when its kind and text match a labelled one exactly.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "pii_samples.json"
Finder = Callable[[str], list[tuple[str, str]]]


def ours() -> Finder:
    from lectern.adapters.privacy.patterns import PatternPiiDetector

    detector = PatternPiiDetector()
    return lambda text: [(f.kind, text[f.start : f.end]) for f in detector.find(text)]


def presidio() -> Finder:
    from presidio_analyzer.predefined_recognizers import (  # type: ignore[import-not-found]
        CreditCardRecognizer,
        DateRecognizer,
        EmailRecognizer,
        PhoneRecognizer,
        UsSsnRecognizer,
    )

    kinds = {"DATE_TIME": "DATE_OF_BIRTH"}
    recognizers = [
        CreditCardRecognizer(),
        EmailRecognizer(),
        PhoneRecognizer(),
        UsSsnRecognizer(),
        DateRecognizer(),
    ]

    def find(text: str) -> list[tuple[str, str]]:
        found = []
        for recognizer in recognizers:
            for result in recognizer.analyze(text, recognizer.supported_entities, None):
                found.append(
                    (
                        kinds.get(result.entity_type, result.entity_type),
                        text[result.start : result.end],
                    )
                )
        return found

    return find


def score(name: str, find: Finder) -> None:
    samples = json.loads(SAMPLES.read_text(encoding="utf-8"))
    tp = fp = fn = 0
    started = time.perf_counter()
    for sample in samples:
        expected = {tuple(p) for p in sample["pii"]}
        got = set(find(sample["text"]))
        tp += len(expected & got)
        fp += len(got - expected)
        fn += len(expected - got)
    ms = (time.perf_counter() - started) * 1000 / len(samples)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    counts = f"{tp} tp, {fp} fp, {fn} fn; {ms:.2f} ms/text"
    print(f"{name}: precision {precision:.2f} recall {recall:.2f} ({counts})")


if __name__ == "__main__":
    score("patterns+libphonenumber", ours())
    if "--presidio" in sys.argv:
        score("presidio recognizers (no NLP engine)", presidio())
