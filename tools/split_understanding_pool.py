"""Split an understanding pool into a dev and a held-out test split by a seeded shuffle.

A pool (one JSON file per surface, the existing sets' shape) is written by a helper who has
not read the rules. Each surface's cases are sorted by id, shuffled with `random.Random(seed +
surface)`, grouped by kind (stable, so the shuffled order holds inside a kind) and dealt
alternately, so each half gets about half of every kind; the questions of one guideline
session are dealt as one. The first of the deal goes to the dev split. `--check` rebuilds the
pool from the two splits and confirms the same deal comes out.

The pools: pool-v2 (seed "pool-v2-2026-11-26", dev2 / test2, the default), pool-v4 (seed
"pool-v4-2026-11-27", dev4 / test3), pool-v5 (seed "pool-v5-2026-11-27", dev5 / test4, the
book assistant and the workspace only), pool-v6 (seed "pool-v6-2026-11-28", dev6 / test5,
the guideline chat and the KB reply only) pool-v7 (seed "pool-v7-2026-11-29", dev7 /
test6, the book assistant and the workspace only), pool-v8 (seed "pool-v8-2026-11-30", dev8 /
test7, all four surfaces), pool-v9 (seed "pool-v9-2026-12-01", dev9 / test8, the book
assistant and the workspace only) and pool-v10 (seed "pool-v10-2026-12-02", dev10 / test9, the
same two surfaces), pool-v11 (seed "pool-v11-2026-12-03", dev11 / test10, the same two) and
pool-v12 (seed "pool-v12-2026-12-04", dev12 / test11, the same two) and pool-v13 (seed
"pool-v13-2026-12-05", dev13 / test12, all four surfaces) and pool-v14 (seed
"pool-v14-2026-12-06", dev14 / test13, the book assistant and the workspace only) and
pool-v15 (seed "pool-v15-2026-12-07", dev15 / test14, the same two) and pool-v16 (seed
"pool-v16-2026-12-08", dev16 / test15, the same two) and pool-v17 (seed "pool-v17-2026-12-09",
dev17 / test16, the guideline chat and the KB reply only) and pool-v18 (seed
"pool-v18-2026-12-10", dev18 / test17, the book assistant and the workspace only) and pool-v19
(seed "pool-v19-2026-12-11", dev19 / test18, the same two) and pool-v20 (seed
"pool-v20-2026-12-12", dev20 / test19, all four surfaces) and pool-v21 (seed
"pool-v21-2026-12-13", dev21 / test20, all four surfaces);
`--seed` and `--splits` override a pool's.

Usage: python tools/split_understanding_pool.py [--pool pool-v7] POOL_DIR
       python tools/split_understanding_pool.py [--pool pool-v7] --check
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SURFACES = ("workspace", "assistant", "guideline", "kb")
SETS = Path(__file__).resolve().parent.parent / "src/lectern/evaluation/understanding"
WRITTEN_BY = (
    "Written for issue 26 by a helper engineer who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of "
    "docs/assistant.md, not the earlier sets' requests): requests as people write them "
    "(terse, polite, indirect, questions and commands, typos, compound, context-dependent "
    "'this one' / 'it' with a page context) and requests whose right reply is a clarifying "
    "question. Every expectation is what a careful reader judges right from the words and the "
    "data: the seeded demo workspace, titles checked in the book catalog sources, guideline "
    "answers read in NIST SP 800-63 and the RFCs (page = form-feed page), KB answers in the "
    "FastAPI docs. expect_clarify: one clarifying question back, no action, state unchanged. "
    "expect_intent: greeting, thanks, capabilities or off_topic, no tool. One pool (origin "
    "pool-v2), split per surface by tools/split_understanding_pool.py (seeded shuffle, dealt "
    "by kind). "
)
WRITTEN_BY_V4 = (
    "Written for issue 26 by a helper engineer who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of "
    "docs/assistant.md, not the requests of dev, test, dev2, test2 or dev3): a fourth pool of "
    "requests as people write them (terse, polite, indirect, questions that are really "
    "commands, slang such as 'chuck it on my list', typos and lower case, British spellings, "
    "non-native English, chatty preambles, compound requests of two or three actions in the "
    "order asked, context-dependent 'this' / 'it' with a book, task or project page or an "
    "earlier turn) and requests whose right reply is a clarifying question (nothing named, a "
    "name matching two books, lists or tasks, a person or task not in the workspace, a change "
    "without its value, an ambiguous date). Every expectation is what a careful reader judges "
    "right from the words and the data: book titles, authors, languages and years checked in "
    "the catalog sources (corrections only where the catalog's value differs from the one "
    "stated); the seeded demo workspace (alice owner, bob member, vera viewer; user alice "
    "unless a turn says otherwise; cases with a 'today' key assume 2026-11-02, a Monday); "
    "guideline answers read in NIST SP 800-63-3 and the RFCs (RFC page = form-feed page); KB "
    "answers in the FastAPI docs. expect_clarify: one clarifying question back, no action, "
    "nothing changed. expect_intent: greeting, thanks, capabilities or off_topic, no tool. One "
    "pool (origin pool-v4), split per surface by tools/split_understanding_pool.py --pool "
    "pool-v4 (seed pool-v4-2026-11-27, dealt by kind). "
)
WRITTEN_BY_V5 = (
    "Written for issue 26 by a helper engineer who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of docs/assistant.md, "
    "not the requests of any earlier set; dev4's files opened only for the JSON shape of a few "
    "cases and the titles of the linked documents): a fifth pool, of book assistant and workspace "
    "requests only, as different people write them (a hurried manager, a non-native speaker, "
    "someone chatty, someone terse; polite, indirect, questions that are really commands, typos "
    "and lower case, British spellings, compound requests of two or three actions in the order "
    "asked, context-dependent 'this' / 'it' with a book, task, project or document page or an "
    "earlier turn) and requests whose right reply is a clarifying question (nothing named, a "
    "description matching two books or lists, a person not in the workspace, a change without its "
    "value, a vague date). Every expectation is what a careful reader judges right from the words "
    "and the data: book titles checked in the catalog sources (corrections only where the "
    "catalog's value differs from the one stated); the seeded demo workspace (alice owner, bob "
    "member, vera viewer; user alice unless a turn says otherwise; cases with a 'today' key assume "
    "2026-11-02, a Monday, and only those depend on the date). expect_clarify: one clarifying "
    "question back, no action, nothing changed. expect_intent: greeting, thanks, capabilities or "
    "off_topic, no tool. One pool (origin pool-v5), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v5 (seed pool-v5-2026-11-27, dealt by kind). "
)
WRITTEN_BY_V6 = (
    "Written for issue 26 by a helper engineer who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of docs/assistant.md, "
    "not the requests of any earlier set; dev4's files opened only for the JSON shape of their "
    "first two cases, the distinct kinds and profiles and the expected labels): a sixth pool, of "
    "guideline chat and KB reply questions only, as different people write them (terse, lower "
    "case, typos, chatty preambles, British spellings, indirect 'our auditor says...' / 'is it ok "
    "if we...', non-native English, everyday words rather than the documents' own), questions "
    "the sources do not answer (to be refused), off-scope requests and prompt-injection attempts "
    "(to be refused), and two-turn guideline sessions whose follow-up leans on the first turn. "
    "Every expectation is what a careful reader judges right from the sources: guideline answers "
    "read in NIST SP 800-63-3 (63A, 63B, 63C; label = the section whose text states the numbers) "
    "and the RFCs (page = form-feed page; expect_numbers are literal in every cited section or "
    "page), unanswerable ones checked by searching the sources; KB answers in the FastAPI docs "
    "(sources are the pages that answer), unanswerable ones (other frameworks, or topics the docs "
    "do not cover) checked by searching the docs. One pool (origin pool-v6), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v6 (seed pool-v6-2026-11-28, dealt by kind; a "
    "session dealt whole). "
)
WRITTEN_BY_V7 = (
    "Written for issue 26 by a helper engineer who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of docs/assistant.md, "
    "not the requests of any earlier set; dev5's files opened only for the JSON shape of their "
    "first three cases and the kinds): a seventh pool, of book assistant and workspace requests "
    "only, as different people write them (terse, polite, indirect, questions that are really "
    "commands, slang and idiom, typos and lower case, British spellings, non-native English, "
    "chatty preambles and long messages with the request in the middle, people by display name, "
    "titles with 'and' or punctuation, compound requests of two or three actions in the order "
    "asked, context-dependent 'this' / 'it' with a book, task, project or document page or an "
    "earlier turn) and requests whose right reply is a clarifying question (nothing named, a "
    "description matching two books, lists or tasks, a person, project or task not in the "
    "workspace, a change without its value, a vague date, a 'this' with no page). Every "
    "expectation is what a careful reader judges right from the words and the data: book titles "
    "checked in the catalog sources (corrections only where the catalog's value differs from the "
    "one stated); the seeded demo workspace (alice owner, bob member, vera viewer; user alice "
    "unless a turn says otherwise; cases with a 'today' key assume 2026-11-02, a Monday, and only "
    "those depend on the date). expect_clarify: one clarifying question back, no action, nothing "
    "changed. expect_intent: greeting, thanks, capabilities or off_topic, no tool. One pool "
    "(origin pool-v7), split per surface by tools/split_understanding_pool.py --pool pool-v7 "
    "(seed pool-v7-2026-11-29, dealt by kind). "
)
WRITTEN_BY_V8 = (
    "Written for issue 26 by two helper engineers who had not read the rules (nothing under "
    "adapters/understanding, adapters/llm or application/assistant beyond the tools' names and "
    "arguments, not the understanding section of docs/assistant.md, not the requests of any "
    "earlier set; dev6's and dev7's files opened only for the JSON shape of their first cases "
    "and the kinds): an eighth pool over all four surfaces, as a dozen different people write "
    "(terse, polite, indirect, questions that are really commands, slang, typos and lower case, "
    "British spellings, non-native English, chatty preambles with the request in the middle, "
    "everyday words rather than the documents' own, people by display name, misspelt titles, "
    "compound requests in the order asked, context-dependent 'this' / 'it' with a page or an "
    "earlier turn), requests whose right reply is a clarifying question, guideline and KB "
    "questions the sources do not answer, off-scope requests and prompt-injection attempts (to "
    "be refused), and two-turn guideline sessions. Every expectation is what a careful reader "
    "judges right from the words and the data: book titles checked in the catalog sources, the "
    "seeded demo workspace (alice owner, bob member, vera viewer; cases with a 'today' key "
    "assume 2026-11-02, a Monday, and only those depend on the date), guideline answers read in "
    "NIST SP 800-63-3 and the RFCs (page = form-feed page; expect_numbers literal in every cited "
    "section or page), KB answers in the FastAPI docs, unanswerable ones checked by searching "
    "the sources. One pool (origin pool-v8), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v8 (seed pool-v8-2026-11-30, dealt by kind; "
    "a session dealt whole). "
)
WRITTEN_BY_V9 = (
    "Written for issue 26 by two helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of docs/assistant.md, "
    "not the requests of any earlier set; dev8's files opened only for the JSON shape of their "
    "first cases and the kinds; the tools' names and arguments, the scorer and the seeded demo "
    "workspace read for the shape and the names): a ninth pool, of book assistant and workspace "
    "requests only, as a dozen different people write (terse, polite, indirect, questions that "
    "are really commands, slang and idiom, typos and lower case, British spellings, non-native "
    "English, chatty preambles with the request in the middle, misspelt titles and authors, "
    "titles with 'and', '&' and subtitles, numbers as words, people by display or first name, "
    "tasks named by part of their title or what they are about, statuses and dates in everyday "
    "words, compound requests of two or three actions in the order asked, context-dependent "
    "'this' / 'it' with a page or an earlier turn) and requests whose right reply is a "
    "clarifying question. Every expectation is what a careful reader judges right from the words "
    "and the data: book titles checked in the catalog sources and spelt as they spell them "
    "(corrections only where the stored value differs from the one stated), the seeded demo "
    "workspace (alice owner, bob member, vera viewer; cases with a 'today' key assume "
    "2026-11-02, a Monday, and only those depend on the date). expect_clarify: one clarifying "
    "question back, no action, nothing changed. expect_intent: greeting, thanks, capabilities or "
    "off_topic, no tool. One pool (origin pool-v9), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v9 (seed pool-v9-2026-12-01, dealt by kind). "
)
WRITTEN_BY_V10 = (
    "Written for issue 26 by two helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not the understanding section of docs/assistant.md, "
    "not the requests of any earlier set; dev9's files opened only for the JSON shape of their "
    "first cases and the kinds; the tools' names and arguments, the scorer and the seeded demo "
    "workspace read for the shape and the names): a tenth pool, of book assistant and workspace "
    "requests only, as people unlike the earlier pools' write (a retired teacher's long formal "
    "sentences, a teenager's lower case and abbreviations, a parent dictating by voice without "
    "punctuation, non-native English, a librarian's precise terms, sarcasm, a change of mind "
    "mid-message, emoji; a security lead dictating run-on updates, a junior analyst's hedging, "
    "ticket-system jargon, the request after a long status update, tasks named by what they are "
    "about, people by display name), with compound requests of two or three actions, "
    "context-dependent 'this' / 'it', and requests whose right reply is a clarifying question. "
    "Every expectation is what a careful reader judges right from the words and the data: book "
    "titles checked in the catalog sources and spelt as they spell them, the seeded demo "
    "workspace with documents titled as the shared KEV and ATT&CK records title them (alice "
    "owner, bob member, vera viewer; cases with a 'today' key assume 2026-11-02, a Monday, and "
    "only those depend on the date). expect_clarify: one clarifying question back, no action, "
    "nothing changed. expect_intent: greeting, thanks, capabilities or off_topic, no tool. One "
    "pool (origin pool-v10), split per surface by tools/split_understanding_pool.py --pool "
    "pool-v10 (seed pool-v10-2026-12-02, dealt by kind). "
)
WRITTEN_BY_V11 = (
    "Written for issue 26 by two helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md, not the requests of any "
    "earlier set; dev10's files opened only for the JSON shape of their first three cases and "
    "the kinds; the tools' names and arguments, the scorer, the loaders, the pool checks and "
    "the seeded demo workspace read for the shape and the names): an eleventh pool, of book "
    "assistant and workspace requests only, as a broad mix of ordinary users rather than "
    "stylised test writing (about half plain everyday requests as a first-time user types them; "
    "the rest phone typing with autocorrect slips, long context before the request, requests "
    "asked as questions, the product's words used loosely ('bookmark', 'folder', 'ticket', "
    "'card'), non-native English, references to the page or an earlier turn, changes of mind "
    "mid-sentence), with compound requests of two or three actions and requests whose right "
    "reply is a clarifying question. Every expectation is what a careful reader judges right "
    "from the words and the data: book titles checked in the catalog sources and spelt as they "
    "spell them, the seeded demo workspace with documents titled as the shared KEV and ATT&CK "
    "records title them (alice owner, bob member, vera viewer; cases with a 'today' key assume "
    "2026-11-02, a Monday, and only those depend on the date). expect_clarify: one clarifying "
    "question back, no action, nothing changed. expect_intent: greeting, thanks, capabilities "
    "or off_topic, no tool. One pool (origin pool-v11), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v11 (seed pool-v11-2026-12-03, dealt by "
    "kind). "
)
WRITTEN_BY_V12 = (
    "Written for issue 26 by two helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md, not the unit tests of the "
    "rules, not the requests of any earlier set; dev11's files opened only for the JSON shape "
    "of their first three cases and the kinds; the tools' names and arguments, the scorer, the "
    "loaders, the pool checks and the seeded demo workspace read for the shape and the names): "
    "a twelfth pool, of book assistant and workspace requests only, as ordinary people type "
    "into a chat box in their first days with the product (about half plain everyday requests; "
    "the rest spread over things named loosely (a partial or lower-case title, a common "
    "misspelling, 'the X book', an author for an unambiguous title), follow-ups leaning on an "
    "earlier turn or the page, requests asked as questions or wishes, two or three actions in "
    "one message including lists of things, short lower-case typing with a typo or two, and "
    "context first with the request last), and requests whose right reply is a clarifying "
    "question. Every expectation is what a careful reader judges right from the words and the "
    "data: book titles checked in the catalog sources and spelt as they spell them, the seeded "
    "demo workspace with documents titled as the shared KEV and ATT&CK records title them "
    "(alice owner, bob member, vera viewer; cases with a 'today' key assume 2026-11-02, a "
    "Monday, and only those depend on the date). expect_clarify: one clarifying question back, "
    "no action, nothing changed. expect_intent: greeting, thanks, capabilities or off_topic, no "
    "tool. One pool (origin pool-v12), split per surface by tools/split_understanding_pool.py "
    "--pool pool-v12 (seed pool-v12-2026-12-04, dealt by kind). "
)
WRITTEN_BY_V13 = (
    "Written for issue 26 by three helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md or docs/guidelines.md, not "
    "the unit tests of the rules, not the requests of any earlier set; dev12's (dev8's for the "
    "guideline chat and the KB reply) files opened only for the JSON shape of their first three "
    "cases; the tools' names and arguments, the scorer, the loaders, the pool checks, the "
    "seeded demo workspace and the shared data read for the shape, the names and the answers): "
    "a thirteenth pool, of all four surfaces, as ordinary people write at a chat box, several "
    "kinds of writer mixed (a hurried regular who has used the product for a month: terse, lower "
    "case, shorthand, 'same for X'; a polite newcomer with context first and the request last; "
    "a non-native English speaker; someone dictating by voice, without punctuation and with "
    "numbers as words; someone leaning on what was just shown or the page), with the typos "
    "people make, requests asked as questions or wishes, two or three actions in one message, "
    "and requests whose right reply is a clarifying question; guideline questions in the "
    "asker's own words and jargon on NIST SP 800-63-3 and the RFCs, KB questions from people "
    "stuck with FastAPI. Every expectation is what a careful reader judges right from the words "
    "and the data: book titles checked in the catalog sources and spelt as they spell them, the "
    "seeded demo workspace (alice owner, bob member, vera viewer; cases with a 'today' key "
    "assume 2026-11-02, a Monday, and only those depend on the date), every guideline number "
    "read in the cited section or page, every KB source a page of the FastAPI docs. "
    "expect_clarify: one clarifying question back, no action, nothing changed. expect_intent: "
    "greeting, thanks, capabilities or off_topic, no tool. One pool (origin pool-v13), split per "
    "surface by tools/split_understanding_pool.py --pool pool-v13 (seed pool-v13-2026-12-05, "
    "dealt by kind). "
)
WRITTEN_BY_V14 = (
    "Written for issue 26 by four helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md or docs/guidelines.md, not "
    "the unit tests of the rules, not the requests of any earlier set; dev13's files opened "
    "only for the JSON shape of their first three cases; the tools' names and arguments, the "
    "scorer, the loaders, the pool checks, the seeded demo workspace and the shared data read "
    "for the shape, the names and the answers), two per surface, each half of a surface from "
    "one writer: a fourteenth pool, of the book assistant and the workspace only, as people "
    "unlike the earlier pools' writers type at a chat box (book: a retired schoolteacher with "
    "the request buried mid-message, a teenager on a phone, someone misremembering titles, a "
    "busy parent in fragments, a Spanish speaker, a book-club organiser using list nicknames "
    "and earlier turns, a terse librarian, someone changing their mind mid-message, a German "
    "speaker, voice dictation; workspace: a night-shift SOC analyst, a project manager, an "
    "unsure intern asking permission, a French speaker, loose paraphrases of task titles, a "
    "team lead on a phone, a formal compliance officer, someone leaning on the page, an "
    "Indian English speaker, someone reporting facts to be recorded). Every expectation is what "
    "a careful reader judges right from the words and the data: book titles checked in the "
    "catalog sources and spelt as they spell them, the seeded demo workspace (alice owner, bob "
    "member, vera viewer; cases with a 'today' key assume 2026-11-02, a Monday, and only those "
    "depend on the date). expect_clarify: one clarifying question back, no action, nothing "
    "changed. expect_intent: greeting, thanks, capabilities or off_topic, no tool. One pool "
    "(origin pool-v14), split per surface by tools/split_understanding_pool.py --pool pool-v14 "
    "(seed pool-v14-2026-12-06, dealt by kind). "
)
WRITTEN_BY_V15 = (
    "Written for issue 26 by four helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md or docs/guidelines.md, not "
    "the unit tests of the rules, not the requests of any earlier set; dev13's files opened "
    "only for the JSON shape of their first three cases; the tools' names and arguments, the "
    "scorer, the loaders, the pool checks, the seeded demo workspace and the shared data read "
    "for the shape, the names and the answers), two per surface, each half of a surface from "
    "one writer: a fifteenth pool, of the book assistant and the workspace only, as people "
    "unlike the earlier pools' writers type at a chat box (book: a grandparent dictating to a "
    "grandchild, someone writing like an email, a reader naming authors by surname or "
    "nickname, a Dutch speaker, someone asking everything as a question, a student with a "
    "class's context, emoji and abbreviations, books named by plot or character, a Portuguese "
    "speaker, long run-on messages, reasons before the request, a librarian asking for a "
    "patron, all caps or no punctuation, a correction in the next turn; workspace: a CISO's "
    "clipped directives, a new hire's everyday words for security things, a Portuguese "
    "speaker, the passive voice, Slack shorthand and @mentions, a status report with a request "
    "in it, a manager delegating by outcome, a contractor naming things by vendor, a junior "
    "over-explaining, permission-style questions that are commands, a German speaker, someone "
    "working from the page, casual questions about the state of work). Every expectation is "
    "what a careful reader judges right from the words and the data: book titles checked in "
    "the catalog sources and spelt as they spell them, the seeded demo workspace (alice owner, "
    "bob member, vera viewer; cases with a 'today' key assume 2026-11-02, a Monday, and only "
    "those depend on the date). expect_clarify: one clarifying question back, no action, "
    "nothing changed. expect_intent: greeting, thanks, capabilities or off_topic, no tool. One "
    "pool (origin pool-v15), split per surface by tools/split_understanding_pool.py --pool "
    "pool-v15 (seed pool-v15-2026-12-07, dealt by kind). "
)
WRITTEN_BY_V16 = (
    "Written for issue 26 by four helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md or docs/guidelines.md, not "
    "the unit tests of the rules, not the requests of any earlier set; dev13's files opened "
    "only for the JSON shape of their first three cases; the tools' names and arguments, the "
    "scorer, the loaders, the pool checks, the seeded demo workspace and the shared data read "
    "for the shape, the names and the answers), two per surface, each half of a surface from "
    "one writer: a sixteenth pool, of the book assistant and the workspace only, as people "
    "unlike the earlier pools' writers type at a chat box (book: a teenager texting, "
    "speech-to-text with misheard words, a French speaker, a reader unsure of the title, a "
    "book-club organiser giving several instructions, ratings said as feelings, replies to what "
    "was just shown, a retired professor's digressions, an Italian speaker, a parent with a "
    "list per child, books named by their place in a series, 'Hey Lectern' voice-assistant "
    "habits, hedging, asking then acting in the next turn, impatient users; workspace: an "
    "incident responder mid-incident, an auditor's compliance vocabulary, a Spanish speaker, a "
    "project manager's agile jargon, forwarded e-mails, asking the state before a change, a "
    "hedging intern, a voice-note transcript, a French speaker, a pasted alert or log line "
    "with a request, a manager wrapping up the day, teammates spoken of in the third person, "
    "someone working from the page). Every expectation is what a careful reader judges right "
    "from the words and the data: book titles checked in the catalog sources and spelt as they "
    "spell them, the seeded demo workspace (alice owner, bob member, vera viewer; cases with a "
    "'today' key assume 2026-11-02, a Monday, and only those depend on the date). "
    "expect_clarify: one clarifying question back, no action, nothing changed. expect_intent: "
    "greeting, thanks, capabilities or off_topic, no tool. One pool (origin pool-v16), split "
    "per surface by tools/split_understanding_pool.py --pool pool-v16 (seed "
    "pool-v16-2026-12-08, dealt by kind). "
)
WRITTEN_BY_V21 = (
    "Written for issue 26 by five helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, no guideline or KB answering code, not "
    "docs/assistant.md or docs/guidelines.md, not the unit tests of the rules, not the requests "
    "of any earlier set; dev13's files opened only for the JSON shape of their first three "
    "entries; the tools' names and arguments, the scorer, the loaders, the pool checks, the "
    "seeded demo workspace and the shared data read for the shape, the names and the "
    "answers), two per surface for the book assistant and the workspace and one for the "
    "guideline chat and the KB reply: a twenty-first pool, of all four surfaces (book: a "
    "dyslexic reader, a father choosing bedtime books, Hindi-English mixed, run-on sentences "
    "with asides, a reader annoyed after a wrong reply, a student cramming set texts, Goodreads "
    "shelves and half stars, a German speaker's word order, a voice transcript without "
    "punctuation, hashtags, a retired teacher's indirect requests, a teenager's abbreviations, "
    "books named by half-remembered plots, lists named by position; workspace: an SRE on call "
    "in fragments, a French and a Korean speaker, a manager on a phone, a new contractor, "
    "Slack pastes with @mentions and emoji, references back to a listing, requests about "
    "several things at once, an executive's one-liners, a meticulous QA lead, sarcasm, sprint "
    "jargon, dictation, a viewer trying what she may not do, a member asking what he may do, "
    "dates said every way; guideline: an auditor quoting clauses half-remembered, a founder in "
    "a hurry, a compliance officer, a thesis student, a support engineer pasting complaints, a "
    "Portuguese speaker, a sysadmin in fragments; KB: a Flask developer migrating, a beginner "
    "confusing terms, pasted logs and stack traces, 'is it possible to ...', what FastAPI does "
    "not do). Every expectation is what a careful reader judges right from the words and the "
    "data: book titles checked in the catalog sources, the seeded demo workspace (alice owner, "
    "bob member, vera viewer; cases with a 'today' key assume 2026-11-02, a Monday, and only "
    "those depend on the date), guideline answers read in NIST SP 800-63-3 / 63A / 63B / 63C "
    "and the RFCs (every expected number is in each accepted section or page, as the text "
    "writes it; page = form-feed page), KB answers in the FastAPI docs. expect_clarify: one "
    "clarifying question back, no action, nothing changed. expect_intent: greeting, thanks, "
    "capabilities or off_topic, no tool. A guideline question with no accepted label, and a "
    "KB question not answerable, expects a refusal. One pool (origin pool-v21), split per "
    "surface by tools/split_understanding_pool.py --pool pool-v21 (seed pool-v21-2026-12-13, "
    "dealt by kind; a guideline session stays whole). "
)
WRITTEN_BY_V20 = (
    "Written for issue 26 by six helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, no guideline or KB answering code, not "
    "docs/assistant.md or docs/guidelines.md, not the unit tests of the rules, not the requests "
    "of any earlier set; dev13's files opened only for the JSON shape of their first three "
    "entries; the tools' names and arguments, the scorer, the loaders, the pool checks, the "
    "seeded demo workspace and the shared data read for the shape, the names and the "
    "answers), two per surface for the book assistant and the workspace (each half of a "
    "surface from one writer) and one each for the guideline chat and the KB reply: a "
    "twentieth pool, of all four surfaces (book: a night-shift nurse typing one-handed, a "
    "retired engineer's formal paragraphs, a teenager's slang, a Polish speaker, books named "
    "by their film or plot, a book-club treasurer, rhetorical questions, minds changed "
    "mid-message, ratings in words, a librarian's displays, speech-to-text homophones, a "
    "Nigerian English speaker, a grandparent choosing by age, emoji, bullet points, two-word "
    "commands, questions that are requests, pointers at what was just shown; workspace: an "
    "analyst mid-incident in fragments, a project manager's e-mails, a Spanish and a Japanese "
    "speaker, a junior asking permission, a lead delegating several things, pasted chat "
    "threads, dates said many ways, status asked then changed, sarcasm, a viewer trying what "
    "she may not do, an auditor, Jira and Kanban jargon, autocorrect, tasks named by "
    "description, follow-ups after a listing, conditions, dictation, people named by role; "
    "guideline: a CTO before an audit, a mobile developer, QA, a product manager, "
    "half-remembered terms, numbers stated and asked whether enough; KB: a Django developer, "
    "a data scientist, pasted tracebacks, DevOps, CORS and auth trouble, terse commands, "
    "problems stated without a question). Every expectation is what a careful reader judges "
    "right from the words and the data: book titles checked in the catalog sources, the "
    "seeded demo workspace (alice owner, bob member, vera viewer; cases with a 'today' key "
    "assume 2026-11-02, a Monday, and only those depend on the date), guideline answers read "
    "in NIST SP 800-63-3 / 63A / 63B / 63C and the RFCs (every expected number is in each "
    "accepted section or page, as the text writes it; page = form-feed page), KB answers in "
    "the FastAPI docs. expect_clarify: one clarifying question back, no action, nothing "
    "changed. expect_intent: greeting, thanks, capabilities or off_topic, no tool. A "
    "guideline question with no accepted label, and a KB question not answerable, expects a "
    "refusal. One pool (origin pool-v20), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v20 (seed pool-v20-2026-12-12, dealt by "
    "kind; a guideline session stays whole). "
)
WRITTEN_BY_V19 = (
    "Written for issue 26 by four helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md or docs/guidelines.md, not "
    "the unit tests of the rules, not the requests of any earlier set; dev13's files opened "
    "only for the JSON shape of their first three cases; the tools' names and arguments, the "
    "scorer, the loaders, the pool checks, the seeded demo workspace and the shared data read "
    "for the shape, the names and the answers), two per surface, each half of a surface from "
    "one writer: a nineteenth pool, of the book assistant and the workspace only, as people "
    "unlike the earlier pools' writers type at a chat box (book: a retiree dictating by voice, "
    "a teenager texting, a teacher's class lists, a roundabout polite writer, requests buried "
    "in small talk, books named by series position, character or plot, other words for a "
    "list, corrections and conditions, a French and an Indian English speaker, capitals, a "
    "book-club organiser's paragraphs, a parent's typos, corrections of the assistant's last "
    "reply, ratings in words and emoji, questions that are requests; workspace: an ops lead's "
    "ticket words, stand-up notes, CVE ids and log lines around a request, French and Hindi "
    "speakers, voice dictation, emoji and one-word follow-ups, bulk reassignments, status asked "
    "many ways, a manager's passive voice, questions that imply actions, a new hire mixing up "
    "names, conditions, dates said many ways, frustration and sarcasm, reversals, people named "
    "by role or display name). Every expectation is what a careful reader judges right from "
    "the words and the data: book titles checked in the catalog sources and spelt as they "
    "spell them, the seeded demo workspace (alice owner, bob member, vera viewer; cases with a "
    "'today' key assume 2026-11-02, a Monday, and only those depend on the date). "
    "expect_clarify: one clarifying question back, no action, nothing changed. expect_intent: "
    "greeting, thanks, capabilities or off_topic, no tool. One pool (origin pool-v19), split "
    "per surface by tools/split_understanding_pool.py --pool pool-v19 (seed "
    "pool-v19-2026-12-11, dealt by kind). "
)
WRITTEN_BY_V18 = (
    "Written for issue 26 by four helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, not docs/assistant.md or docs/guidelines.md, not "
    "the unit tests of the rules, not the requests of any earlier set; dev13's files opened "
    "only for the JSON shape of their first three cases; the tools' names and arguments, the "
    "scorer, the loaders, the pool checks, the seeded demo workspace and the shared data read "
    "for the shape, the names and the answers), two per surface, each half of a surface from "
    "one writer: an eighteenth pool, of the book assistant and the workspace only, as people "
    "unlike the earlier pools' writers type at a chat box (book: a grandmother dictating with "
    "preambles, a librarian's catalogue words, a student's autocorrect, books named by their "
    "film or their hero, a German speaker, a gift buyer, corrections of the assistant's last "
    "turn, one- and two-word messages, yes/no questions that are look-ups, a book-club host's "
    "numbered instructions, books named by their author, ratings on other scales, a Spanish "
    "speaker, British slang, capitals and no punctuation, chat commands, a tired parent, a "
    "mind changed mid-message; workspace: an SRE on call in shorthand, a compliance officer, a "
    "German speaker, a CISO's summaries, a pasted Slack thread, a new employee unsure of the "
    "names, Jira phrases, teammates in the third person, the page's 'this', a driver "
    "dictating, a Portuguese speaker, todo.txt shorthand, markdown bullets, a manager "
    "delegating, questions that are commands, e-mails with signatures, heavy typos, "
    "follow-ups after a listing, asking the state and changing it in one message). Every "
    "expectation is what a careful reader judges right from the words and the data: book "
    "titles checked in the catalog sources and spelt as they spell them, the seeded demo "
    "workspace (alice owner, bob member, vera viewer; cases with a 'today' key assume "
    "2026-11-02, a Monday, and only those depend on the date). expect_clarify: one clarifying "
    "question back, no action, nothing changed. expect_intent: greeting, thanks, capabilities "
    "or off_topic, no tool. One pool (origin pool-v18), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v18 (seed pool-v18-2026-12-10, dealt by "
    "kind). "
)
WRITTEN_BY_V17 = (
    "Written for issue 26 by two helper engineers who had not read the rules (nothing under "
    "adapters/understanding or adapters/llm, no guideline or KB answering code, not "
    "docs/assistant.md or docs/guidelines.md, not the unit tests of the rules, not the "
    "questions of any earlier set; dev13's files opened only for the JSON shape of their "
    "first three entries; the scorer, the loaders, the pool checks and the shared documents "
    "read for the shape and the answers), one per surface: a seventeenth pool, of the "
    "guideline chat and the KB reply only, as people who are not the documents' authors ask "
    "(a developer in a hurry, a product manager, a support engineer pasting a customer's "
    "words, a non-native speaker, half-remembered terms, numbers asked in everyday words, "
    "follow-ups in a session; forum posts with pasted errors). Guideline answers read in NIST "
    "SP 800-63-3 / 63A / 63B / 63C and the RFCs (every expected number is in each accepted "
    "section or page, as the text writes it; page = form-feed page); KB answers are pages of "
    "the FastAPI docs. A guideline question with no accepted label, and a KB question not "
    "answerable, expects a refusal. One pool (origin pool-v17), split per surface by "
    "tools/split_understanding_pool.py --pool pool-v17 (seed pool-v17-2026-12-09, dealt by "
    "kind; a guideline session stays whole). "
)
ABOUT = {
    "dev2": WRITTEN_BY + "This is DEV2: tune on it. TEST2 (../test2) is held out: run it once, "
    "at the end of the work on issue 26.",
    "test2": WRITTEN_BY + "This is TEST2, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of the work on issue 26, and report that run.",
    "dev4": WRITTEN_BY_V4 + "This is DEV4: tune on it. TEST3 (../test3) is held out: run it "
    "once, at the end of the work on issue 26.",
    "test3": WRITTEN_BY_V4 + "This is TEST3, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of the work on issue 26, and report that run.",
    "dev5": WRITTEN_BY_V5 + "This is DEV5: tune on it. TEST4 (../test4) is held out: run it "
    "once, at the end of the next pass on issue 26.",
    "test4": WRITTEN_BY_V5 + "This is TEST4, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of the next pass on issue 26, and report that run.",
    "dev6": WRITTEN_BY_V6 + "This is DEV6: tune on it. TEST5 (../test5) is held out: run it "
    "once, at the end of issue 26.",
    "test5": WRITTEN_BY_V6 + "This is TEST5, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of issue 26, and report that run.",
    "dev7": WRITTEN_BY_V7 + "This is DEV7: tune on it. TEST6 (../test6) is held out: run it "
    "once, at the end of this pass on issue 26.",
    "test6": WRITTEN_BY_V7 + "This is TEST6, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of this pass on issue 26, and report that run.",
    "dev8": WRITTEN_BY_V8 + "This is DEV8: tune on it. TEST7 (../test7) is held out: run it "
    "once, at the end of this pass on issue 26.",
    "dev9": WRITTEN_BY_V9 + "This is DEV9: tune on it. TEST8 (../test8) is held out: run it "
    "once, at the end of this pass on issue 26.",
    "test8": WRITTEN_BY_V9 + "This is TEST8, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of this pass on issue 26, and report that run.",
    "dev10": WRITTEN_BY_V10 + "This is DEV10: tune on it. TEST9 (../test9) is held out: run it "
    "once, at the end of this pass on issue 26.",
    "test9": WRITTEN_BY_V10 + "This is TEST9, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of this pass on issue 26, and report that run.",
    "dev11": WRITTEN_BY_V11 + "This is DEV11: tune on it. TEST10 (../test10) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test10": WRITTEN_BY_V11 + "This is TEST10, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev12": WRITTEN_BY_V12 + "This is DEV12: tune on it. TEST11 (../test11) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test11": WRITTEN_BY_V12 + "This is TEST11, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev13": WRITTEN_BY_V13 + "This is DEV13: tune on it. TEST12 (../test12) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test12": WRITTEN_BY_V13 + "This is TEST12, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev14": WRITTEN_BY_V14 + "This is DEV14: tune on it. TEST13 (../test13) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test13": WRITTEN_BY_V14 + "This is TEST13, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev15": WRITTEN_BY_V15 + "This is DEV15: tune on it. TEST14 (../test14) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test14": WRITTEN_BY_V15 + "This is TEST14, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev16": WRITTEN_BY_V16 + "This is DEV16: tune on it. TEST15 (../test15) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test15": WRITTEN_BY_V16 + "This is TEST15, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev17": WRITTEN_BY_V17 + "This is DEV17: tune on it. TEST16 (../test16) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test16": WRITTEN_BY_V17 + "This is TEST16, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev18": WRITTEN_BY_V18 + "This is DEV18: tune on it. TEST17 (../test17) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test17": WRITTEN_BY_V18 + "This is TEST17, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev19": WRITTEN_BY_V19 + "This is DEV19: tune on it. TEST18 (../test18) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test18": WRITTEN_BY_V19 + "This is TEST18, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev20": WRITTEN_BY_V20 + "This is DEV20: tune on it. TEST19 (../test19) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test19": WRITTEN_BY_V20 + "This is TEST19, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "dev21": WRITTEN_BY_V21 + "This is DEV21: tune on it. TEST20 (../test20) is held out: run "
    "it once, at the end of this pass on issue 26.",
    "test20": WRITTEN_BY_V21 + "This is TEST20, HELD OUT: do not read it while changing the "
    "rules; run it once, at the end of this pass on issue 26, and report that run.",
    "test7": WRITTEN_BY_V8 + "This is TEST7, HELD OUT: do not read it while changing the rules; "
    "run it once, at the end of this pass on issue 26, and report that run.",
}


@dataclass(frozen=True, slots=True)
class Pool:
    """One pool: the seed of its deal and its (dev, test) splits."""

    name: str
    seed: str
    splits: tuple[str, str]
    surfaces: tuple[str, ...] = SURFACES


POOLS = {
    "pool-v2": Pool("pool-v2", "pool-v2-2026-11-26", ("dev2", "test2")),
    "pool-v4": Pool("pool-v4", "pool-v4-2026-11-27", ("dev4", "test3")),
    "pool-v5": Pool(
        "pool-v5", "pool-v5-2026-11-27", ("dev5", "test4"), surfaces=("workspace", "assistant")
    ),
    "pool-v6": Pool(
        "pool-v6", "pool-v6-2026-11-28", ("dev6", "test5"), surfaces=("guideline", "kb")
    ),
    "pool-v7": Pool(
        "pool-v7", "pool-v7-2026-11-29", ("dev7", "test6"), surfaces=("workspace", "assistant")
    ),
    "pool-v8": Pool("pool-v8", "pool-v8-2026-11-30", ("dev8", "test7")),
    "pool-v9": Pool(
        "pool-v9", "pool-v9-2026-12-01", ("dev9", "test8"), surfaces=("workspace", "assistant")
    ),
    "pool-v10": Pool(
        "pool-v10", "pool-v10-2026-12-02", ("dev10", "test9"), surfaces=("workspace", "assistant")
    ),
    "pool-v11": Pool(
        "pool-v11", "pool-v11-2026-12-03", ("dev11", "test10"), surfaces=("workspace", "assistant")
    ),
    "pool-v12": Pool(
        "pool-v12", "pool-v12-2026-12-04", ("dev12", "test11"), surfaces=("workspace", "assistant")
    ),
    "pool-v13": Pool("pool-v13", "pool-v13-2026-12-05", ("dev13", "test12")),
    "pool-v14": Pool(
        "pool-v14", "pool-v14-2026-12-06", ("dev14", "test13"), surfaces=("workspace", "assistant")
    ),
    "pool-v15": Pool(
        "pool-v15", "pool-v15-2026-12-07", ("dev15", "test14"), surfaces=("workspace", "assistant")
    ),
    "pool-v16": Pool(
        "pool-v16", "pool-v16-2026-12-08", ("dev16", "test15"), surfaces=("workspace", "assistant")
    ),
    "pool-v17": Pool(
        "pool-v17", "pool-v17-2026-12-09", ("dev17", "test16"), surfaces=("guideline", "kb")
    ),
    "pool-v18": Pool(
        "pool-v18", "pool-v18-2026-12-10", ("dev18", "test17"), surfaces=("workspace", "assistant")
    ),
    "pool-v19": Pool(
        "pool-v19", "pool-v19-2026-12-11", ("dev19", "test18"), surfaces=("workspace", "assistant")
    ),
    "pool-v20": Pool("pool-v20", "pool-v20-2026-12-12", ("dev20", "test19")),
    "pool-v21": Pool("pool-v21", "pool-v21-2026-12-13", ("dev21", "test20")),
}
SEED = POOLS["pool-v2"].seed


def items_key(surface: str) -> str:
    """The key of the cases in a surface's file."""
    return "questions" if surface in ("guideline", "kb") else "cases"


