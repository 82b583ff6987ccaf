"""The research chain: extractive templates, citation checks, recommendations, fail-safes."""

from __future__ import annotations

import json

import pytest

from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.langchain_llm import LangChainLLM
from lectern.adapters.llm.research_writer import LLMResearchWriter
from lectern.application.answering.extractive_research import ExtractiveResearchWriter
from lectern.application.answering.research import ResearchService
from lectern.application.collections import CollectionService
from lectern.domain.grounding import is_valid_snippet
from lectern.domain.research import QueryRequest
from lectern.errors import DocumentNotFoundError, InvalidQueryError
from tests.answering_world import threats_collection
from tests.fakes import ScriptedChatModel

LOG4J = "Which Log4j vulnerability allows remote code execution through JNDI?"
JNDI = (
    "Apache Log4j2 contains a vulnerability where JNDI features do not protect against "
    "attacker-controlled JNDI-related endpoints, allowing for remote code execution."
)


@pytest.fixture(scope="module")
def collections(tmp_path_factory: pytest.TempPathFactory) -> CollectionService:
    root = tmp_path_factory.mktemp("threats")
    return threats_collection(root / "var", root)


@pytest.fixture(scope="module")
def offline(collections: CollectionService) -> ResearchService:
    return ResearchService(collections, ExtractiveResearchWriter())


def _model(collections: CollectionService, *script: object, sleep: float = 0.0) -> ResearchService:
    llm = LangChainLLM(
        ScriptedChatModel(script=list(script), sleep=sleep),
        "scripted",
        fallback=ExtractiveLLM(),
        method="prompt",
        timeout=0.2 if sleep else 5.0,
        max_retries=0,
    )
    return ResearchService(collections, LLMResearchWriter(llm))


def test_extractive_answers_cite_the_sources_sentences(offline: ResearchService) -> None:
    response = offline.query(QueryRequest(LOG4J, "threats"))
    assert response.flags == ()
    assert response.answer.startswith("[CVE-2021-44228] ")
    assert response.citations[0].source_id == "CVE-2021-44228"
    assert any(c.snippet == JNDI for c in response.citations)
    for citation in response.citations:
        assert f"[{citation.source_id}]" in response.answer
    meta = response.metadata
    assert meta["model"] == "extractive" and meta["template"] == "research_query"
    assert meta["prompt_version"] == "research_query-extractive-v1"
    assert isinstance(meta["retrieval_time_ms"], float)
    assert isinstance(meta["generation_time_ms"], float)
    assert meta["chunks_retrieved"] >= meta["chunks_cited"] > 0  # type: ignore[operator]
    assert 0 < response.confidence <= 1
    assert all(r.kind == "similar" for r in response.recommendations)
    shown = set(meta["sources_retrieved"])  # type: ignore[arg-type]
    assert not {r.item_id for r in response.recommendations} & shown


def test_attack_recommendations_carry_linked_mitigations_and_groups(
    offline: ResearchService,
) -> None:
    response = offline.query(QueryRequest("credential dumping from LSASS memory", "threats"))
    assert response.citations[0].source_id == "T1003.001"
    kinds = {r.kind for r in response.recommendations}
    assert {"mitigation", "group"} <= kinds
    mitigation = next(r for r in response.recommendations if r.kind == "mitigation")
    assert mitigation.reason.endswith("mitigates T1003.001")
    assert "credential-access" in response.related_topics


def test_summaries_of_named_items(offline: ResearchService) -> None:
    request = QueryRequest("", "threats", template="summarize", item_ids=("CVE-2021-44228",))
    response = offline.query(request)
    sections = response.sections
    assert set(sections) == {"summary", "key_findings", "affected_systems", "mitigations"}
    assert sections["affected_systems"] == ["Apache", "Log4j2"]
    mitigations = sections["mitigations"]
    assert isinstance(mitigations, list) and str(mitigations[0]).startswith(
        "[CVE-2021-44228] Required action:"
    )
    assert {c.source_id for c in response.citations} == {"CVE-2021-44228"}


