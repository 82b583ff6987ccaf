"""Word tables of the offline question gate and the term statistics (data, not logic)."""

from __future__ import annotations

_STOP_TEXT = """
a an the and or but not no nor of to in on at by for with from into onto over under about as
is are was were be been being am do does did doing done have has had having i me my we our
you your he him his she her it its they them their this that these those there here what
which who whom whose when where why how can could should would will shall may might must if
then than so such also just only very too any all some each other more most much many get
got one s t ll ve re d m don isn wasn aren please tell know anyone someone
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
"""Words that carry no topic: left out of the term statistics and of coverage."""

CHIT_CHAT = frozenset(
    {
        "hi", "hello", "hey", "yo", "hiya", "good morning", "good afternoon", "good evening",
        "good night", "thanks", "thank you", "thanks a lot", "thank you so much", "thx", "ty",
        "cheers", "ok", "okay", "ok thanks", "ok thank you", "k", "cool", "nice", "great",
        "awesome", "lol", "haha", "bye", "see you", "welcome", "got it", "sounds good",
        "how are you", "how is it going", "what's up", "whats up", "sup",
    }
)  # fmt: skip
"""Whole messages (case-folded, punctuation dropped) that are small talk."""

_QUESTION_TEXT = """
what what's whats which who who's whom whose when where where's why how how's is are was were
am do does did can could should would will shall may might must has have had isn't aren't
doesn't don't didn't can't won't
"""
QUESTION_WORDS = frozenset(_QUESTION_TEXT.split())
"""A message whose first word is one of these asks something."""

_REQUEST_TEXT = """
list name describe explain tell show define give compare summarize summarise identify find
help recommend suggest clarify outline
"""
REQUEST_VERBS = frozenset(_REQUEST_TEXT.split())
"""A message starting with one of these asks for information."""

_TASK_TEXT = """
accept add allow attach authenticate bind block build cache call cancel catch change close
combine compress configure connect convert create customize customise declare decompress define
delete deploy deprecate disable download enable encode encrypt expose extend fetch filter
forward generate get handle hash hide implement import include inject install integrate
intercept invalidate limit load log make mark measure migrate mock mount move nest open override
paginate parse persist protect proxy publish raise read receive redirect refresh register
reject reload remove rename render replace require reset restrict retry return reuse revoke
rotate route run save schedule secure send serialize serialise serve set share skip sort split
start stop store stream submit subscribe swap switch sync test throttle toggle transform
trigger turn update upgrade upload validate verify wire wrap write
"""
TASK_VERBS = frozenset(_TASK_TEXT.split())
"""A support message led by one of these names a task the reader wants done ("serve static
files from a folder", "set a cookie on the response"): a how-to request. Advice verbs a
reply would start with ("use", "try", "check", "see") are not here, nor are the words of a
report ("restarted", "fixed"): the past tense is not the base form."""
ADVICE_LEADS = ("make sure", "get rid", "set up your", "stop using")
"""Task-verb openings that give advice or vent rather than ask."""
LEADING_ADVERBS = frozenset({"only", "just", "simply", "also", "then", "and", "but"})
"""Words before a task verb that leave the task a task ("only change the fields sent")."""
NEGATED_ABILITY = frozenset({"can't", "cannot", "couldn't", "doesn't", "won't", "fails", "never"})
"""A failure stated ("the /docs page can't find openapi.json", "uvicorn won't start"): in a
support channel a report of what does not work asks how to make it work."""
NOT_A_FAILURE = frozenset(
    {"believe", "wait", "stand", "imagine", "mind", "care", "matter", "complain", "help", "happen"}
)
"""Verbs after a negation that state a feeling or a stance, not a failure ("I can't wait",
"it doesn't matter", "won't happen again"), at a line's start too. "won't" after "I", "we"
or "you" is a promise, not a failure ("I won't back down")."""
WORKING = frozenset({"works", "worked", "working"})
"""What works, then "but" and a failure (`FAILING`): a failure somewhere else ("works locally
but not with gunicorn"). "it works now but I had to restart" or "but thanks" says no failure."""
_FAILING_TEXT = """
not no never nothing only fail fails failed breaks broke broken crash crashes crashed drops
dropped hangs hung waits stuck error errors raises throws wrong missing empty
"""
FAILING = frozenset(_FAILING_TEXT.split()) | NEGATED_ABILITY
"""Words after "works ... but" that say what fails there (besides "n't" and a 4xx/5xx code)."""
_NEVER_TEXT = """
run runs fire fires called execute executes load loads work works start starts
finish finishes return returns reach reaches trigger triggers complete completes close closes
connect connects respond responds show shows appear appears end ends send sends save saves
update updates happen happens
"""
NEVER_DONE = frozenset(_NEVER_TEXT.split())
"""What should have happened, after "never": a failure ("the shutdown hook never runs"); "the
docs never lie" or "it never rains" is no report of one. "gets", "is" and the like count
before a participle ("never gets called"), not before "old"."""
NEVER_PASSIVE = frozenset({"get", "gets", "got", "is", "was", "been"})
_FEATURE_TEXT = """
auth authentication callback cookie dependency docs endpoint exception handler header login
middleware pagination param parameter permission popup proxy redirect request response route
router schema serializer session template token upload validator webhook websocket worker
"""
FEATURE_NOUNS = frozenset(_FEATURE_TEXT.split())
"""Kinds of parts of a web service. A message that names one, qualified ("custom exception
handler for my own error class", "browser login popup with http basic"), asks for it."""
_QUALIFIER_TEXT = (
    "with for in on from without via using behind per to into across between through as"
)
QUALIFIERS = frozenset(_QUALIFIER_TEXT.split())
"""Prepositions that join a named feature to what qualifies it."""
_STATEMENT_TEXT = """
i we you he she it they there is are was were am be been has have had do does did will would
can could should must may might isn't aren't wasn't weren't hasn't haven't don't doesn't didn't
won't wouldn't can't cannot couldn't shouldn't
"""
STATEMENT_WORDS = frozenset(_STATEMENT_TEXT.split())
"""A subject or a finite verb: a line holding one says something rather than names a thing."""
_LATER_QUESTION_TEXT = """
how what which where why when who can could should do does is are any
how's what's whats where's who's when's why's
"""
LATER_QUESTION_WORDS = frozenset(_LATER_QUESTION_TEXT.split())
"""A clause after a comma or a dash led by one of these asks ("my app gets blocked, how do I
allow it", "coming from rails - what's the way to ..."), contracted or not; "what a ..." is
an exclamation, not a question."""

REQUEST_PHRASES = (
    "i need",
    "i want to know",
    "i'd like to know",
    "i would like to know",
    "i'm looking for",
    "i am looking for",
    "i'm trying to",
    "i am trying to",
    "i wonder",
    "i was wondering",
    "any idea",
    "anyone know",
    "does anyone",
    "can someone",
    "is there a way",
)
"""Openings of requests for information."""

WISH_PHRASES = (
    "i want to",
    "i need to",
    "i'd like to",
    "i would like to",
    "we want to",
    "we need to",
    "we'd like to",
    "we would like to",
)
"""A wish for a task, anywhere in a line ("in tests I want to replace a dependency with a
fake one"): a how-to request when a verb and what it acts on follow."""
SOCIAL_VERBS = frozenset({"thank", "say", "apologize", "apologise", "mention", "welcome"})
"""Verbs after a wish that address people, not a task ("I want to thank everyone")."""

GREETING_TAILS = frozenset(
    {"there", "all", "everyone", "everybody", "folks", "guys", "team", "again"}
)
"""What may follow a greeting in a message that is only a greeting ("hi there")."""

_ABBREVIATIONS_TEXT = """
dr mr mrs ms st jr sr prof vs etc eg ie e.g i.e no nos fig figs approx dept est inc ltd co corp
gen col lt sgt capt gov sen rep rev mt ft ave blvd jan feb mar apr jun jul aug sep sept oct nov
dec u.s u.k
"""
ABBREVIATIONS = frozenset(_ABBREVIATIONS_TEXT.split())
"""Words after which a full stop does not end a sentence."""
