"""The trained intent model: its file, its checks, and how the layer's reading follows it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lectern.adapters.embeddings.onnx_minilm import MODEL_ID
from lectern.adapters.understanding.intent_examples import EXAMPLES as PACKAGED_EXAMPLES
from lectern.adapters.understanding.intent_features import (
    SURFACE_DIMS,
    SURFACE_WEIGHT,
    surface_vector,
)
from lectern.adapters.understanding.intent_model import (
    IntentModel,
    load_intent_model,
    model_from_json,
)
from lectern.adapters.understanding.intent_training import (
    DEV_POOLS,
    labelled_requests,
    training_key,
    training_rows,
    write,
)
from lectern.adapters.understanding.intents import NearestExampleClassifier
from lectern.bootstrap import bootstrap
from lectern.errors import IntentModelError
from lectern.settings import Settings
from tests.fakes import FakeEmbedder

EXAMPLES = {
    "greeting": ("hello there", "hi friend"),
    "complete_task": ("mark the task done", "the task is finished"),
}
VOCAB = sorted({w for texts in EXAMPLES.values() for t in texts for w in t.split()})


def _model(classes: tuple[str, ...], weights: list[list[float]], model_id: str) -> IntentModel:
    return IntentModel(
        classes=classes,
        weights=np.asarray(weights, dtype=np.float32),
        intercepts=np.zeros(len(classes), dtype=np.float32),
        model_id=model_id,
        key="k",
    )


def test_the_packaged_model_was_fitted_on_todays_examples_and_dev_pools() -> None:
    model = load_intent_model(model_id=MODEL_ID)
    rows = training_rows(PACKAGED_EXAMPLES)
    assert model.key == training_key(MODEL_ID, rows, (SURFACE_DIMS, SURFACE_WEIGHT)), (
        "the examples or a dev pool changed since the intent model was fitted: "
        "run `python tools/train_intents.py`"
    )
    assert set(model.classes) == set(PACKAGED_EXAMPLES)
    assert model.weights.shape == (len(PACKAGED_EXAMPLES), 384 + SURFACE_DIMS)
    assert (model.surface_dims, model.surface_weight) == (SURFACE_DIMS, SURFACE_WEIGHT)


def test_training_reads_the_dev_pools_only_and_leaves_out_multi_intent_cases() -> None:
    assert not any(p.startswith("test") for p in DEV_POOLS)
    rows = labelled_requests("dev5", "workspace", PACKAGED_EXAMPLES)
    assert rows and all(intent in PACKAGED_EXAMPLES for _, intent in rows)
    assert not {"compound", "context", "clarify"} & {intent for _, intent in rows}
    assert labelled_requests("no-such-pool", "workspace", PACKAGED_EXAMPLES) == []


def test_a_model_for_another_embedding_is_refused() -> None:
    with pytest.raises(IntentModelError, match="fitted on"):
        load_intent_model(model_id="some-other-model")


def test_an_unreadable_or_misshapen_model_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(IntentModelError, match="cannot read"):
        load_intent_model(broken)
    with pytest.raises(IntentModelError, match="2 intents"):
        _model(("a", "b"), [[1.0, 0.0]], "m")


def test_the_file_form_round_trips_and_is_written_whole(tmp_path: Path) -> None:
    model = _model(("a", "b"), [[1.0, 0.5], [0.0, -0.25]], "m")
    path = tmp_path / "model.json"
    write(model, path)
    assert not list(tmp_path.glob("*.tmp"))
    again = load_intent_model(path, model_id="m")
    assert again.classes == ("a", "b")
    assert np.allclose(again.weights, model.weights)
    assert model_from_json(json.loads(path.read_text("utf-8"))).key == "k"


def test_the_surface_vector_is_the_same_everywhere_and_shares_a_misspellings_grams() -> None:
    first = surface_vector("rename my list")
    assert np.array_equal(first, surface_vector("Rename  my list"))  # case and spaces aside
    assert abs(float(np.linalg.norm(first)) - 1.0) < 1e-6
    assert float(surface_vector("", 64).sum()) == 0.0
    typo = float(surface_vector("reanme my list") @ first)
    other = float(surface_vector("show the blockers") @ first)
    assert typo > 0.3 > other


def test_the_file_form_keeps_the_ngram_weights_to_half_precision(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    weights = rng.normal(size=(2, 3 + 16)).astype(np.float32)
    model = IntentModel(
        classes=("a", "b"),
        weights=weights,
        intercepts=np.zeros(2, dtype=np.float32),
        model_id="m",
        key="k",
        surface_dims=16,
        surface_weight=1.0,
    )
    path = tmp_path / "model.json"
    write(model, path)
    again = load_intent_model(path, model_id="m")
    assert again.surface_dims == 16 and again.weights.shape == (2, 19)
    assert np.allclose(again.weights, weights, atol=2e-3)
    vector = np.ones(3, dtype=np.float32)
    before, after = model.logits(vector, "add it"), again.logits(vector, "add it")
    assert all(abs(before[k] - after[k]) < 1e-2 for k in before)


def test_the_trained_model_reads_the_messages_words_beside_its_vector(tmp_path: Path) -> None:
    embedder = FakeEmbedder(VOCAB)
    dims = 256
    # No weight on the vector; the n-grams of "hello" pull towards finishing a task.
    weights = np.zeros((2, len(VOCAB) + 1 + dims), dtype=np.float32)
    weights[1, len(VOCAB) + 1 :] = 40.0 * surface_vector("hello", dims)
    trained = IntentModel(
        classes=("greeting", "complete_task"),
        weights=weights,
        intercepts=np.zeros(2, dtype=np.float32),
        model_id=embedder.model_id,
        key="k",
        surface_dims=dims,
        surface_weight=1.0,
    )
    learned = NearestExampleClassifier(embedder, EXAMPLES, tmp_path, trained=trained)
    assert learned.classify("hello").best == "complete_task"
    assert learned.classify("hi friend").best == "greeting"


def test_the_reading_follows_the_trained_model_over_the_nearest_examples(tmp_path: Path) -> None:
    embedder = FakeEmbedder(VOCAB)
    # Weights that read the word "hello" as finishing a task: the opposite of the examples.
    hello = VOCAB.index("hello")
    weights = [[0.0] * (len(VOCAB) + 1), [0.0] * (len(VOCAB) + 1)]
    weights[1][hello] = 20.0
    trained = _model(("greeting", "complete_task"), weights, embedder.model_id)
    nearest = NearestExampleClassifier(embedder, EXAMPLES, tmp_path)
    learned = NearestExampleClassifier(embedder, EXAMPLES, tmp_path, trained=trained)
    assert nearest.classify("hello").best == "greeting"
    reading = learned.classify("hello")
    assert reading.best == "complete_task"
    assert reading.confidence > 0.9
    # Half and half: the examples' lead and the model's pull are both heard.
    mixed = NearestExampleClassifier(embedder, EXAMPLES, tmp_path, trained=trained, blend=0.5)
    assert 0 < mixed.classify("hello").confidence < reading.confidence


def test_an_intent_the_model_never_saw_scores_as_its_least_likely(tmp_path: Path) -> None:
    embedder = FakeEmbedder(VOCAB)
    trained = _model(("greeting",), [[0.0] * (len(VOCAB) + 1)], embedder.model_id)
    classifier = NearestExampleClassifier(embedder, EXAMPLES, tmp_path, trained=trained)
    reading = classifier.classify("mark the task done")
    assert {s.intent for s in reading.ranked} == {"greeting", "complete_task"}


def test_bootstrap_reads_by_examples_alone_when_the_embedder_is_not_the_packaged_one(
    tmp_path: Path,
) -> None:
    services = bootstrap(Settings(data_dir=tmp_path), embedder=FakeEmbedder(VOCAB))
    assert services.understanding_layer().classifier.trained is None


def test_a_configured_model_that_cannot_be_read_stops_the_start(tmp_path: Path) -> None:
    bad = tmp_path / "intents.json"
    bad.write_text("[]", encoding="utf-8")
    services = bootstrap(
        Settings(data_dir=tmp_path, assistant_intent_model=bad), embedder=FakeEmbedder(VOCAB)
    )
    with pytest.raises(IntentModelError, match="cannot read"):
        services.understanding_layer()
