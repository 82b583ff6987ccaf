"""Intent by meaning, trained: a logistic regression over the packaged MiniLM's vectors.

The nearest-example scores (`intents.py`) weigh every example alike, so an intent with a few
unlucky examples loses to one whose examples share the message's surface words. A linear
model fitted on the examples and on the dev pools' labelled requests (`intent_training.py`)
learns which directions of the embedding separate the intents. `bench/intent_models.py`
measured it leave-one-pool-out: trained on the other pools, it read the held-out pool's intent
better than the nearest examples on every one of the eight (workspace dev4 0.66 -> 0.90).

The fitted weights are JSON (`intent_model.json`, packaged): read here with numpy, so run time
needs no scikit-learn. The file names the embedding model it was fitted on and the content
hash of what it was trained on; `load_intent_model` refuses a file for another model, and a
test fails when the examples or the dev pools changed without retraining
(`python tools/train_intents.py`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from lectern.adapters.understanding.intent_features import surface_vector
from lectern.errors import IntentModelError

MODEL_FILE = "intent_model.json"


@dataclass(frozen=True)
class IntentModel:
    """A multinomial logistic regression over message vectors: one weight row per intent."""

    classes: tuple[str, ...]
    weights: npt.NDArray[np.float32]
    """Shape (intents, dimensions)."""
    intercepts: npt.NDArray[np.float32]
    model_id: str
    """The embedding model whose vectors it was fitted on."""
    key: str
    """The content hash of the embedding model id and the labelled texts it was fitted on."""
    scale: float = 1.0
    """What the logits are multiplied by so the softmax is calibrated: fitted on predictions
    for held-out pools (`intent_training.calibrated_scale`)."""
    report: dict[str, Any] = field(default_factory=dict)
    surface_dims: int = 0
    """Hash buckets of the message's n-grams read beside its vector (`intent_features.py`);
    0: the vector alone (a model fitted before they were added)."""
    surface_weight: float = 0.0
    """The n-grams' scale beside the unit vector."""

    def __post_init__(self) -> None:
        if self.weights.shape[0] != len(self.classes) or self.intercepts.shape != (
            len(self.classes),
        ):
            raise IntentModelError(
                f"the intent model has {len(self.classes)} intents but weights of shape "
                f"{self.weights.shape} and {self.intercepts.shape[0]} intercepts"
            )

    def features(self, vector: npt.NDArray[np.float32], text: str) -> npt.NDArray[np.float32]:
        """What the weights read: the message's vector, then its weighted n-grams."""
        if not self.surface_dims:
            return vector
        surface = surface_vector(text, self.surface_dims) * np.float32(self.surface_weight)
        return np.concatenate([vector, surface]).astype(np.float32)

    def logits(self, vector: npt.NDArray[np.float32], text: str) -> dict[str, float]:
        """Each intent's calibrated log-odds for the message (comparable among themselves)."""
        return self.logits_of(self.features(vector, text))

    def logits_of(self, features: npt.NDArray[np.float32]) -> dict[str, float]:
        """As `logits`, for features already made."""
        raw = (self.weights @ features + self.intercepts) * self.scale
        return dict(zip(self.classes, (float(x) for x in raw), strict=True))

    def to_json(self) -> dict[str, Any]:
        """The file form (floats rounded to six places: the file is read, not diffed).

        The n-grams' weights (intents x buckets) are float16, base64: as lists they would
        be a 2 MB file; half precision changes no logit by more than a thousandth.
        """
        dims = self.weights.shape[1] - self.surface_dims
        data: dict[str, Any] = {
            "model_id": self.model_id,
            "key": self.key,
            "scale": self.scale,
            "classes": list(self.classes),
            "intercepts": [round(float(x), 6) for x in self.intercepts],
            "weights": [[round(float(x), 6) for x in row[:dims]] for row in self.weights],
            "report": self.report,
        }
        if self.surface_dims:
            surface = np.ascontiguousarray(self.weights[:, dims:], dtype="<f2")
            data["surface"] = {
                "dims": self.surface_dims,
                "weight": self.surface_weight,
                "weights_f16": base64.b64encode(surface.tobytes()).decode("ascii"),
            }
        return data


def model_from_json(data: dict[str, Any]) -> IntentModel:
    """An `IntentModel` from its file form."""
    classes: Sequence[str] = data["classes"]
    weights = np.asarray(data["weights"], dtype=np.float32)
    surface = data.get("surface") or {}
    dims = int(surface.get("dims", 0))
    if dims:
        packed = np.frombuffer(base64.b64decode(surface["weights_f16"]), dtype="<f2")
        weights = np.hstack([weights, packed.reshape(len(classes), dims).astype(np.float32)])
    return IntentModel(
        classes=tuple(str(c) for c in classes),
        weights=weights,
        intercepts=np.asarray(data["intercepts"], dtype=np.float32),
        model_id=str(data["model_id"]),
        key=str(data["key"]),
        scale=float(data.get("scale", 1.0)),
        report=dict(data.get("report") or {}),
        surface_dims=dims,
        surface_weight=float(surface.get("weight", 0.0)),
    )


def load_intent_model(path: Path | None = None, *, model_id: str | None = None) -> IntentModel:
    """The model at `path`, or the packaged one; IntentModelError when it cannot serve.

    `model_id`: the embedder in use; a model fitted on another embedding's vectors would read
    every message wrongly, so it is refused rather than used.
    """
    where = str(path or MODEL_FILE)
    try:
        if path is None:
            text = resources.files(__package__ or "").joinpath(MODEL_FILE).read_text("utf-8")
        else:
            text = path.read_text(encoding="utf-8")
        model = model_from_json(json.loads(text))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise IntentModelError(f"cannot read the intent model {where}: {error}") from error
    if model_id is not None and model.model_id != model_id:
        raise IntentModelError(
            f"the intent model {where} was fitted on {model.model_id!r} vectors, not "
            f"{model_id!r}: retrain it with `python tools/train_intents.py`"
        )
    return model