def test_comparisons_name_shared_and_differing_fields(offline: ResearchService) -> None:
    request = QueryRequest("", "threats", template="compare", item_ids=("T1003.001", "[T1558.003]"))
    response = offline.query(request)
    patterns = response.sections["patterns"]
    assert "tactic: credential-access [T1003.001] [T1558.003]" in patterns  # type: ignore[operator]
    assert response.sections["differences"]
    assert {c.source_id for c in response.citations} == {"T1003.001", "T1558.003"}


def test_requests_are_checked(offline: ResearchService) -> None:
    with pytest.raises(InvalidQueryError, match="template"):
        offline.query(QueryRequest("x", "threats", template="poem"))  # type: ignore[arg-type]
    with pytest.raises(InvalidQueryError, match="ask a question"):
        offline.query(QueryRequest(" ", "threats"))
    with pytest.raises(InvalidQueryError, match="top_k"):
        offline.query(QueryRequest("x", "threats", top_k=0))
    with pytest.raises(DocumentNotFoundError, match="CVE-1999-0001"):
        offline.query(
            QueryRequest("", "threats", template="summarize", item_ids=("CVE-1999-0001",))
        )


def test_no_matching_source_is_an_uncited_flagged_answer(offline: ResearchService) -> None:
    response = offline.query(QueryRequest(LOG4J, "threats", filters=("platform=Amiga",)))
    assert response.flags == ("no_evidence", "uncited")
    assert response.citations == () and response.confidence == 0.0


# --- with a model -------------------------------------------------------------------------


def _reply(**fields: object) -> str:
    return json.dumps(fields)


def test_a_models_valid_citations_are_kept(collections: CollectionService) -> None:
    reply = _reply(
        answer="Log4Shell [CVE-2021-44228] lets JNDI lookups run remote code.",
        cited_sources=[{"source_id": "CVE-2021-44228", "snippet": JNDI[:120]}],
        confidence="high",
        related_topics="JNDI",
    )
    response = _model(collections, "Sure! ```json\n" + reply + "\n```").query(
        QueryRequest(LOG4J, "threats")
    )
    assert response.flags == ()
    assert [c.source_id for c in response.citations] == ["CVE-2021-44228"]
    assert is_valid_snippet(response.citations[0].snippet, JNDI)
    assert response.confidence == 0.8 and response.related_topics == ("JNDI",)
    assert response.metadata["model"] == "scripted"
    assert response.metadata["prompt_version"] == "research-query-v1"


def test_a_citation_the_answer_does_not_make_is_dropped(collections: CollectionService) -> None:
    reply = _reply(
        answer="Log4Shell lets JNDI lookups run remote code.",
        cited_sources=[{"source_id": "CVE-2021-44228", "snippet": JNDI[:120]}],
        confidence=0.9,
    )
    response = _model(collections, reply).query(QueryRequest(LOG4J, "threats"))
    assert response.citations == ()
    assert response.flags == ("invalid_citations_dropped", "reflection_failed", "uncited")
    assert response.confidence == 0.0


def test_invented_quotes_leave_an_uncited_flagged_answer(collections: CollectionService) -> None:
    reply = _reply(
        answer="[CVE-2021-44228] was patched in 2019 [CVE-2099-0001].",
        cited_sources=[
            {"source_id": "CVE-2021-44228", "snippet": "patched in 2019 by the vendor"},
            {"source_id": "CVE-2099-0001", "snippet": "Apache Log4j2"},
            "CVE-2021-44228",
        ],
        confidence=1,
    )
    response = _model(collections, reply).query(QueryRequest(LOG4J, "threats"))
    assert response.answer == "[CVE-2021-44228] was patched in 2019 [CVE-2099-0001]."
    assert response.citations == ()
    assert response.flags == ("invalid_citations_dropped", "reflection_failed", "uncited")
    assert response.metadata["citations_dropped"] == 3
    assert response.metadata["reflection"] == "failed"


# --- self-reflection: a draft that loses citations is written once more with the reasons ----


class CountingObserver:
    def __init__(self) -> None:
        self.outcomes: list[str] = []

    def research_reflection(self, outcome: str) -> None:
        self.outcomes.append(outcome)


