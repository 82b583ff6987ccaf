"""The answering domain: the gate's rules, sentences, extractive answers, grounding, research."""

from __future__ import annotations

import pytest

from lectern.domain.answering import (
    AIResult,
    AnswerSentence,
    Conversation,
    ConversationMessage,
    DraftAnswer,
    KnowledgeIndex,
    KnowledgeSource,
    LoadedSource,
    bare_numbers,
    classify_turn,
    content_terms,
    document_frequency,
    extractive_answer,
    grounding_problems,
    lead_summary,
    number_names,
    render_reply,
    silence_reason,
    source_id_for,
    verify_extractive,
)
from lectern.domain.research import (
    ContextBlock,
    ResearchDraft,
    checked_citations,
    names_source,
    render_context,
)
from lectern.domain.sentences import KB, sentence_spans


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        ("How do I declare optional query parameters?", "question"),
        ("which method of forecasting uses averages", "question"),
        ("hey, quick question: can I run two workers", "question"),
        ("list the steps to restart the service", "question"),
        ("I need the rate limit for API keys", "question"),
        ("the service crashed again today.", "not_a_question"),
        ("tom petty i won't back down official video", "not_a_question"),
        ("thanks!", "chit_chat"),
        ("thanks, that worked!", "chit_chat"),
        ("thanks! how do I add a header?", "question"),
        ("Hi there", "chit_chat"),
        ("good morning everyone", "chit_chat"),
        ("   ", "empty"),
        ("👍", "empty"),
        # A task the reader wants done, said as a command or a gerund: a how-to request.
        ("enable gzip compression for every response", "question"),
        ("streaming a large csv to the browser", "question"),
        ("redirecting http to https in production", "question"),
        # ... but not advice, a report, or a bare word.
        ("make sure you pin the version", "not_a_question"),
        ("use the lifespan handler instead", "not_a_question"),
        ("restarted the worker and now it works", "not_a_question"),
        ("testing", "not_a_question"),
        # A question after a comma asks; an exclamation does not.
        ("the upload hangs at 99%, how can I see what it waits for", "question"),
        ("I fixed it, what a relief", "not_a_question"),
        # ... contracted too, after a dash ("what's", "how's").
        ("coming over from rails - what's the usual folder layout here", "question"),
        ("new to async, how's the event loop shared between requests", "question"),
        # A wish for a task, wherever it stands, asks how; a wish to address people does not.
        ("for the integration tests we want to swap the database for sqlite", "question"),
        ("I want to thank everyone for the help", "not_a_question"),
        # Verbs of everyday programming tasks lead how-to requests too.
        ("compress the responses with gzip", "question"),
        ("open a db session for every request", "question"),
        ("mark an endpoint as deprecated", "question"),
        ("just switch off the docs in production", "question"),
        # A topic named first and the task after it asks how to do the task.
        ("partial update: only change the fields the client sent", "question"),
        ("basic auth, protect every route with a password", "question"),
        ("the deploy went fine, restarted the worker", "not_a_question"),
        # A failure stated asks for help; a feeling or a promise does not.
        ("the /docs page can't find openapi.json behind the proxy", "question"),
        ("uvicorn won't start", "question"),
        ("my background task doesn't run after the response", "question"),
        ("I can't wait for the next release", "not_a_question"),
        ("it doesn't matter anymore", "not_a_question"),
        ("we won't deploy on fridays", "not_a_question"),
        # A part of a web service named with what qualifies it asks for it; a statement does not.
        ("custom exception handler for my own error class", "question"),
        ("browser login popup with plain http basic", "question"),
        ("the session handler crashed on startup", "not_a_question"),
        ("my login popup is broken in safari", "not_a_question"),
        ("difference between twisted pair wire and coaxial cable", "not_a_question"),
    ],
)
def test_the_gate_rules(text: str, decision: str) -> None:
    assert classify_turn(text).decision == decision


def test_the_gate_drops_greetings_from_the_question() -> None:
    decided = classify_turn("Hello! How do I restart the service?")
    assert decided.question == "How do I restart the service?"


def test_the_last_turn_joins_the_last_authors_trailing_messages() -> None:
    conversation = Conversation(
        (
            ConversationMessage("ana", "hi"),
            ConversationMessage("bob", "hello"),
            ConversationMessage("ana", "quick question"),
            ConversationMessage("ana", "how do I restart it?"),
        )
    )
    assert conversation.last_turn() == ("ana", "quick question\nhow do I restart it?")
    assert Conversation(()).last_turn() == ("", "")


