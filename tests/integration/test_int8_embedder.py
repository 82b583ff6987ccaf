"""LECTERN_EMBEDDER=onnx-int8: the packaged MiniLM rewritten for int8 arithmetic, for real."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lectern.adapters.embeddings.dynamic_int8 import dynamic_int8_model
from lectern.adapters.embeddings.onnx_minilm import (
    INT8_MODEL_ID,
    MODEL_ID,
    OnnxMiniLMEmbedder,
    _model_path,
)
from lectern.bootstrap.indexes import vector_model_id
from lectern.settings import Settings

TEXTS = [
    "How do I declare an optional query parameter in a path operation?",
    "Add CORS middleware so a browser on another origin can call the API.",
    "A memorized secret shall be at least 8 characters long.",
    "The horse latitudes are calm subtropical belts where sailing ships were becalmed.",
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("model-cache")


def test_the_model_is_built_once_and_then_read_from_the_cache(cache: Path) -> None:
    first = dynamic_int8_model(_model_path(), cache)
    built = first.stat().st_mtime_ns
    again = dynamic_int8_model(_model_path(), cache)
    assert again == first
    assert again.stat().st_mtime_ns == built
    assert [p.name for p in cache.iterdir()] == [first.name], "no half-built files are left"


def test_int8_vectors_are_close_to_the_packaged_models_and_rank_alike(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache.parent / "xdg"))
    packaged = OnnxMiniLMEmbedder(threads=1)
    int8 = OnnxMiniLMEmbedder(threads=1, int8_arithmetic=True)
    assert (packaged.model_id, int8.model_id) == (MODEL_ID, INT8_MODEL_ID)
    a, b = packaged.embed_array(TEXTS), int8.embed_array(TEXTS)
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    cosines = (a * b).sum(axis=1)
    assert cosines.min() > 0.97, cosines
    # Each text's nearest other text is the same under both models.
    nearest_a = (a @ a.T - 2 * np.eye(len(TEXTS))).argmax(axis=1)
    nearest_b = (b @ b.T - 2 * np.eye(len(TEXTS))).argmax(axis=1)
    assert nearest_a.tolist() == nearest_b.tolist()
    query = int8.embed(["optional query params"])[0]
    assert int(np.argmax(b @ np.asarray(query))) == 0


def test_indexes_record_which_vectors_they_hold(tmp_path: Path) -> None:
    assert vector_model_id(Settings(data_dir=tmp_path)) == MODEL_ID
    assert vector_model_id(Settings(data_dir=tmp_path, embedder="onnx-int8")) == INT8_MODEL_ID