def _watched(
    collections: CollectionService, chat: ScriptedChatModel, observer: CountingObserver
) -> ResearchService:
    llm = LangChainLLM(
        chat, "scripted", fallback=ExtractiveLLM(), method="prompt", timeout=5.0, max_retries=0
    )
    return ResearchService(collections, LLMResearchWriter(llm), observer=observer)


INVENTED = _reply(
    answer="[CVE-2021-44228] was patched in 2019.",
    cited_sources=[{"source_id": "CVE-2021-44228", "snippet": "patched in 2019 by the vendor"}],
    confidence=0.9,
)
FIXED = _reply(
    answer="[CVE-2021-44228] allows remote code execution through JNDI.",
    cited_sources=[{"source_id": "CVE-2021-44228", "snippet": JNDI[:120]}],
    confidence=0.8,
)


def test_a_draft_that_lost_its_citations_is_rescued_by_feedback(
    collections: CollectionService,
) -> None:
    chat = ScriptedChatModel(script=[INVENTED, FIXED])
    observer = CountingObserver()
    response = _watched(collections, chat, observer).query(QueryRequest(LOG4J, "threats"))
    assert [c.source_id for c in response.citations] == ["CVE-2021-44228"]
    assert response.flags == ("reflection_rescued",)
    assert response.metadata["reflection"] == "rescued"
    assert response.metadata["citations_dropped"] == 0
    assert observer.outcomes == ["rescued"]
    first = "\n".join(str(m.content) for m in chat.received[0])
    retry = "\n".join(str(m.content) for m in chat.received[1])
    assert "<feedback>" not in first
    assert (
        "<feedback>Citations dropped: the snippet cited for CVE-2021-44228 is not copied "
        "from its block.</feedback>" in retry
    )


def test_a_retry_that_fails_again_gives_up_as_before(collections: CollectionService) -> None:
    chat = ScriptedChatModel(script=[INVENTED, INVENTED])
    observer = CountingObserver()
    response = _watched(collections, chat, observer).query(QueryRequest(LOG4J, "threats"))
    assert response.citations == () and response.confidence == 0.0
    assert response.answer == "[CVE-2021-44228] was patched in 2019."
    assert response.flags == ("invalid_citations_dropped", "reflection_failed", "uncited")
    assert observer.outcomes == ["failed"] and len(chat.received) == 2


def test_valid_citations_are_not_retried(collections: CollectionService) -> None:
    chat = ScriptedChatModel(script=[FIXED])
    observer = CountingObserver()
    response = _watched(collections, chat, observer).query(QueryRequest(LOG4J, "threats"))
    assert response.flags == () and observer.outcomes == [] and len(chat.received) == 1


def test_garbage_is_kept_as_an_uncited_flagged_answer(collections: CollectionService) -> None:
    response = _model(collections, "Log4j is bad, patch it!!").query(QueryRequest(LOG4J, "threats"))
    assert response.answer == "Log4j is bad, patch it!!"
    assert response.flags == ("malformed_output", "uncited")
    assert response.citations == () and response.confidence == 0.0


def test_a_model_that_times_out_gives_a_flagged_answer(collections: CollectionService) -> None:
    response = _model(collections, "{}", sleep=0.6).query(QueryRequest(LOG4J, "threats"))
    assert response.flags == ("model_error", "malformed_output", "uncited")
    assert response.answer.startswith("No answer: the model failed")
    assert response.citations == ()
    assert response.recommendations  # the retrieval still helps


def test_template_fields_of_a_model_summary(collections: CollectionService) -> None:
    reply = _reply(
        summary="[CVE-2021-44228] is a JNDI remote code execution flaw.",
        key_findings="Exploited by ransomware",
        affected_systems=["Apache Log4j2"],
        mitigations=[{"action": "Apply updates"}],
        cited_sources=[{"id": "CVE-2021-44228", "quote": "Apache Log4j2 contains a vulnerability"}],
        confidence="75%",
    )
    response = _model(collections, reply).query(
        QueryRequest("", "threats", template="summarize", item_ids=("CVE-2021-44228",))
    )
    assert response.sections["key_findings"] == ["Exploited by ransomware"]
    assert response.sections["mitigations"] == ["Apply updates"]
    assert response.confidence == 0.75 and len(response.citations) == 1
