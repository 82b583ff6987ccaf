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
    r"(?:i\s+)?(?:hope|trust)\s+(?:you(?:['’]re|\s+are)|your\s+\w+\s+(?:is|are|has\s+been)|"
    r"all\s+is|this\s+finds\s+you|i\s+find\s+you|you\s+(?:had|have|are\s+having))\b"
    r"[^.!?;:]{0,40}" + ")"
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


_CALLED_BY_NAME = re.compile(
    r"^\s*(?:(?:hey|hi|hello|hiya|ok(?:ay)?|yo|oi|dear|so|right)[\s,]+)?(?:lectern|assistant)\b"
    r"\s*[,.!:;–—-]*\s+(?=\S+\s+\S)|[,\s]+(?:lectern|assistant)(?=\s*[.!?]*\s*$)",
    re.I,
)
"""The assistant called by its name, as one calls a voice assistant ("Hey Lectern, ...",
"..., Lectern"): an address, never the request's words or its book, however short the rest."""
_ASKS = re.compile(
    rf"^(?:please\s+)?(?:{_VERB}|what|who|which|(?:can|could|would|will)\s+(?:you|u))\b", re.I
)
"""What follows a greeting when it asks at once ("Hi, tell me about X"): the greeting is
then set aside however short the request."""


_NEWCOMER = re.compile(
    r"^(?:(?:it|this)(?:['’]s|\s+is)\s+my\s+(?:very\s+)?first\s+(?:visit|time|day|go)|"
    r"(?:i['’]m|i\s+am)\s+(?:new|a\s+new\s+\w+)(?:\s+(?:here|to\s+\w+(?:\s+\w+)?))?|"
    r"first\s+time\s+(?:here|using\s+\w+)|"
    r"(?:i\s+)?(?:(?:have|['’]ve)\s+)?just\s+(?:joined|signed\s+up|arrived|found\s+\w+))"
    r"[^.!?;:]{0,40}[.!;]*\s*$",
    re.I,
)
"""A reader saying they are new, and nothing more ("it is my first visit to this
establishment."): with a greeting before it, the message is the greeting."""


_PRAISE_ONLY = re.compile(
    r"^(?:(?:love|luv|mate|pet|hun|hon|dear|darling|sweetheart|petal|duck|pal)\s*[,.!]*\s*)?"
    r"(?:(?:you|u)(?:['’]?ve|['’]?re|\s+have|\s+are)\s+(?:been\s+)?|(?:that|this|it)"
    r"(?:['’]s|\s+(?:was|is|has\s+been))\s+)?(?:(?:ever\s+so|so|very|really|truly|such|a|an|"
    r"most|absolutely|incredibly|super|a\s+real|a\s+great|a\s+big)\s+)*"
    r"(?:patient|helpful|kind|great|brilliant|lovely|wonderful|star|gem|lifesaver|life\s*saver|"
    r"legend|diamond|angel|best|amazing|fab|fantastic|perfect|useful|marvellous|smashing|sweet|"
    r"good|help|treasure|darling)\b[^?]*$",
    re.I,
)
"""Thanks said with praise or an endearment only ("Thank you, love, you've been ever so
patient with me"): the whole message is the thanks, nothing after it is a request."""


_PLEASE_COMMA = re.compile(r"^\s*please\s*,\s*(?=[a-z])", re.I)
"""A "please" set off by a comma before the verb ("Please, cancel the list Prova")."""


def without_courtesy(text: str) -> str:
    """The message without the sentences of courtesy around what it says, "please" first."""
    text = _PLEASE_COMMA.sub("please ", _CALLED_BY_NAME.sub("", text))
    while (opening := _OPENING.match(text)) is not None:
        rest = text[opening.end() :]
        if _PRAISE_ONLY.match(rest) and not re.search(rf"\b{_VERB}\b", rest, re.I):
            break  # "Thanks, love, you've been ever so patient": the thanks is the message
        newcomer = _NEWCOMER.match(rest) or _NEWCOMER.match(_OPENING.sub("", rest))
        if newcomer and len(rest.split()) >= _LONG:
            return text[: opening.end()].strip()  # "Good evening. It is my first visit."
        if len(rest.split()) < _LONG and not (_ASKS.match(rest) and len(rest.split()) > 1):
            break
        text = rest
    closing = _CLOSING.search(text)
    if closing is not None and closing.start() > 0:
        text = text[: closing.start()]
    text = _SOFTENED_VERB.sub("", text)
    return _PLEASE_AFTER_VERB.sub(lambda m: f"please {m.group('verb')} ", text)
