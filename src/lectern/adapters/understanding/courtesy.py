"""Sentences of courtesy around a request: a greeting or thanks said as a sentence of its own.

Courteous writers open with "Good day.", "Hello dear.", "Thank you." or "Dear assistant," and
close with "Thank you kindly." or "Many thanks in advance."; some wish the reader well ("Hope
your day is going well."). Read with the request, the
opening sentence lends its words to it: "Thank you. Please add this book to my list X" took
"Thank" for the book, "Good day. I am searching for novels by German authors ..." searched for
"Good day". A sentence made only of courtesy is never the request, so it is set aside when
a long message says something after it; a short message is left whole ("Hi! First time using
this": the greeting is then part of what it says). A "please" said after the request's verb,
in the order of other languages ("Remove please Don Quijote from my list"), is said before it:
it had been the title's first word.
"""

from __future__ import annotations

import re

_ADDRESS = r"(?:\s+(?:there|dear|again|all|everyone|friend|assistant|lectern|my\s+dear))*"
_COURTESY = (
    r"(?:(?:hi|hello|hey|hiya|howdy|greetings|(?:good\s+)?(?:morning|afternoon|evening)|"
    r"good\s+day|quick\s+(?:one|question))" + _ADDRESS + "|"
    r"dear\s+(?:assistant|lectern|friend|sir|madam|sir\s+or\s+madam)|"
    r"(?:thank\s+you|thanks|many\s+thanks|thanks\s+a\s+lot|cheers)"
    r"(?:\s+(?:so\s+much|very\s+much|kindly|again|in\s+advance|a\s+lot|ever\s+so\s+much|dear))*"
    + _ADDRESS
    + "|"
    # a well-wish: "Hope your day is going well.", "I hope you're well!", "Hope all is good."
    r"(?:i\s+)?hope\s+(?:you(?:['’]re|\s+are)|your\s+\w+\s+(?:is|are|has\s+been)|all\s+is|"
    r"this\s+finds\s+you|you\s+(?:had|have|are\s+having))\b[^.!?;:]{0,40}" + ")"
)
_OPENING = re.compile(rf"^\s*{_COURTESY}\s*[.!,:;]+\s+(?=\S)", re.I)
"""A courtesy sentence that opens the message ("Good day. ", "Thank you! ")."""
_SIGN_OFF = (
    r"(?:(?:best|kind|warm|warmest)\s+(?:regards|wishes)|regards|best|all\s+the\s+best|"
    r"sincerely|yours(?:\s+(?:truly|sincerely))?|take\s+care|cheers)"
)
_NAME = r"(?-i:[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)?)"
_SIGNED = rf"(?:\s*[,.!]*\s*[-–—]?\s*{_NAME})"
"""The writer's name under a sign-off ("Thanks,\nMaureen", "Many thanks, Ruth")."""
_CLOSING = re.compile(
    rf"(?<=[.!?])\s+(?:{_COURTESY}{_SIGNED}?|{_SIGN_OFF}\s*[,!–—-]\s*{_NAME})\s*[.!]*\s*$",
    re.I,
)
"""A courtesy sentence that closes the message (". Thank you kindly.", "? Thanks, Maureen"),
or a letter's sign-off with the writer's name ("Best regards, Ruth"): never the book."""
_LONG = 6
"""The fewest words after a greeting for it to be set aside."""


_VERB = (
    r"(?:add|put|remove|take|delete|rename|rate|give|create|make|move|drop|show|find|"
    r"search|tell|mark|change|correct|fix)"
)
_PLEASE_AFTER_VERB = re.compile(rf"^(?P<verb>{_VERB})\s*,?\s+(?:please|kindly)\s*,?\s+(?=\S)", re.I)
"""A courtesy said between the request's verb and what it takes ("Add please X to Y")."""
_SOFTENED_VERB = re.compile(rf"(?:^|(?<=[.!?,;]\s))(?:just|simply)\s+(?={_VERB}\b)", re.I)
"""A softener before the request's verb ("... it was fine. just rate it 3"); "Just Kids",
a title, is followed by no verb."""


def without_courtesy(text: str) -> str:
    """The message without the sentences of courtesy around what it says, "please" first."""
    while (opening := _OPENING.match(text)) is not None:
        if len(text[opening.end() :].split()) < _LONG:
            break
        text = text[opening.end() :]
    closing = _CLOSING.search(text)
    if closing is not None and closing.start() > 0:
        text = text[: closing.start()]
    text = _SOFTENED_VERB.sub("", text)
    return _PLEASE_AFTER_VERB.sub(lambda m: f"please {m.group('verb')} ", text)
