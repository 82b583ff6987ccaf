"""The shapes of the book rules' plans: calls made in order, then the reply that reports them.

Every book rule (`book_rules.py`, `list_rules.py`, `rule_policy.py`) ends in one of these
shapes: a set of changes reported as a summary, or a look-up answered from its fields. A
list entry that names several catalog titles ("Emma and Persuasion") becomes one call per
book here, so every rule spreads them the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from lectern.adapters.llm.rule_replies import _details_reply, _summary
from lectern.adapters.understanding.compound import titles_in
from lectern.adapters.understanding.scaffold import Step
from lectern.domain.assistant import AIResponse, ToolCall

MODEL_ID = "rules:assistant-v1"
CallMaker = Callable[..., ToolCall]


class BookSteps:
    """The stages the book rules share, with the policy's own call maker (ids in order)."""

    def __init__(
        self,
        call: CallMaker,
        titles: Callable[[str], bool] | None,
        slipped: Callable[[str], bool] | None = None,
    ) -> None:
        """`call` numbers the calls; `titles` says whether words are a catalog title.

        `slipped` says whether words slip from one catalog title by a plural or a space
        ("the poisonwood bibles"): a run of such titles is spread per book too.
        """
        self.call = call
        self.titles = titles
        self.slipped = slipped

    def single_calls(self, calls: list[ToolCall]) -> list[Step]:
        """The calls as one stage, then a summary of what they did."""
        return [lambda _: calls, lambda done: AIResponse(_summary(done), model=MODEL_ID)]

    def each_book(self, calls: list[ToolCall]) -> list[ToolCall]:
        """A list entry naming several catalog titles ("Emma and Persuasion") is one per book."""
        if self.titles is None:
            return calls
        spread: list[ToolCall] = []
        for call in calls:
            book = call.arguments.get("book")
            if call.name not in ("add_to_list", "remove_from_list") or not isinstance(book, str):
                spread.append(call)
                continue
            named = titles_in(book, self.titles)
            if len(named) == 1 and self.slipped is not None and not self.titles(book):
                # "the poisonwood bibles and the low land": each a slip of one title
                named = titles_in(book, self._title_or_slip)
            if len(named) == 1:
                spread.append(call)
                continue
            spread.extend(self.call(call.name, **{**call.arguments, "book": b}) for b in named)
        return spread

    def _title_or_slip(self, words: str) -> bool:
        return bool(self.titles and self.titles(words)) or bool(
            self.slipped and self.slipped(words)
        )

    def single(self, call: ToolCall) -> list[Step]:
        """One change (spread per book), then its summary."""
        return self.single_calls(self.each_book([call]))

    @staticmethod
    def details(call: ToolCall, fields: tuple[str, ...]) -> list[Step]:
        """A book look-up answered from the named fields."""
        return [
            lambda _: [call],
            lambda done: AIResponse(_details_reply(done, fields), model=MODEL_ID),
        ]