def deal(
    surface: str, items: list[dict[str, Any]], seed: str = SEED
) -> tuple[list[Any], list[Any]]:
    """The (dev, test) halves of one surface's pool; a guideline session stays whole."""
    units: dict[str, list[dict[str, Any]]] = {}
    for item in sorted(items, key=lambda item: str(item["id"])):
        units.setdefault(str(item.get("session") or item["id"]), []).append(item)
    ordered = list(units.values())
    random.Random(f"{seed}:{surface}").shuffle(ordered)
    by_kind = sorted(ordered, key=lambda unit: str(unit[0].get("kind", unit[0].get("answerable"))))
    return (
        [item for unit in by_kind[0::2] for item in unit],
        [item for unit in by_kind[1::2] for item in unit],
    )


def document(surface: str, split: str, items: list[Any], pool: str = "pool-v2") -> dict[str, Any]:
    """A split file in the existing sets' shape."""
    return {
        "version": f"understanding-{surface}-{split}-{pool}",
        "about": ABOUT[split],
        items_key(surface): sorted(items, key=lambda item: str(item["id"])),
    }


def write(folder: Path, pool: Pool = POOLS["pool-v2"]) -> None:
    """Deal every surface of the pool in `folder` into its dev and test splits."""
    for surface in pool.surfaces:
        items = json.loads((folder / f"{surface}.json").read_text(encoding="utf-8"))
        items = items[items_key(surface)] if isinstance(items, dict) else items
        for split, half in zip(pool.splits, deal(surface, items, pool.seed), strict=True):
            target = SETS / split
            target.mkdir(exist_ok=True)
            text = json.dumps(
                document(surface, split, half, pool.name), indent=1, ensure_ascii=False
            )
            (target / f"{surface}.json").write_text(text + "\n", encoding="utf-8")
            print(f"{split}/{surface}.json: {len(half)}")