def test_sentences_do_not_end_at_abbreviations_or_initials() -> None:
    text = "Played by Dr. Monica Quartermaine since 1977 . J. K. Rowling wrote it. Next one!\nTitle"
    sentences = [text[a:b] for a, b in sentence_spans(text, KB)]
    assert sentences == [
        "Played by Dr. Monica Quartermaine since 1977 .",
        "J. K. Rowling wrote it.",
        "Next one!",
        "Title",
    ]


@pytest.mark.parametrize(
    ("uri", "url", "expected"),
    [
        ("tutorial/query-params.md", None, "kb:tutorial/query-params.md"),
        ("faq-1", "https://docs.example.org/faq", "kb:https://docs.example.org/faq"),
        ("team/deploy-notes.md", None, "team:deploy-notes.md"),
    ],
)
def test_source_ids(uri: str, url: str | None, expected: str) -> None:
    assert source_id_for("kb", uri, url) == expected


def test_the_offline_summary_is_title_headings_and_lead_sentence() -> None:
    summary = lead_summary(
        "Deploying", ["Deploying", "Restarting"], "Ok.\nRestart it with systemctl."
    )
    assert summary == "Deploying > Restarting. Restart it with systemctl."


def _index(*texts: str) -> KnowledgeIndex:
    sources = tuple(
        KnowledgeSource(f"kb:{n}.md", f"d{n}", f"Doc {n}", f"summary {n}", f"h{n}")
        for n in range(len(texts))
    )
    return KnowledgeIndex("kb", 1, sources, document_frequency(texts), "lead-sentence")


def _loaded(index: KnowledgeIndex, texts: tuple[str, ...]) -> list[LoadedSource]:
    return [LoadedSource(s, t, 0.9) for s, t in zip(index.sources, texts, strict=True)]


TEXTS = (
    "Workers are processes. Restart the service with systemctl restart lectern. "
    "Logs go to the journal.",
    "Rate limits count requests per user. Over the limit the API answers 429.",
)


def test_the_extractive_answer_cites_the_sentences_that_cover_the_question() -> None:
    index = _index(*TEXTS)
    draft = extractive_answer("how do I restart the service", _loaded(index, TEXTS), index, 600)
    assert draft is not None
    assert [s.text for s in draft.sentences] == [
        "Restart the service with systemctl restart lectern."
    ]
    assert draft.sentences[0].source_id == "kb:0.md"
    assert not grounding_problems(draft.sentences, _loaded(index, TEXTS), 600)
    assert verify_extractive("restart the service", draft, _loaded(index, TEXTS)).passed


def test_the_extractive_answer_fits_max_chars_and_gives_up_without_question_words() -> None:
    index = _index(*TEXTS)
    loaded = _loaded(index, TEXTS)
    draft = extractive_answer("restart service journal processes user limit", loaded, index, 120)
    assert draft is not None
    rendered = render_reply(draft.sentences, [s.source for s in loaded])
    assert len(rendered) <= 120
    assert extractive_answer("what about the weather", loaded, index, 600) is None


def test_grounding_refuses_quotes_not_in_the_source_unknown_sources_and_long_answers() -> None:
    index = _index(*TEXTS)
    loaded = _loaded(index, TEXTS)
    invented = AnswerSentence("Restart it.", "kb:0.md", "reboot the whole machine")
    unknown = AnswerSentence("Restart it.", "kb:9.md", "Restart the service")
    good = AnswerSentence("Restart it.", "kb:0.md", "restart THE   service")
    assert grounding_problems([good], loaded, 600) == []
    assert "not in kb:0.md" in grounding_problems([invented], loaded, 600)[0]
    assert "was not loaded" in grounding_problems([unknown], loaded, 600)[0]
    assert "at most 10" in grounding_problems([good], loaded, 10)[0]
    assert grounding_problems([], loaded, 600) == ["the answer has no sentence"]


def test_verification_refuses_sentences_that_are_not_the_sources_words() -> None:
    index = _index(*TEXTS)
    loaded = _loaded(index, TEXTS)
    paraphrase = DraftAnswer(
        (AnswerSentence("You can restart it.", "kb:0.md", "Restart the service"),), 1.0
    )
    assert not verify_extractive("restart", paraphrase, loaded).passed


