"""The packaged MiniLM re-quantized so its matrix products run in int8 (`onnx-int8`).

The packaged model stores its weights as int8 but multiplies in float32: onnxruntime folds
each weight's cast and scale back into a float matrix when it loads the graph, so it runs
at float speed. onnxruntime's dynamic quantization rewrites each weight matrix product as an
integer one (`MatMulInteger`, with the activations quantized per batch), which CPUs with
integer dot products (AVX-512 VNNI, AVX2, NEON) run in about 55% of the CPU time (measured
in docs/search.md). Its vectors differ a little from the packaged model's (mean cosine
0.994), so they carry their own model id and an index built with one is never searched
with the other.

The rewritten model is built once from the packaged one, with onnxruntime's own tools (a
hand-written graph rewrite would be ours to keep correct), and cached by content: the same
packaged file, onnxruntime version and recipe give the same file, so every data directory
of a machine shares it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from lectern.errors import ConfigurationError

RECIPE = "dynamic-int8-per-channel-v1"
"""Bump when the quantization below changes: the cache key and the model id include it."""


def cache_dir() -> Path:
    """Where built models are kept: `$XDG_CACHE_HOME/lectern/models` (~/.cache by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "lectern" / "models"


def _key(source: Path, runtime_version: str) -> str:
    digest = hashlib.sha256()
    with source.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    digest.update(f"{RECIPE} onnxruntime {runtime_version}".encode())
    return digest.hexdigest()[:20]


def dynamic_int8_model(source: Path, directory: Path | None = None) -> Path:
    """The integer-arithmetic model built from `source`, from the cache or built now (~5 s)."""
    import onnxruntime

    folder = directory or cache_dir()
    target = folder / f"minilm-{_key(source, onnxruntime.__version__)}.onnx"
    if target.exists():
        return target
    try:
        from onnxruntime.quantization import QuantType, quant_pre_process, quantize_dynamic
    except ImportError as error:  # the `onnx` package is what quantization imports
        raise ConfigurationError(
            f"LECTERN_EMBEDDER=onnx-int8 builds its model with the `onnx` package ({error}): "
            "run `make setup`, or set LECTERN_EMBEDDER=onnx"
        ) from None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Built in a private folder and renamed into place: a reader never sees half a
        # file, and two processes building at once both end with the same complete one.
        with tempfile.TemporaryDirectory(dir=folder, prefix=".building-") as work:
            prepared = Path(work) / "prepared.onnx"
            built = Path(work) / "model.onnx"
            # Folding the packaged casts into plain float weights first is what lets the
            # quantizer see them as weight matrices (and it is the pre-processing the
            # quantizer asks for).
            quant_pre_process(source, prepared, skip_symbolic_shape=True)
            quantize_dynamic(
                prepared,
                built,
                weight_type=QuantType.QInt8,
                per_channel=True,
                # Only products with a constant (weight) side: quantizing attention's
                # activation-by-activation products cost fidelity for little speed.
                extra_options={"MatMulConstBOnly": True},
            )
            built.replace(target)
    except OSError as error:
        raise ConfigurationError(
            f"cannot build the int8 embedding model in {folder} ({error}): set XDG_CACHE_HOME "
            "to a writable folder, or LECTERN_EMBEDDER=onnx"
        ) from None
    return target
