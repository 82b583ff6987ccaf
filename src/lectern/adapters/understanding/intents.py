"""Intent by meaning: a message's nearest example utterances, embedded with MiniLM.

Every tool and conversational intent has example utterances (`intent_examples.py`). They are
embedded once with the packaged MiniLM and cached on disk by the content hash of the model
and the examples, so a changed example re-embeds on next use. A message is scored against
each intent by the mean cosine of its two nearest examples; the confidence is a softmax over
those scores (the temperature below was chosen on the dev split), and the margin is the
lead of the best intent over the runner-up.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from lectern.adapters.understanding.intent_model import IntentModel, load_intent_model
from lectern.application.ports import Embedder
from lectern.errors import IntentModelError

MESSAGE_CACHE = 512
"""How many recent messages' vectors are kept: a conversation re-reads its last message after
each tool result, and the policy's stages read the same text; one embedding serves them all."""
TEMPERATURE = 0.02
"""Softmax temperature over the intents' scores (cosines differ by hundredths)."""
NEAREST = 2
BLEND = 1.0
"""How much of an intent's score the trained model gives (the rest: the nearest examples).

Its logits are scaled by `TEMPERATURE`, so at 1.0 the confidence is the model's own softmax.
Chosen on the dev pools, each read by a model trained without it (`tools/train_intents.py
--without`)."""


@dataclass(frozen=True, slots=True)
class IntentScore:
    """One intent's similarity to the message."""

    intent: str
    score: float


@dataclass(frozen=True, slots=True)
class IntentReading:
    """The intents a message may mean, likeliest first, with how sure the reading is."""

    ranked: tuple[IntentScore, ...]
    confidence: float
    """The softmax share of the best intent."""
    margin: float
    """Best score minus the runner-up's."""

    @property
    def best(self) -> str:
        """The likeliest intent."""
        return self.ranked[0].intent

    def likeliest(self, count: int = 3) -> list[str]:
        """The `count` likeliest intents."""
        return [s.intent for s in self.ranked[:count]]

    def without(self, ruled_out: Iterable[str]) -> IntentReading:
        """The reading once some intents are ruled out (a change no word asks for).

        Confidence and margin are taken again over the intents left, so the next likeliest
        is decided on the same terms, never taken blindly.
        """
        gone = set(ruled_out)
        if not gone & {s.intent for s in self.ranked}:
            return self
        return reading_of([s for s in self.ranked if s.intent not in gone])


def examples_key(model_id: str, examples: Mapping[str, Sequence[str]]) -> str:
    """The content hash the cached example vectors are stored under."""
    payload = json.dumps([model_id, sorted((k, list(v)) for k, v in examples.items())])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