def test_web_sources_are_listed_under_links() -> None:
    web = KnowledgeSource("kb:https://x.org/a", "d", "A", "s", "h", url="https://x.org/a")
    text = render_reply([AnswerSentence("It is so.", web.source_id, "It is so.")], [web])
    assert text == "It is so. [kb:https://x.org/a]\n\nLinks:\n- https://x.org/a"


def test_content_terms_fold_case_and_suffixes_and_drop_stop_words() -> None:
    words = content_terms("How do I restart the Services, queries and messages? 1830")
    assert words == ["restart", "service", "query", "message", "1830"]
    assert content_terms("one message, the status") == ["message", "status"]


# --- research --------------------------------------------------------------------------------


def _block(source: str, text: str, relevance: float = 0.9) -> ContextBlock:
    return ContextBlock(source, f"{source}: title", text, relevance, f"doc-{source}", f"p-{source}")


def test_context_blocks_have_the_header_line_and_separators() -> None:
    rendered = render_context([_block("CVE-1", "One."), _block("T1003", "Two.", 0.25)])
    assert rendered == "[CVE-1] (relevance: 0.900)\nOne.\n---\n[T1003] (relevance: 0.250)\nTwo."


def test_a_citation_is_kept_only_when_cited_in_the_text_and_literal() -> None:
    blocks = [_block("CVE-2021-44228", "Log4j2 JNDI features allow remote code execution.")]
    draft = ResearchDraft(
        answer="Log4Shell [CVE-2021-44228] abuses JNDI.",
        cited=(
            ("CVE-2021-44228", "JNDI features allow remote code execution"),
            ("CVE-2021-44228", "a quote that is not in the block"),
            ("CVE-2099-0001", "Log4j2 JNDI"),
        ),
        confidence=0.9,
    )
    kept, dropped = checked_citations(draft, blocks)
    assert [(c.source_id, c.snippet) for c in kept] == [
        ("CVE-2021-44228", "JNDI features allow remote code execution")
    ]
    assert dropped == 2
    not_named = ResearchDraft("Log4Shell abuses JNDI.", (("CVE-2021-44228", "Log4j2"),), 0.9)
    assert checked_citations(not_named, blocks) == ([], 1)


def test_source_names_are_matched_whole() -> None:
    assert names_source("see [T1003.001] and more", "T1003.001")
    assert names_source("see t1003.001.", "T1003.001")
    assert not names_source("see T1003.001", "T1003")
    assert not names_source("CVE-2021-442281", "CVE-2021-44228")


@pytest.mark.parametrize(
    ("path", "gate", "error", "reason"),
    [
        (("gate:chit_chat", "should_reply:false"), "chit_chat", None, "(chit chat)"),
        (("gate:question", "select:0", "should_reply:false"), "question", None, "relevant"),
        (("gate:error", "should_reply:false"), "", "gate: LLMError: x", "failed: gate: LLMError"),
        (("gate:question", "timeout"), "question", "took longer", "took too long"),
        (
            (
                "gate:question",
                "select:1",
                "load:1",
                "generate:1",
                "grounding:failed",
                "should_reply:false",
            ),
            "question",
            "not in kb:a",
            "did not hold",
        ),
        (
            ("gate:question", "select:1", "load:1", "generate:none", "should_reply:false"),
            "question",
            None,
            "do not answer",
        ),
    ],
)
def test_silence_is_explained(
    path: tuple[str, ...], gate: str, error: str | None, reason: str
) -> None:
    result = AIResult(False, "", (), (), path, {}, gate=gate, error=error)
    assert reason in silence_reason(result)
    assert silence_reason(AIResult(True, "x", (), (), (), {})) == ""


def test_bare_numbers_leave_out_ports_versions_and_years() -> None:
    text = "return 201 instead of 200 on localhost:3000 with v2.1 since 2019, or 7"
    assert bare_numbers(text) == ["201", "200"]


def test_numbers_are_named_by_the_words_two_passages_write_beside_them() -> None:
    texts = [
        "Use status_code=201 to return the HTTP status code 201 Created.",
        "The default status code is 200; an item created returns 201.",
        "Set 201 in a decorator of the path operation.",
    ]
    named = number_names(["201", "200"], texts, most=4)
    assert {"status", "code"} <= set(named) and "decorator" not in named
    assert number_names(["404"], texts) == []
