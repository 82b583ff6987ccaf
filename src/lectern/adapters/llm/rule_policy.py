"""`RulePolicy`: the offline, deterministic `ChatModel` that drives the same tool registry.

It reads the reader's last message with rules (regular expressions for the request's shape,
the query-understanding rules for searches), asks for the tools a model would, and writes
the reply from the tool results with cited quotes. A request is a short plan of stages; on
each call the policy finds how many stages the tool results already cover and takes the
next one. Nothing in a tool result is ever read as an instruction: the policy only looks at
the reader's own message, and at tool results for the ids and fields it needs.

This module is the front: it cleans the message, sends workspace requests to
`workspace_rules.py`, tries the book matchers in a fixed order (reading lists in
`list_rules.py`, catalog requests in `book_rules.py`, their shared stages in
`rule_steps.py`, "it" and "this book" in `understanding/referents.py`, a message of
several requests in `book_compound.py`), and reads what no pattern matched by meaning
(`by_meaning.py`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from lectern.adapters.llm.book_compound import CompoundReading, fuller
from lectern.adapters.llm.book_rules import BookRules
from lectern.adapters.llm.by_meaning import ByMeaning
from lectern.adapters.llm.catalog_spelling import (
    CatalogBooks,
    CatalogSpelling,
    NearBooks,
    WriterShelf,
    answered_request,
)
from lectern.adapters.llm.line_plans import LineReading
from lectern.adapters.llm.list_pointing import on_the_list as _on_the_list
from lectern.adapters.llm.list_rules import ListRules
from lectern.adapters.llm.meant_instead import meant_instead, put_right
from lectern.adapters.llm.quoted_first import quoted_first
from lectern.adapters.llm.rule_replies import (
    _decision,
    _lead,
    _parse,
    _summary,
)
from lectern.adapters.llm.rule_steps import MODEL_ID, BookSteps
from lectern.adapters.llm.same_change import (
    first_stage,
    nothing_to_repeat,
    rated_next,
    same_for,
    with_another_book,
)
from lectern.adapters.llm.told_first import told_first
from lectern.adapters.llm.undone_last import undone_last
from lectern.adapters.llm.workspace_condition import asked_change, condition_left, on_condition
from lectern.adapters.llm.workspace_lookup import workspace_look_up
from lectern.adapters.llm.workspace_rules import WorkspaceRules
from lectern.adapters.understanding import request_sentence as asked
from lectern.adapters.understanding.book_patterns import LABEL
from lectern.adapters.understanding.book_plan import title_in
from lectern.adapters.understanding.compound import retracted, title_within, without_more
from lectern.adapters.understanding.hedges import unhedged
from lectern.adapters.understanding.intent_examples import (
    BOOK_TOOLS,
)
from lectern.adapters.understanding.layer import (
    CHANGES,
    Clarification,
    Understanding,
)
from lectern.adapters.understanding.listed_books import on_the_list
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.message_lines import one_line, unframed_mail
from lectern.adapters.understanding.name_runs_on import (
    name_runs_on,
    name_undecided,
    words_run_on,
)
from lectern.adapters.understanding.not_asked import asked_whether, not_asked
from lectern.adapters.understanding.off_topic import off_topic
from lectern.adapters.understanding.own_words import in_own_words
from lectern.adapters.understanding.referents import (
    _NoReferent,
    book_resolver,
    list_in_view,
    which_book,
)
from lectern.adapters.understanding.request_frames import unframed
from lectern.adapters.understanding.ruled_out import (
    names_workspace_thing,
)
from lectern.adapters.understanding.said_around import said_bare
from lectern.adapters.understanding.said_before import sentence_with_it, title_said_before
from lectern.adapters.understanding.scaffold import ASKING as _ASKING
from lectern.adapters.understanding.scaffold import ASKING_U as _ASKING_U
from lectern.adapters.understanding.scaffold import POLITE, Step
from lectern.adapters.understanding.scaffold import WISH as _WISH
from lectern.adapters.understanding.scaffold import Done as _Done
from lectern.adapters.understanding.self_corrected import (
    settled_name,
    settled_value,
    wholly_taken_back,
)
from lectern.adapters.understanding.series_said import SeriesShelf, series_said
from lectern.adapters.understanding.shown_places import with_places_named
from lectern.adapters.understanding.slots import names_ended
from lectern.adapters.understanding.spoken import tidied
from lectern.adapters.understanding.sweeping import sweeping_change
from lectern.adapters.understanding.workspace_changed_mind import changed_mind
from lectern.adapters.understanding.workspace_kept_frames import kept_on_task
from lectern.adapters.understanding.workspace_patterns import WORKSPACE_PAGE
from lectern.adapters.understanding.workspace_quoted import beside_the_quoted
from lectern.adapters.understanding.workspace_refused import instead_of_refused
from lectern.adapters.understanding.workspace_register import registered
from lectern.adapters.understanding.workspace_said import workspace_said
from lectern.adapters.understanding.workspace_text_end import (
    clock_masked,
    clock_restored,
    fillers_dropped,
    shorthand_fields,
)
from lectern.adapters.understanding.workspace_ticked import ticked_done
from lectern.adapters.understanding.workspace_told_task import task_led, told_task_named
from lectern.adapters.understanding.workspace_unfinished import unfinished_change
from lectern.adapters.understanding.workspace_which_one import TASK_QUESTION, asks_for_a_task
from lectern.application.assistant.guardrails import CANNOT_APPROVE_TEXT, off_topic_text
from lectern.application.ports import QueryUnderstanding
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec

_LEAD_FILLER = re.compile(
    # "ok sold. add it to Autumn": the reader's reaction, though *Sold* is a catalog title
    r"^(?:(?:ok(?:ay)?|alright|all right|right|yes|yeah|yep|fine|well)[\s,]+(?:i['’]?m\s+)?"
    r"(?:sold|convinced|persuaded|in|game|down|hooked|intrigued)\s*[.!,;]+\s*|"
    r"(?:ok(?:ay)?|alright|all right|so|well|right|cool|great|nice|perfect|awesome|lovely|"
    r"sure|yes|yeah|yep|and|also|hmm+|um+|oh|first(?:ly|\s+of\s+all)?|kindly)\b[\s,.!-]*|"
    r"(?:(?:quick|status|small)\s+)?(?:update|news|progress)\s*[:–—-]\s*)+(?=\S+\s+\S)",
    re.I,
)
"""Words that lead a request without being it ("ok add it to ...", "Update: I've ...")."""
_PLEASE = re.compile(r"\b(?:pls|plz|pleas)\b", re.I)
APPROVE_REQUEST = re.compile(
    r"\b(?:approve|confirm|accept|execute|run)\b.{0,40}\b(?:all|every|pending|actions?|changes?)\b",
    re.I,
)


def _names_any(text: str, lists: Sequence[str]) -> bool:
    """Whether the message says the name of one of the reader's lists."""
    return any(re.search(rf"\b{re.escape(name)}\b", text, re.I) for name in lists)


