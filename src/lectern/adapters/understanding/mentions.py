"""Names resolved against what the reader may see, with rapidfuzz.

The assistant's system prompt lists the names the reader may use (`application/assistant/
names.py`: projects, tasks, blockers and members of their organizations, their reading
lists). A mention ("the runbook", "check point patching", "bob builder") is matched against
the names of one kind; two candidates scoring close together are ambiguous, and the policy
asks which one is meant instead of picking.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import OSA

from lectern.application.assistant.names import NAMES_HEADER

_LINE = re.compile(r"^- (?P<kind>[a-z]+): (?P<name>.+?)(?: \((?P<display>[^()]*)\))?$")
_FILLER = re.compile(
    r"\b(?:the|a|an|my|our|this|that|task|project|blocker|list|reading|called|named|one|"
    r"about|on|for|of|please|pls)\b",
    re.I,
)
CUTOFF = 62.0
"""The least WRatio (0-100) a name needs to count as meant."""
CLOSE = 4.0
"""Two names within this many points of each other are both meant: ask which."""


@dataclass(frozen=True, slots=True)
class Names:
    """Stored names by kind (project, task, blocker, member, list)."""

    by_kind: dict[str, list[str]] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)
    """Member user id -> display name."""

    def of(self, kind: str) -> list[str]:
        """The names of one kind."""
        return self.by_kind.get(kind, [])


def names_from_prompt(system: str) -> Names:
    """The names block of a system prompt (empty when there is none)."""
    start = system.find(NAMES_HEADER)
    if start < 0:
        return Names()
    names = Names()
    for line in system[start + len(NAMES_HEADER) :].splitlines():
        found = _LINE.match(line.strip())
        if not found:
            continue
        kind, name = found.group("kind"), found.group("name").strip()
        names.by_kind.setdefault(kind, []).append(name)
        if found.group("display"):
            names.display[name] = found.group("display")
    return names


def with_name(system: str, kind: str, name: str) -> str:
    """The system prompt with one more name the reader may use (a list an earlier part made)."""
    if NAMES_HEADER not in system:
        system = f"{system}\n{NAMES_HEADER}"
    return f"{system}\n- {kind}: {name}"


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a mention names: one name, several close ones, or nothing."""

    name: str | None
    candidates: tuple[str, ...] = ()

    @property
    def ambiguous(self) -> bool:
        """Two or more names fit about as well."""
        return self.name is None and len(self.candidates) > 1


def _core(mention: str) -> str:
    return " ".join(_FILLER.sub(" ", mention).split())


ANCHOR = 75.0
"""The least ratio one word of a mention needs with one word of the name it means."""


def _anchored(core: str, name: str) -> bool:
    """Whether a word of the mention is (nearly) a word of the name.

    WRatio over whole strings rates "printer" 62 against "Write the incident runbook" (its
    letters scatter through "write ... incident"), enough to propose a comment on the wrong
    task; a word spelt alike ("runbok", "netscaler") is what a reader's mention holds.
    """
    words = utils.default_process(name).split()
    said = [w for w in utils.default_process(core).split() if len(w) >= 3]
    if not said:
        # Words of one or two letters are anchored only by being a word of the name ("ya" for
        # the list "YA"): "kar do" had deleted the list "Done".
        return bool(set(utils.default_process(core).split()) & set(words))
    return any(fuzz.ratio(a, b) >= ANCHOR for a in said for b in words)


_KIND_WORDS = frozenset(
    {
        *("ticket", "thing", "thingy", "item", "card", "issue", "stuff", "work", "job"),
        *("draft", "todo", "today", "tomorrow", "tonight", "yesterday", "week", "now"),
        *("both", "either", "neither", "each", "also", "other"),
        *("next", "later", "first", "then", "again", "instead", "asap", "please"),
    }
)
"""Words that say a mention is a piece of work, when, in what order or how many, not which one
("the hunt ticket", "both the hunt and ...", "put me on the hunt next")."""


_NAME_WORDS = 3
"""At most this many own words make a mention a name ("the firewall review"); more are a
clause read around one ("the drill is more urgent than we thought")."""