def check(pool: Pool = POOLS["pool-v2"]) -> bool:
    """Whether the split files are the deal of their union."""
    same = True
    dev, test = pool.splits
    for surface in pool.surfaces:
        halves = []
        for split in pool.splits:
            data = json.loads((SETS / split / f"{surface}.json").read_text(encoding="utf-8"))
            halves.append(data[items_key(surface)])
        first, _ = deal(surface, halves[0] + halves[1], pool.seed)
        ok = {i["id"] for i in first} == {i["id"] for i in halves[0]}
        print(
            f"{surface}: {len(halves[0])} {dev}, {len(halves[1])} {test}, "
            f"{'ok' if ok else 'DIFFERS'}"
        )
        same = same and ok
    return same


def main() -> int:
    """Write the splits from a pool folder, or check the packaged ones."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pool", nargs="?", type=Path, help="folder with <surface>.json")
    parser.add_argument("--check", action="store_true", help="check the packaged splits")
    parser.add_argument("--pool", dest="name", choices=sorted(POOLS), default="pool-v2")
    parser.add_argument("--seed", help="the seed of the deal (default: the pool's)")
    parser.add_argument(
        "--splits", nargs=2, metavar=("DEV", "TEST"), help="the two splits (default: the pool's)"
    )
    args = parser.parse_args()
    chosen = POOLS[args.name]
    splits = (str(args.splits[0]), str(args.splits[1])) if args.splits else chosen.splits
    pool = Pool(chosen.name, args.seed or chosen.seed, splits, chosen.surfaces)
    if args.check:
        return 0 if check(pool) else 1
    if args.pool is None:
        parser.error("give the pool folder, or --check")
    write(args.pool, pool)
    return 0


if __name__ == "__main__":
    sys.exit(main())
