import json
from pathlib import Path

from lectern.adapters.privacy.patterns import PatternPiiDetector, luhn_ok

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "pii_samples.json"


def test_every_labelled_sample_is_found_exactly() -> None:
    detector = PatternPiiDetector()
    for sample in json.loads(SAMPLES.read_text(encoding="utf-8")):
        text = sample["text"]
        found = {(f.kind, text[f.start : f.end]) for f in detector.find(text)}
        assert found == {tuple(p) for p in sample["pii"]}, text


def test_luhn() -> None:
    assert luhn_ok("4111111111111111")
    assert not luhn_ok("4111111111111112")