def names_other(mention: str, name: str) -> bool:
    """Whether a mention's own words name something other than `name`.

    WRatio matches a mention by its best part: "firewall review" scores 85 against "Review
    NetScaler session tokens" on "review" alone, though "firewall" names something no stored
    task is about. The mention's words of four letters or more are weighed: more that fit no
    word of the name than fit one, or a word fitting nothing beside words that fit only the
    name's first word (a title's leading verb says what is done, not which task: "Review",
    "Patch"), and the name is not what was meant. "the runbook draft", "the phishing
    exercise" still name theirs.
    """
    own = [
        w
        for w in utils.default_process(_core(mention)).split()
        if len(w) >= 4 and w.isalpha() and w not in _KIND_WORDS
    ]
    if len(own) > _NAME_WORDS:
        return False  # a clause the mention was cut from, not a name: WRatio picks the title
    words = utils.default_process(name).split()
    stray = [w for w in own if not any(_fits(w, b) for b in words)]
    naming = [w for w in own if any(_fits(w, b) for b in words[1:])]
    return bool(stray) and (len(stray) > len(own) - len(stray) or not naming)


def _fits(said: str, word: str) -> bool:
    """A word spelt nearly alike, or another form of it ("writing" for "write")."""
    return fuzz.ratio(said, word) >= ANCHOR or len(os.path.commonprefix([said, word])) >= 4


def resolve(mention: str, names: Sequence[str], *, cutoff: float = CUTOFF) -> Resolution:
    """The stored name `mention` means, by fuzzy match of its content words."""
    # A name said whole is meant even when its words are all filler ("my Reading list").
    for name in names:
        if utils.default_process(name) == utils.default_process(mention):
            return Resolution(name)
    core = _core(mention)
    if not core or not names:
        return Resolution(None)
    # "my fantasy shelf" for "fantasy-ya" and "fantasy-adult": every word said is a word of
    # both, so either is meant (WRatio had scored the shorter name higher): asked.
    said = _name_words(core) - {"shelf", "reading", "called", "lists"}
    sharing = tuple(name for name in names if said and said <= _name_words(name))
    if len(sharing) > 1:
        return Resolution(None, sharing)
    scored = process.extract(
        core, list(names), scorer=fuzz.WRatio, processor=utils.default_process, limit=4
    )
    scored = [s for s in scored if s[1] >= cutoff and _anchored(core, str(s[0]))]
    if not scored:
        return Resolution(None)
    best = scored[0][1]
    close = tuple(str(s[0]) for s in scored if best - s[1] <= CLOSE)
    if len(close) > 1:
        return Resolution(None, close)
    return Resolution(str(scored[0][0]))


def _name_words(name: str) -> set[str]:
    return set(utils.default_process(re.sub(r"[-_/]", " ", name)).split())


def resolve_person(mention: str, names: Names, me: str | None = None) -> Resolution:
    """A member by user id or display name ("bob", "Bob Builder"); "me" is the reader."""
    text = mention.strip().casefold()
    if text in ("me", "myself", "i") and me is not None:
        return Resolution(me)
    members = names.of("member")
    for user in members:
        display = names.display.get(user, "")
        if text in (user.casefold(), display.casefold()) or text in display.casefold().split():
            return Resolution(user)
    # "asign the patch to alcie": two letters swapped in a member's name is that member when
    # only one is so close; anyone else is asked.
    slipped = [
        user
        for user in members
        if any(_slipped(text, name) for name in _names_of(user, names.display.get(user, "")))
    ]
    return Resolution(slipped[0]) if len(slipped) == 1 else Resolution(None)


def _names_of(user: str, display: str) -> set[str]:
    return {user.casefold(), *display.casefold().split()}


def _slipped(said: str, name: str) -> bool:
    """Whether `said` is `name` with a slip of the fingers, not another name.

    Two neighbouring letters swapped ("alcie" for alice). A letter more or less is not
    read so: "robert" may well be someone other than "roberta".
    """
    if len(said) < 4 or len(name) < 4 or not said.isalpha():
        return False
    if OSA.distance(said, name) != 1:
        return False
    return sorted(said) == sorted(name) or min(len(said), len(name)) >= 6 and len(said) != len(name)


_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "our",
        "this",
        "that",
        "it",
        "task",
        "tasks",
        "project",
        "projects",
        "blocker",
        "list",
        "and",
        "or",
        "for",
        "of",
        "on",
        "in",
        "to",
        "with",
        "is",
        "are",
        "was",
        "be",
        "by",
        "at",
        "as",
        "from",
        "up",
        "out",
    ]
)


def _tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9][a-z0-9-]*", text.casefold()) if t not in _STOP]


