"""What every array-producing embedder shares; each backend writes only `embed_array`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from lectern.application.ports import ProgressReporter, Vector


class ArrayEmbedderBase(ABC):
    """An embedder whose one backend-specific step turns texts into a unit-vector array."""

    model_id: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """Vectors for a few texts (queries), as plain tuples."""
        return [tuple(float(x) for x in row) for row in self.embed_array(texts)]

    @abstractmethod
    def embed_array(
        self, texts: Sequence[str], progress: ProgressReporter | None = None
    ) -> npt.NDArray[np.float32]:
        """An (n, dimension) float32 array of unit vectors, in the order of `texts`."""
