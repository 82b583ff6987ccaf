"""The guideline chat agent over the guidance collections."""

from __future__ import annotations

from lectern.adapters.assistant_metrics import PrometheusAssistantObserver
from lectern.adapters.guidance.profiles import load_profiles
from lectern.adapters.llm.followups import LlmFollowUpRewriter, RuleFollowUpRewriter
from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.application.assistant.guideline import FollowUpRewriter, GuideConfig, GuidelineAgent
from lectern.application.assistant.ports import ChatModel
from lectern.application.assistant.service import AssistantConfig
from lectern.bootstrap.assistant import AssistantWiring
from lectern.domain.guidance import GuideProfile
from lectern.errors import ConfigurationError


class GuidelineWiring(AssistantWiring):
    """The guideline agent, its profiles and its model."""

    def guide_profiles(self) -> tuple[GuideProfile, ...]:
        """The guideline profiles: LECTERN_GUIDE_PROFILES's file, else the packaged ones."""
        return self._once("guide_profiles", lambda: load_profiles(self.settings.guide_profiles))

    def guide_model(self) -> ChatModel:
        """The guideline agent's model: its rule policy offline, else the assistant's provider."""
        if self.overrides.guide_model is not None:
            return self.overrides.guide_model
        # hybrid: the guideline agent's rules have no confidence to defer on; they stay.
        if self.settings.assistant_provider in ("rules", "hybrid"):
            return self._once("guide_model", lambda: GuidelineRulePolicy(embedder=self.embedder()))
        return self.chat_model()

    def guide(self) -> GuidelineAgent:
        """The guideline chat agent over the guidance collections of the profiles."""
        return self._once("guide", self._build_guide)

    def _build_guide(self) -> GuidelineAgent:
        settings = self.settings
        profiles = self.guide_profiles()
        if settings.guide_default_profile not in {p.name for p in profiles}:
            raise ConfigurationError(
                f"LECTERN_GUIDE_DEFAULT_PROFILE: no profile {settings.guide_default_profile!r}; "
                f"the profiles are: {', '.join(p.name for p in profiles)}"
            )
        rewriter: FollowUpRewriter = RuleFollowUpRewriter()
        if settings.llm != "extractive":
            rewriter = LlmFollowUpRewriter(self.llm(), RuleFollowUpRewriter())
        observer = self._once(
            "assistant_observer", lambda: PrometheusAssistantObserver(self.metrics.registry)
        )
        return GuidelineAgent(
            self.guide_model(),
            self.collections(),
            profiles,
            self.sessions(),
            rewriter,
            config=GuideConfig(
                default_profile=settings.guide_default_profile,
                min_similarity=settings.guide_min_similarity,
                min_share=settings.assistant_min_relevance,
                loop=AssistantConfig(
                    enabled=True,
                    max_agent_steps=settings.assistant_max_steps,
                    temperature=settings.llm_temperature,
                    mask_pii=settings.assistant_masks_pii,
                ),
            ),
            clock=self.clock,
            tracer=self.tracer(),
            pii=self.overrides.pii or PatternPiiDetector(),
            observer=observer,
        )