def _same_word(a: str, b: str) -> bool:
    if any(c.isdigit() for c in a + b):
        return a == b  # identifiers: "CVE-2023-4966" is not "CVE-2024-24919"
    if a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b[:5]) or b.startswith(a[:5]))):
        return True
    return min(len(a), len(b)) >= 5 and fuzz.ratio(a, b) >= 85


def find_in(text: str, names: Sequence[str]) -> Resolution:
    """The stored name a whole message mentions, by its rarer words ("the runbook is done").

    Each word of a name found in the message counts 1/df (df: how many names hold it), so
    a word only one name has decides; two names scoring alike are ambiguous.
    """
    words = _tokens(text)
    if not words or not names:
        return Resolution(None)
    tokenized = {name: set(_tokens(name)) for name in names}
    frequency: dict[str, int] = {}
    for tokens in tokenized.values():
        for token in tokens:
            frequency[token] = frequency.get(token, 0) + 1
    said = set(words)
    scored = []
    for name, tokens in tokenized.items():
        score = sum(
            1.0 / frequency[token] for token in tokens if any(_same_word(token, w) for w in words)
        )
        # "checkpoint" for "Check Point", "netscaler" for "Net Scaler": two words of the name
        # written as one (matched exactly, never by prefix).
        parts = _tokens(name)
        score += sum(1.0 for a, b in zip(parts, parts[1:], strict=False) if a + b in said)
        if score > 0:
            scored.append((score, name))
    if not scored:
        return Resolution(None)
    scored.sort(key=lambda pair: -pair[0])
    best = scored[0][0]
    close = tuple(name for score, name in scored if score >= best * 0.8)
    if best < 0.99 and len(close) == 1 and best < 0.5:
        return Resolution(None)
    if len(close) > 1:
        return Resolution(None, close)
    return Resolution(scored[0][1])


def covered(mention: str, name: str) -> float:
    """The share of a mention's words that `name` holds ("VPN gateway" is all a project's)."""
    words = _tokens(mention)
    tokens = _tokens(name)
    if not words:
        return 0.0
    return sum(any(_same_word(w, t) for t in tokens) for w in words) / len(words)


_PLACEHOLDER = {"task": "the task", "project": "the project", "blocker": "the blocker"}


def masked(text: str, names: Names, kinds: Sequence[str] = ("task", "project", "blocker")) -> str:
    """The message with the stored names it mentions replaced by what they are.

    "wrap up the VPN login hunt" -> "wrap up the task": an intent is read from what the
    message asks, and a name's own words ("VPN", "logins", "review") would pull it towards
    a search or a document. The plans still read the message as written. Where two names
    claim the same words, the longer run wins ("phishing awareness" is the project, "the
    phishing drill" the task), unless the message says which ("the phishing project").
    """
    spans: list[tuple[int, int, str]] = []
    for kind in kinds:
        found = find_in(text, names.of(kind)).name
        if found is None:
            continue
        tokens = set(_tokens(found))
        words = list(re.finditer(r"[A-Za-z0-9][\w'-]*", text))
        marked = [
            any(_same_word(t, w.group(0).casefold()) for t in tokens)
            and w.group(0).casefold() not in _STOP
            for w in words
        ]
        index = 0
        while index < len(words):
            if not marked[index]:
                index += 1
                continue
            end = index
            probe = index + 1
            while probe < len(words) and (
                marked[probe] or words[probe].group(0).casefold() in _STOP
            ):
                if marked[probe]:
                    end = probe
                probe += 1
            spans.append((words[index].start(), words[end].end(), _PLACEHOLDER[kind]))
            index = end + 1
    if not spans:
        return text

    def claim(span: tuple[int, int, str]) -> tuple[bool, int]:
        # "the VPN project": the kind the message itself says next to the words wins, then
        # the longer run.
        kind = span[2].split()[-1]
        said = re.match(rf"\s*{kind}s?\b", text[span[1] :], re.I) is not None
        return (not said, span[0] - span[1])

    kept: list[tuple[int, int, str]] = []
    for start, end, placeholder in sorted(spans, key=claim):
        if not any(start < b and a < end for a, b, _ in kept):
            kept.append((start, end, placeholder))
    out, last = [], 0
    for start, end, placeholder in sorted(kept):
        out.append(text[last:start])
        out.append(placeholder)
        last = end
    out.append(text[last:])
    joined = " ".join("".join(out).split())
    joined = re.sub(r"\b(the|this|that|my|our)\s+the\b", r"\1", joined, flags=re.I)
    return re.sub(r"\b(task|project|blocker)\s+\1\b", r"\1", joined, flags=re.I)