@dataclass
class _Plan:
    steps: list[Step] = field(default_factory=list)
    by_meaning: bool = False
    """Read by the layer (MiniLM), not by a pattern: not trusted as a part of a compound."""
    conditioned: bool = False
    """A change asked on a condition the record tells, looked up first (`on_condition`)."""


def _asking_which_book(plan: _Plan, error: _NoReferent, text: str, system: str) -> _Plan:
    # "what's the second one about?" on a task's page: a book was never meant
    question = TASK_QUESTION if asks_for_a_task(text, system) else which_book(error)
    plan.steps.append(lambda _: question.response(MODEL_ID))
    return plan


def _renames_taken_back(calls: list[ToolCall]) -> str | None:
    """The list whose rename the message took back ("..., no wait, keep it"), else None.

    A rename whose new name holds a take-back and the name settled on is kept in place.
    """
    for index, call in enumerate(calls):
        if call.name != "rename_list" or not isinstance(call.arguments.get("new_name"), str):
            continue
        settled = settled_name(str(call.arguments["new_name"]))
        if settled is None:
            return str(call.arguments.get("list"))
        if settled != call.arguments["new_name"]:
            calls[index] = ToolCall(call.id, call.name, {**call.arguments, "new_name": settled})
    return None


_POINTER_NAME = re.compile(r"^\W*(?:that|this|it|them|those|these|one|that\s+one)\W*$", re.I)


