"""The one sentence splitter and each caller's rule."""

from __future__ import annotations

import pytest

from lectern.domain.sentences import (
    CAPITALISED,
    KB,
    LABELLED_LINES,
    LINES,
    PROSE,
    SNIPPET,
    SentenceRule,
    sentence_breaks,
    sentence_spans,
    sentences,
    trimmed_span,
)

RULES = [PROSE, LINES, LABELLED_LINES, CAPITALISED, SNIPPET, KB]
TEXT = (
    "  Dr. Monica Geller wrote it. see the notes; they matter: a lot!\n"
    "- first item\n\n"
    "Section 5.1.1.2 says 8 characters. “Quoted” start? (Bracketed) end.  "
)


@pytest.mark.parametrize("rule", RULES)
def test_spans_are_literal_trimmed_pieces_of_the_text(rule: SentenceRule) -> None:
    spans = sentence_spans(TEXT, rule)
    assert spans == sorted(spans)
    for start, end in spans:
        piece = TEXT[start:end]
        assert piece == piece.strip() != ""
    assert sentences(TEXT, rule) == [TEXT[a:b] for a, b in spans]


@pytest.mark.parametrize("rule", RULES)
def test_breaks_and_untrimmed_spans_rebuild_the_text(rule: SentenceRule) -> None:
    breaks = sentence_breaks(TEXT, rule)
    assert all(TEXT[a:b].isspace() for a, b in breaks)
    rebuilt, last = [], 0
    for start, end in breaks:
        rebuilt.append(TEXT[last:start] + TEXT[start:end])
        last = end
    rebuilt.append(TEXT[last:])
    assert "".join(rebuilt) == TEXT
    bounds = [0, *(edge for span in breaks for edge in span), len(TEXT)]
    between = list(zip(bounds[::2], bounds[1::2], strict=True))
    untrimmed = sentence_spans(TEXT, rule, trim=False)
    assert untrimmed == [(a, b) for a, b in between if TEXT[a:b].strip()]
    assert untrimmed[0][0] == 0  # the text's leading whitespace stays with the first span


def test_prose_ends_at_every_full_stop_and_not_at_line_ends() -> None:
    assert sentences("Dr. Who. it ends\nhere", PROSE) == ["Dr.", "Who.", "it ends\nhere"]


def test_lines_end_at_every_line_end_too() -> None:
    assert sentences("one. two\nthree", LINES) == ["one.", "two", "three"]


def test_labelled_lines_need_a_sentence_start_or_a_bullet() -> None:
    text = "See 5.1.1.2. it stays. - a bullet\nnext"
    assert sentences(text, LABELLED_LINES) == ["See 5.1.1.2. it stays.", "- a bullet", "next"]


def test_capitalised_accepts_an_opening_curly_quote() -> None:
    text = "He left. “Then” he came. then stayed."
    assert sentences(text, CAPITALISED) == ["He left.", "“Then” he came. then stayed."]


def test_snippet_ends_at_semicolons_colons_and_blank_lines_only() -> None:
    text = "a; b: c\nd\n\ne"
    assert sentences(text, SNIPPET) == ["a;", "b:", "c\nd", "e"]


def test_kb_skips_abbreviations_and_initials_and_splits_list_items() -> None:
    text = "Ask Dr. Monica or J. K. Rowling, e.g. Today. Then go.\n- an item\nlower\n\nNew"
    assert sentences(text, KB) == [
        "Ask Dr. Monica or J. K. Rowling, e.g. Today.",
        "Then go.",
        "- an item\nlower",
        "New",
    ]


def test_empty_and_blank_text_have_no_sentences() -> None:
    for rule in RULES:
        assert sentence_spans("", rule) == []
        assert sentence_spans(" \n ", rule, trim=False) == []


def test_trimmed_span_drops_whitespace_at_either_end_only() -> None:
    assert trimmed_span("  a b \n", 0, 7) == (2, 5)
    assert trimmed_span("   ", 0, 3) == (3, 3)
    assert trimmed_span("x  y", 1, 3) == (3, 3)
