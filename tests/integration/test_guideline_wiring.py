"""bootstrap wires the guideline agent and the rerankers; the real model's token vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.llm.followups import LlmFollowUpRewriter, RuleFollowUpRewriter
from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.rerank.late_interaction import MaxSimReranker
from lectern.adapters.rerank.llm_listwise import LlmListwiseReranker
from lectern.bootstrap import bootstrap
from lectern.domain.retrieval import RerankCandidate
from lectern.errors import ConfigurationError
from lectern.settings import Settings


def test_the_guide_is_wired_from_settings(tmp_path: Path) -> None:
    services = bootstrap(Settings(data_dir=tmp_path / "var"))
    guide = services.guide()
    assert isinstance(guide.model, GuidelineRulePolicy)
    assert isinstance(guide.rewriter, RuleFollowUpRewriter)
    assert sorted(guide.profiles) == ["nist", "rfc"] and guide.config.default_profile == "nist"
    assert services.reranker() is None and services.collections().reranker is None
    generative = bootstrap(
        Settings(data_dir=tmp_path / "g", llm="openai", llm_api_key="sk-test", rerank="llm")
    )
    assert isinstance(generative.guide().rewriter, LlmFollowUpRewriter)
    assert isinstance(generative.reranker(), LlmListwiseReranker)
    with pytest.raises(ConfigurationError, match="LECTERN_GUIDE_DEFAULT_PROFILE"):
        bootstrap(Settings(data_dir=tmp_path / "x", guide_default_profile="hipaa")).guide()


def test_rerank_settings_degrade_when_they_cannot_run(tmp_path: Path) -> None:
    no_model = bootstrap(Settings(data_dir=tmp_path / "a", rerank="llm"))
    assert no_model.reranker() is None  # extractive LLM: nothing to rank with, logged
    late = bootstrap(Settings(data_dir=tmp_path / "b", rerank="late-interaction"))
    assert isinstance(late.reranker(), MaxSimReranker)
    assert late.collections().reranker is late.reranker()


def test_the_onnx_model_exposes_unit_token_vectors_that_rank_by_maxsim() -> None:
    model = OnnxMiniLMEmbedder(threads=1)
    short, longer = model.token_vectors(["hello world", "memorized secrets are passwords"])
    assert short.shape == (2, 384)  # [CLS] and [SEP] left out
    assert longer.shape[0] >= 4
    assert np.allclose(np.linalg.norm(longer, axis=1), 1.0, atol=1e-4)
    reranker = MaxSimReranker(model)
    order = reranker.rerank(
        "how long must a password be",
        [
            RerankCandidate("cake", "Bake the chocolate cake for forty minutes."),
            RerankCandidate("secret", "Memorized secrets SHALL be at least 8 characters."),
        ],
    )
    assert [s.id for s in order] == ["secret", "cake"]