def _renamed_to_a_pointer(calls: list[ToolCall]) -> Clarification | None:
    """A question when a rename's new name is only "that" or "it", else None.

    "rename Misc to that" with no name told before it (`list_by_name` reads one told) names
    nothing: renaming the list "that" would be a change nobody asked for.
    """
    for call in calls:
        new = call.arguments.get("new_name") if call.name == "rename_list" else None
        if isinstance(new, str) and _POINTER_NAME.match(new):
            listed = call.arguments.get("list")
            return Clarification(f"What should I rename {listed} to? Tell me the new name.", ())
    return None


class RulePolicy(ByMeaning, CompoundReading, LineReading):
    """A `ChatModel` by rules: the assistant works with no model and no network."""

    model_id = MODEL_ID

    def __init__(
        self,
        understanding: QueryUnderstanding | None = None,
        layer: Understanding | None = None,
        clock: Callable[[], datetime] | None = None,
        *,
        titles: Callable[[str], bool] | None = None,
        books: CatalogBooks | None = None,
        authors: Callable[[str], bool] | None = None,
        spelt: Callable[[str], str | None] | None = None,
        near: NearBooks | None = None,
        writers: WriterShelf | None = None,
        series: SeriesShelf | None = None,
    ) -> None:
        """Query-understanding rules filter searches; `layer` reads what patterns miss.

        Without a layer, a request no pattern matches is a book search. `clock` reads relative
        due dates ("by Friday"). `titles` says whether words are a catalog title ("War and
        Peace" is one book); `books` reads a title as the catalog spells it and tells apart
        books sharing one; `authors` says whether words name a catalog writer and no title
        ("the Hosseini": asked). `spelt` reads a misspelt title for look-ups; `near` and
        `writers` what a misremembered or described book may mean (`CatalogSpelling`).
        """
        self.authors = authors
        self.spelt = spelt
        self.understanding = understanding
        self.books_titled = books
        self.layer = layer
        self.titles = titles
        self.clock = clock or (lambda: datetime.now(UTC))
        self._counter = 0
        self.catalog_books = CatalogSpelling(books, spelt, near, writers, authors)
        self.series = series
        self.workspace = WorkspaceRules(self._call, self.clock)
        self.steps = BookSteps(self._call, titles, self.catalog_books.slips_to_one)
        self.books = BookRules(self.steps, understanding)
        self.lists = ListRules(self.steps, self.books.search_call)

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        """The next step for the last user message, given this turn's tool results."""
        del temperature, max_tokens
        available = {t.name for t in tools}
        if messages and messages[-1].role == "tool":
            decided = _decision(messages[-1].content)
            if decided is not None:
                return AIResponse(decided, model=MODEL_ID)
        start = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
        if start < 0:
            return AIResponse("Ask me about books, or about your reading lists.", model=MODEL_ID)
        said = messages[start].content  # with its line breaks: a pasted line ends there
        said = unframed_mail(said)  # "Hi,\n\n...\n\nThanks,\nAlice": the e-mail's frame
        request = one_line(said)  # "After last night:\n- rate X 4\n- ...": the items asked
        done = _Done([], [])
        for message in messages[start + 1 :]:
            if message.role == "assistant":
                done.calls.extend(message.tool_calls)
            elif message.role == "tool":
                done.results.append(_parse(message.content))
        completed = answered_request(messages[:start], request)
        if completed is not None:
            # The answer to "which book?" completes the request the question was about.
            request, start = completed, start - 2
        asked_for = said if completed is None else request
        if wholly_taken_back(request) and not (messages[start + 1 :]):
            # "rename horror to spooky, no wait, keep it": all it asked is taken back
            return AIResponse("All right: I haven't changed anything.", model=MODEL_ID)
        plan = self._plan(asked_for, messages[:start], system, available)
        answered = 0
        for step in plan.steps:
            outcome = step(done)
            if isinstance(outcome, AIResponse):
                return outcome
            if answered + len(outcome) <= len(done.calls):
                answered += len(outcome)
                continue
            heard = on_the_list(outcome, system, self.catalog_books.holds)  # "carry": *Carrie*
            calls = self.catalog_books.settled([c for c in heard if c.name in available], request)
            calls = in_own_words(calls, asked_for)  # "the citrix ticket" kept, not "task"
            kept = _renames_taken_back(calls)
            if kept is not None:  # "rename horror to spooky, no wait, keep it"
                return AIResponse(f"All right: I've left {kept} as it is.", model=MODEL_ID)
            calls = names_ended(calls, asked_for)  # "comfort reads bc thats more accurate"
            run_on = (
                name_undecided(calls, asked_for)  # "not sure what to call it yet"
                or name_runs_on(calls)
                or words_run_on(calls, asked_for)
            )
            if run_on is not None:  # "rename X to Y and ad Z to it": "ad Z to it" read as nothing
                return run_on.response(MODEL_ID)
            unnamed = _renamed_to_a_pointer(calls)
            if unnamed is not None:  # "rename Misc to that", no name told before it
                return unnamed.response(MODEL_ID)
            if not calls:
                workspace = bool(WORKSPACE_PAGE.search(system)) or "get_projects" in available
                return AIResponse(off_topic_text(workspace), model=MODEL_ID)
            if (
                any(c.name in CHANGES for c in calls)
                and not put_right(request)  # "not Dune, Dune Messiah. i already read the first"
                and (
                    not_asked(self._unhedged(request, system, conditioned=plan.conditioned))
                    # "push the drill back a day if it's still todo": its condition not looked up
                    or (not plan.conditioned and condition_left(request, system))
                )
            ):
                # "don't add X", "I added X", "my wife wants X on Y": asked, never made
                named = calls if self.catalog_books.not_in_catalog(calls) is None else []
                return asked_whether(request, named).response(MODEL_ID)
            unknown: _NoReferent | None = self.catalog_books.not_in_catalog(calls)
            if unknown is None and plan.by_meaning:
                unknown = self.catalog_books.looked_up_unnamed(calls)
            if unknown is not None:
                return which_book(unknown).response(MODEL_ID)
            return AIResponse(_lead(done), tuple(calls), model=MODEL_ID)
        return AIResponse(_summary(done), model=MODEL_ID)

    # --- planning -------------------------------------------------------------------------

    @staticmethod
    def _unhedged(request: str, system: str, *, conditioned: bool = False) -> str:
        """A book request without its hedges ("if it's no bother", "Maybe Someday" no plan)."""
        names = names_from_prompt(system)
        if not (names.of("project") or WORKSPACE_PAGE.search(system)):
            return unhedged(request)
        # "if the drill is done, comment on it": the change asked, its condition looked up;
        # a condition `on_condition` did not take is asked back (`condition_left`)
        return asked_change(request) if conditioned else request

    def _call(self, tool: str, **arguments: Any) -> ToolCall:
        book = arguments.get("book")
        if tool in BOOK_TOOLS and isinstance(book, str):
            arguments["book"] = self.catalog_books.as_argument(tool, book)
        self._counter += 1
        # a clock time read with its colon masked is proposed as said (`workspace_text_end.py`)
        return ToolCall(f"rp-{self._counter}", tool, clock_restored(dict(arguments)))

    def _plan(
        self,
        request: str,
        history: Sequence[Message],
        system: str,
        available: set[str],
        referent: str | None = None,
        *,
        nested: bool = False,
        whole: bool = False,
    ) -> _Plan:
        names = names_from_prompt(system)
        # "✅ netscaler review ✅ runbook - both done": a checklist, before the emoji are read
        ticked = ticked_done(request, names.of("task")) if names.of("project") else None
        request = ticked or request
        sees_projects = bool(names.of("project")) or bool(WORKSPACE_PAGE.search(system))
        said = " ".join(request.split())
        if not sees_projects and not nested:
            # "Adding THIS one to my X list 👻 #tag", "when was this written?? need it for ...":
            # the request without the tags, remark and polite shape around it
            said = said_bare(said, names.of("list"))
        text = tidied(_PLEASE.sub("please", said)) or request
        placed = self._placed_in_series(text) if not sees_projects else None
        if isinstance(placed, Clarification):  # "the second Dune": which book is asked
            return _Plan([lambda _: placed.response(MODEL_ID)])
        text = placed or text  # "the second Hunger Games" is *Catching Fire*
        kept = (
            kept_on_task(text, names.of("task"), names.of("project"))
            if sees_projects and not nested
            else None
        )
        if kept is not None:
            # "add this to the patch task: <log line>", "impediment on X — <why>": the text
            # kept on the task, said in the words the rules read (lines and all)
            text = request = kept
        if sees_projects and not nested and not whole:
            # "if bob hasn't started the drill, give it to alice": looked up, then proposed
            reread = functools.partial(
                self._plan, history=history, system=system, available=available, whole=True
            )
            held = on_condition(
                text,
                names,
                self.workspace.context(history, system)[0],
                self.clock().date(),
                self._call,
                lambda change: reread(change).steps,
            )
            if held:
                return _Plan(held, conditioned=True)
        if not nested and not whole and "\n" in request.strip():
            # "a few things:\n1. make a list ...\n2. add ... to it": a request a line
            lined = self._by_lines(request, history, system, available, workspace=sees_projects)
            if lined:
                return _Plan(lined)
        if sees_projects and not whole and (quoted := beside_the_quoted(request)) is not None:
            reread = functools.partial(self._plan, history=history, system=system, whole=True)
            return quoted_first(
                quoted, functools.partial(reread, available=available), names, request
            )
        if sees_projects:
            # "saturday 02:00": a clock time's colon leads no text; "..., yeah, ...": a filler
            text = fillers_dropped(clock_masked(text))
            # "t: rotate certs @bob !high +vpn": the shorthand that sets a field, in words
            text = shorthand_fields(text, names.of("project"))
            # "the phishing backlog", "end of day stuff: ...", "next friday, the 13th", ...
            text = workspace_said(text, names, self.layer)
        else:
            # "Thank you. Please add this book to ...", "is X good? whatever, ...": asides
            text = asked.without_asides(text, names.of("list"))
        why = None if sees_projects or whole else asked.asked_alone(text, names, self.titles)
        if why is not None:  # "Since I keep forgetting ..., can you make a list called X?"
            return self._plan(why.request, history, system, available, why.said, whole=True)
        text = _ASKING.sub("", _LEAD_FILLER.sub("", text))
        plan = _Plan()
        if referent is None and self.titles is not None:
            # "the gruffalo is too babyish now, take it off ...": the title said before "it"
            referent = title_said_before(text, self.titles, title_in)
        it = book_resolver(
            history, system, text, referent, self.authors, title_in, self.catalog_books.wrote
        )
        if APPROVE_REQUEST.search(text):
            plan.steps.append(lambda _: AIResponse(CANNOT_APPROVE_TEXT, model=MODEL_ID))
            return plan
        told = asked.request_after_circumstances(text) if sees_projects and not whole else None
        if told is not None:
            # "The drill went fine. Close it.": "it" is the task the telling names
            told = told_task_named(told, names_from_prompt(system).of("task"))
            # "Bob is swamped. Assign the drill to me.": read alone, or with what was told
            return told_first(
                told,
                functools.partial(
                    self._plan,
                    history=history,
                    system=system,
                    available=available,
                    referent=referent,
                    nested=nested,
                    whole=True,
                ),
            )
        if "get_projects" in available and sees_projects:
            # "give it to bob, actually no, set it to high": only the change settled on
            text = changed_mind(task_led(text, names.of("task")), names.of("task"))
            # "don't mark the runbook done - just move it to review": only the instead
            text = instead_of_refused(text, names.of("task"))
            # "please record that the exception 'X' is remediated: ...": an audit's register
            text = registered(text, names)
            # Workspace requests first: a task may well mention a password or a translation.
            # Only for a reader who has projects to speak of: "give Rebecca 4 stars and add it
            # to Winter" from a reader with none is no task handed to a person called Winter.
            cut_off = unfinished_change(text, names.of("task"))
            if cut_off is not None:  # "the hunt task can you make it uh": what to change?
                plan.steps.append(lambda _: cut_off.response(MODEL_ID))
                return plan
            several = self._workspace_parts(text, history, system, available) if not nested else []
            if several:
                plan.steps.extend(self.steps.single_calls(several))
                return plan
            # "any blockers on vpn? also who's on the team": each request answered in turn
            requests = [] if nested else self._requests_in_parts(text, history, system, available)
            if requests:
                plan.steps.extend(requests)
                return plan
            stages = self.workspace.plan(text, history, system)
            if not stages and self.books_titled is not None:
                # "look up simulation": no catalog book, so the reader's workspace is searched
                stages = workspace_look_up(text, self.catalog_books.holds, self.spelt, self._call)
            if stages:
                plan.steps.extend(stages)
                return plan
        if off_topic(text):
            reply = off_topic_text(sees_projects)
            plan.steps.append(lambda _: AIResponse(reply, model=MODEL_ID))
            return plan
        swept = None if sees_projects else sweeping_change(text, names.of("list"))
        if swept is not None:  # "delete everything", "clear out my lists": where to start?
            plan.steps.append(lambda _: swept.response(MODEL_ID))
            return plan
        # "scrap my Winter list please": thanks and please at the end are not the request.
        text = unframed(
            POLITE.sub("", _WISH.sub("", _ASKING_U.sub("", LABEL.sub("", text)))) or text
        )
        # "add X... wait, it's there. ok then add Y": only the request settled on.
        names = names_from_prompt(system)
        text = without_more(retracted(settled_value(text, names.of("list"))))
        # "rename the second one", "no, the other list": what the last reply showed, named
        pointed = text if nested else with_places_named(text, history, names.of("list"))
        if isinstance(pointed, Clarification):
            plan.steps.append(lambda _: pointed.response(MODEL_ID))
            return plan
        text = pointed
        in_view = list_in_view(history)
        if in_view and not nested and not _names_any(text, names.of("list")):
            # Just after a list was shown (or made), "take Emma off it" (or off none) means it.
            text = _on_the_list(text, in_view)
        if self.layer is not None and names_workspace_thing(text, system):
            # "tell me about the runbook task" names a task: not a book question.
            plan.steps.extend(self._missed(text, system, available, it, history))
            plan.by_meaning = True
            return plan
        again = [] if nested else self._same_change(text, history, system, available)
        if isinstance(again, Clarification):
            plan.steps.append(lambda _: again.response(MODEL_ID))
            return plan
        if again:
            # "Put Cinder on TBR, and Red Queen too", "same for Holes": one change, two books
            plan.steps.extend(self.steps.single_calls(again))
            return plan
        lists = self.lists
        compound = self._compound(history, system, available, nested=nested)
        for matcher in (
            lists.list_with_books,
            lists.find_and_add,
            compound,
            lists.overview,
            functools.partial(lists.details, lists=names.of("list")),
            functools.partial(lists.named_contents, lists=names.of("list")),
            functools.partial(lists.rename, lists=names.of("list")),
            lists.create,
            functools.partial(lists.move, lists=names.of("list")),
            functools.partial(lists.remove, lists=names.of("list")),
            functools.partial(lists.delete, lists=names.of("list")),
            functools.partial(lists.add, lists=names.of("list")),
            self.books.rate,
            functools.partial(self.books.correction, lists=names.of("list")),
            self.books.similar,
            self.books.question,
            self.books.facets,
        ):
            try:
                steps = matcher(text, it)
            except _NoReferent as error:
                return _asking_which_book(plan, error, text, system)
            if steps and matcher in (lists.list_with_books, lists.find_and_add):
                # "pop Rebecca on a new list Gothic, then give it 4 stars": a list made with its
                # books may be only the first request; the reading leaving none behind wins.
                steps = fuller(steps, compound(text, it))
            if steps:
                plan.steps.extend(steps)
                return plan
        alone = sentence_with_it(text) if referent is not None and not nested else None
        if alone is not None:
            # "My mum told me about Still Alice - could it go on Mum's picks?": read alone
            read_alone = self._plan(alone, history, system, available, referent, nested=True)
            if not read_alone.by_meaning and first_stage(read_alone.steps):
                return read_alone
        plan.by_meaning = not self._asks_for_books(text, system)
        try:
            plan.steps.extend(self._missed(text, system, available, it, history))
        except _NoReferent as error:
            return _asking_which_book(plan, error, text, system)
        return plan

    def _placed_in_series(self, text: str) -> str | Clarification | None:
        if self.series is None or self.titles is None:
            return None
        return series_said(text, self.series, self.titles)

    def _same_change(
        self, text: str, history: Sequence[Message], system: str, available: set[str]
    ) -> list[ToolCall] | Clarification:
        """A change made again with another book, here or after the last one, or a question."""
        if (titles := self.titles) is None:
            return []

        def plan(said: str, before: Sequence[Message]) -> list[ToolCall]:
            return first_stage(self._plan(said, before, system, available, nested=True).steps)

        return (
            with_another_book(text, history, titles, plan, self._call)
            or same_for(text, history, titles, plan, self._call)
            or rated_next(text, history, titles, plan, self._call)
            or nothing_to_repeat(text, history, titles, plan)
            or meant_instead(text, history, names_from_prompt(system).of("list"), plan)
            or undone_last(text, history, names_from_prompt(system).of("list"), plan, self._call)
        )

    def _verdict_on(self, part: str) -> str | None:
        """The catalog book a statement names ("I loved Dune"), or None (a question, no book).

        Written in lower case, the book is what the reader's verb takes ("i finished
        persuasion", "loved the martian!!"), or a catalog title inside it.
        """
        books_titled = self.books_titled
        if books_titled is None or "?" in part:
            return None
        title = title_in(part)
        said = _READ_IT.search(part) if title is None and part == part.casefold() else None
        if said is not None:
            # Only what the verb takes: "make me a list" holds a title ("Make Me"), no verdict.
            title = said.group("book").strip(" !.,;")
            if not books_titled(title):
                title = title_within(title, lambda words: bool(books_titled(words)))
        found = books_titled(title) if title else ()
        return found[0][0] if found else None


_READ_IT = re.compile(
    r"\b(?:finished|loved|read|enjoyed|liked|hated|devoured|adored|disliked|started|"
    r"reading|reread|re-read)\s+(?!(?:it|this|that|them)\b)(?P<book>.+)$",
    re.I,
)
"""What a reader says they read ("i finished persuasion"): the verb's object is the book; a
pronoun ("reading it now, add it to summer") names none, though *It* is a title."""