class NearestExampleClassifier:
    """Classifies messages by their nearest example utterances."""

    def __init__(
        self,
        embedder: Embedder,
        examples: Mapping[str, Sequence[str]],
        cache_dir: Path | None = None,
        *,
        trained: IntentModel | None = None,
        blend: float = BLEND,
    ) -> None:
        """Embeds the examples now, or loads them from `cache_dir` when cached.

        `trained`: the fitted intent model (`intent_model.py`); its scores are blended with
        the nearest examples' by `blend`. Without it the nearest examples decide alone.
        """
        self.embedder = embedder
        self.trained = trained
        self.blend = blend if trained is not None else 0.0
        self.labels: list[str] = []
        texts: list[str] = []
        for intent, utterances in examples.items():
            for utterance in utterances:
                self.labels.append(intent)
                texts.append(utterance)
        self.intents = list(examples)
        self.matrix = self._vectors(texts, examples, cache_dir)
        self._rows = {
            intent: np.array([i for i, label in enumerate(self.labels) if label == intent])
            for intent in self.intents
        }
        # The examples grouped per intent and padded to one width with -inf, so one sort
        # scores every intent at once.
        self._width = max((len(rows) for rows in self._rows.values()), default=1)
        self._grid = np.full((len(self.intents), self._width), -1, dtype=np.int64)
        for position, intent in enumerate(self.intents):
            rows = self._rows[intent]
            self._grid[position, : len(rows)] = rows
        self._index = {intent: position for position, intent in enumerate(self.intents)}
        self._vectors_seen: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()

    def _vectors(
        self,
        texts: list[str],
        examples: Mapping[str, Sequence[str]],
        cache_dir: Path | None,
    ) -> npt.NDArray[np.float32]:
        path = None
        if cache_dir is not None:
            key = examples_key(self.embedder.model_id, examples)
            path = cache_dir / f"intent-examples-{key}.npy"
            if path.is_file():
                cached: npt.NDArray[np.float32] = np.load(path)
                if cached.shape[0] == len(texts):
                    return cached
        matrix = np.asarray(self.embedder.embed(texts), dtype=np.float32)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".tmp.npy")
            np.save(partial, matrix)
            partial.replace(path)
        return matrix

    def classify(
        self,
        text: str,
        allowed: Iterable[str] | None = None,
        boosts: Mapping[str, float] | None = None,
    ) -> IntentReading:
        """The intents `text` may mean among `allowed` (every intent when None).

        `boosts` add to an intent's score (a high-precision cue seen in the message); they
        never take score away, so a cue's absence cannot turn one intent into another.
        """
        return self.classify_vector(self.vector(text), allowed, boosts, text=text)

    def vector(self, text: str) -> npt.NDArray[np.float32]:
        """The message's unit vector, embedded once and kept for the next reads of it."""
        found = self._vectors_seen.get(text)
        if found is not None:
            self._vectors_seen.move_to_end(text)
            return found
        vector = np.asarray(self.embedder.embed([text])[0], dtype=np.float32)
        self._vectors_seen[text] = vector
        if len(self._vectors_seen) > MESSAGE_CACHE:
            self._vectors_seen.popitem(last=False)
        return vector

    def forget_messages(self) -> None:
        """Drop the kept message vectors (benchmarks time a message's first read)."""
        self._vectors_seen.clear()

    def classify_vector(
        self,
        vector: npt.NDArray[np.float32],
        allowed: Iterable[str] | None = None,
        boosts: Mapping[str, float] | None = None,
        *,
        text: str = "",
    ) -> IntentReading:
        """As `classify`, for an embedded message (`text`: its words, for the trained model)."""
        extra = boosts or {}
        similarities = np.append(self.matrix @ vector, np.float32(-np.inf))
        wanted = None if allowed is None else set(allowed)
        chosen = [i for i in self.intents if wanted is None or i in wanted]
        if not chosen:
            return IntentReading((), 0.0, 0.0)
        grid = similarities[self._grid[[self._index[i] for i in chosen]]]
        top = np.sort(grid, axis=1)[:, -NEAREST:]
        means = top.mean(axis=1)
        learned = self._learned(vector, chosen, text)
        scores = [
            IntentScore(
                intent,
                (1.0 - self.blend) * float(mean)
                + learned.get(intent, 0.0)
                + extra.get(intent, 0.0),
            )
            for intent, mean in zip(chosen, means, strict=True)
        ]
        return reading_of(scores)

    def _learned(
        self, vector: npt.NDArray[np.float32], chosen: list[str], text: str
    ) -> dict[str, float]:
        """The trained model's share of each chosen intent's score (empty without one).

        Logits scaled by the softmax temperature, so `reading_of` gives back the model's own
        probabilities. An intent the model never saw scores as its least likely one.
        """
        if self.trained is None or not self.blend:
            return {}
        logits = self.trained.logits(vector, text)
        floor = min(logits.values())
        return {i: self.blend * TEMPERATURE * logits.get(i, floor) for i in chosen}


def packaged_classifier(
    embedder: Embedder,
    examples: Mapping[str, Sequence[str]],
    cache_dir: Path | None,
    model_path: Path | None = None,
) -> NearestExampleClassifier:
    """The classifier with the trained intent model at `model_path`, or the packaged one.

    The packaged weights fit the packaged MiniLM only: another embedder (a fake in tests,
    sentence-transformers) reads by its nearest examples alone. A file asked for by path
    that cannot serve is an error, never silently dropped.
    """
    try:
        trained = load_intent_model(model_path, model_id=embedder.model_id)
    except IntentModelError:
        if model_path is not None:
            raise
        trained = None
    return NearestExampleClassifier(embedder, examples, cache_dir, trained=trained)


def reading_of(scores: Sequence[IntentScore]) -> IntentReading:
    """Intents ranked by score, with the softmax share of the best and its margin."""
    ranked = sorted(scores, key=lambda s: -s.score)
    if not ranked:
        return IntentReading((), 0.0, 0.0)
    best = ranked[0].score
    total = sum(math.exp((s.score - best) / TEMPERATURE) for s in ranked)
    runner_up = ranked[1].score if len(ranked) > 1 else -1.0
    return IntentReading(tuple(ranked), 1.0 / total, best - runner_up)
