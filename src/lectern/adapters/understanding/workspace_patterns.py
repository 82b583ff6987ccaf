"""The workspace requests the rule policy reads by pattern: one table, apart from the logic.

`adapters/llm/workspace_rules.py` matches these against the reader's own message (never a tool
result) and fills the calls; what no pattern matches goes to the understanding layer.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.workspace_document_kinds import DOCUMENT_KIND

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
PAGE = re.compile(r"on an? (?P<type>project|task|document|dashboard) page.*?\(id (?P<id>[^)]+)\)")
WORKSPACE_PAGE = re.compile(r"on a (?:project|task|document) page", re.I)
"""The system prompt of a workspace page: no book is a reading there."""
PAGE_PROJECT = re.compile(r"belongs to the project with id (?P<id>[^\s.]+)")
TASK_REF = re.compile(rf"\[task:({_UUID})\]")
PROJECT_REF = re.compile(rf"\[project:({_UUID})\]")
IT = re.compile(r"^(?:it|its|this|that|this task|that task|this one|that one|the task|task)$", re.I)
THIS_PROJECT = re.compile(r"^(?:this|that|the|our|my) project$", re.I)
_DATE = r"(?P<due>\d{4}-\d{2}-\d{2})"
STATUS_WORDS = {
    "todo": "todo",
    "to do": "todo",
    "to-do": "todo",
    "open": "todo",
    "in progress": "in_progress",
    "in-progress": "in_progress",
    "started": "in_progress",
    "in review": "in_review",
    "review": "in_review",
    "in-review": "in_review",
    "in_review": "in_review",
    "in_progress": "in_progress",
    "to_do": "todo",
    "done": "done",
    "complete": "done",
    "completed": "done",
    "finished": "done",
}
_STATUS = r"(?P<status>to ?[-_]?do|in[ _-]progress|in[ _-]review|review|done|completed?|finished)"
_PRIORITY = r"(?P<priority>low|medium|high|urgent)"
_PRIORITY2 = r"(?P<p2>low|medium|high|urgent)"

ATTENTION = re.compile(
    r"\bneeds?\b.*\battention\b|\bwhat should i (?:work on|do|look at)\b|\bwhat(?:'s| is) "
    r"overdue\b|\bmy dashboard\b|\bwhat(?:'s| is) on my plate\b|"
    r"^(?:which|what|any|are there(?: any)?)\s+(?:tasks?\s+)?(?:are\s+|is\s+)?(?:overdue|late|"
    r"past due)\b(?!.*\b(?:in|on|for)\s+(?:the|this)\b)|\beverything assigned to me\b|"
    # "are any tasks stuck?": the summary's blocked tasks (not a project's blocker list)
    r"^(?:which|what|any|are(?:\s+there)?\s+any)\s+tasks?\s+(?:are\s+|is\s+)?(?:currently\s+|"
    r"still\s+)?(?:stuck|blocked)\W*$|"
    # "what's waiting on me", "anything pending for me?": what the reader has to act on
    # after an apology, with a time or a worry of the reader's told after it ("sorry, is there
    # anything waiting on me? I don't want to miss something")
    r"^(?:(?:sorry|excuse\s+me|quick\s+question|hey|hi)\W+)*"
    r"(?:what(?:['’]?s|\s+is|\s+are)?|anything|is\s+anything|is\s+there\s+anything)\s+"
    r"(?:still\s+)?(?:waiting|pending|sitting)\s+(?:on|for)\s+(?:me|my\s+(?:input|action|"
    r"sign-?off)|"
    # "is there anything waiting on a review from me?": the reader's review is the action
    r"(?:a\s+|an\s+)?(?:review|approval|sign-?off)\s+(?:from|by)\s+me)"
    r"(?:\s+(?:right\s+)?now|\s+today|\s+at\s+the\s+moment)?\W*"
    r"(?:[?.!]\s*(?:i|i['’]m|just|don['’]t)\b[^?]*)?$|"
    # "what is assigned to me across all projects", "my tasks in every project": the reader's
    # work everywhere, which the summary gathers
    r"\b(?:assigned\s+to\s+me|my\s+(?:tasks|work|tickets)|(?:on|for)\s+me)\s+(?:across|in|on|over)\s+"
    r"(?:all|every|each)\s+(?:(?:of\s+)?(?:the|my|our)\s+)?projects?\b",
    re.I,
)
TEAM = re.compile(
    r"^(?:who(?:'s| is| are)\b.*\b(?:team|members?|organi[sz]ation|org)\b|(?:list|show)(?: me)?"
    r" (?:the |my )?(?:team|members|people)\b|who can i assign\b|who works on\b|"
    # "which people can I hand tasks to?": whom the reader may assign, not a request to
    r"(?:what|which)\s+(?:people|persons|members|users|folks|colleagues)\s+(?:(?:can|could)\s+)?"
    r"(?:i|we)\s+(?:(?:can|could)\s+)?(?:assign|give|hand)\b(?:\s+(?:tasks?|work|things))?"
    r"(?:\s+to)?\W*$|"
    r"who(?:'s| is| are)\s+(?:on|in|working on)\s+(?:the\s+)?.+?\s+project\b)",
    re.I,
)
BLOCKERS = re.compile(
    r"\bblock(?:ing|ers?|ed)\b.*?(?:\b(?:on|of|in|for)\s+(?:the\s+)?(?P<p1>.+?)\s+project\b|"
    r"\b(?:the\s+)?(?P<p2>.+?)\s+project\b)?\W*$"
    r"|^what(?:'?s| is) (?:holding up|stopping)\s+(?:the\s+)?(?P<p3>.+?)(?:\s+project)?\W*$",
    re.I,
)
BLOCKER_QUESTION = re.compile(
    r"^(?:what(?:'s| is| are)?|which|show|list|any|are there|is (?:there )?(?:anything|something|"
    r"anyone))\b.*\bblock|"
    # "every blocker on vpn, open or closed, I want the full history": the blockers named
    r"^(?:every(?:\s+single)?|all(?:\s+(?:of\s+)?the)?)\s+blockers?\b(?!.*\b(?:is|are|were|was|got)\s+"
    r"(?:now\s+)?(?:resolved|cleared|gone|fixed|lifted|sorted)\b)",
    re.I,
)
PROJECTS = re.compile(
    r"^(?:what|which|show|list|tell me)\b.{0,40}\bprojects\b|^(?:my|our) projects\W*$|"
    # asked inside a longer, politer message: "..., can you start by giving me the list of
    # projects", "would it be ok to see which projects exist"
    r"\b(?:giv\w*|show\w*|see|get\w*|send\w*)(?:\s+(?:me|us))?\s+(?:the\s+|an?\s+|your\s+)?"
    r"(?:full\s+)?(?:list|overview|rundown)\s+of\s+(?:all\s+)?(?:the\s+|our\s+|my\s+)?projects\b|"
    r"\b(?:see|know|show\s+me)\s+(?:which|what)\s+projects\s+(?:exist|there\s+are|we\s+have)\b",
    re.I,
)
PROJECT_DETAILS = re.compile(
    r"^(?:(?:what(?:'s| is) the |(?:give|show) me (?:an? |the )?|any )?(?:status|details|overview|"
    r"summary|progress|latest|news|updates?|history) (?:of|on|for|with) "
    r"(?:the\s+)?(?P<p1>.+?)(?:\s+project)?|how(?:'s| is) (?:the\s+)?(?P<p2>.+?) project "
    r"(?:going|doing)|tell me about (?:the\s+)?(?P<p3>.+?) project|(?:show|open) (?:me )?"
    r"(?:the\s+)?(?P<p4>.+?) project|"
    # "give me the numbers on VPN hardening: how many done vs open?": a project's counts
    r"(?:give|show|get)(?: me)? (?:the |some )?(?:numbers|stats|statistics|figures|counts|"
    r"breakdown|tally|metrics) (?:on|of|for) (?:the\s+)?(?P<p5>[^:?,;]+?)(?:\s+project)?"
    r"(?:\s*[:;,—–-]\s*how\s+many\b[^?]*)?)\W*$",
    re.I,
)
TASKS = re.compile(
    r"^(?:what|which|show|list|give me|any)\b.*\btasks?\b|\b(?:my|\w+'s) tasks\b|"
    r"\b(?:is \w+|am i|are you) working on\b|"
    # "what am I assigned in the phishing project", "what is bob on in VPN hardening"
    r"^what\s+(?:am\s+i|is\s+\w+|are\s+you)\s+(?:assigned(?:\s+to)?|on|down\s+for|"
    r"responsible\s+for|handling|doing|owning)\s+(?:in|on|for)\b|"
    # "what does bob have on at the moment", "what's on bob's plate"
    r"^what(?:\s+(?:does|has)|['’]s)\s+\w+\s+(?:have|got)(?:\s+going)?\s+on\b|\bon\s+\w+['’]s\s+plate\b",
    re.I,
)
IN_PROJECT = re.compile(
    r"^(?P<before>.*)\s(?:in|on|of|for|from|to|under)\s+(?:the\s+)?(?P<p>[^,]+?)\s+project\b",
    re.I | re.S,
)
"""The last "in the X project" of a request (greedy lead: "tasks in review in the X project")."""
ASSIGNED = re.compile(
    r"\b(?:assigned to|for|owned by)\s+(?P<a>me|[A-Za-z][\w.-]*)\b|\b(?P<b>my|[A-Za-z][\w.-]*)'s "
    r"tasks\b|\bis (?P<c>[A-Za-z][\w.-]*) working on\b|\b(?P<d>my) tasks\b|"
    r"^what\s+(?:am\s+(?P<e>i)|is\s+(?P<f>[A-Za-z][\w.-]*))\s+(?:assigned|on|down\s+for|"
    r"responsible\s+for|handling|doing|owning|working\s+on)\b|"
    r"^what(?:\s+(?:does|has)|['’]s)\s+(?P<g>[A-Za-z][\w.-]*)\s+(?:have|got)(?:\s+going)?\s+on\b|"
    r"\bon\s+(?P<h>[A-Za-z][\w.-]*)['’]s\s+plate\b|"
    # "what tasks does bob have in the vpn project", "which tickets has carol got"
    r"\b(?:tasks?|tickets?|items?|work)\s+(?:does|do|has|did)\s+(?P<i>[A-Za-z][\w.-]*)\s+"
    r"(?:have|got|own|hold|get)\b",
    re.I,
)
TASK_DETAILS = re.compile(
    r"^(?:(?:show|open|get)(?: me)?(?: the)? (?:details (?:of|for) )?(?:the )?task\s+(?P<t1>.+?)|"
    r"(?:what(?:'s| is) the )?(?:status|details) of (?:the )?task\s+(?P<t2>.+?)|"
    r"tell me about (?:the )?task\s+(?P<t3>.+?)|what(?:'s| is) (?:the )?task\s+(?P<t4>.+?) about|"
    r"(?:what(?:'s| is) the )?(?:status|details) of (?P<t5>it|this task|this)|"
    # "what's it about" (on a task's page), after a how-question it would answer
    r"(?:how\s+(?:do|can|should|would)\s+(?:i|we)\b[^,?]*[,?]\s*(?:and\s+|but\s+)?)?"
    r"what(?:['’]s|\s+is)\s+(?P<t12>it|this|this\s+one)\s+(?:all\s+)?about|"
    # "open the check point task", "pull up the runbook task"
    r"(?:show|open|get|pull\s+up)(?: me)?(?: the)? (?P<t6>[^,]+?)\s+task|"
    # "show me the runbook details": a task's name, then the word for its page
    r"(?:show|open|get|pull\s+up|give)(?: me)?(?: the)? (?P<t11>[^,]+?)(?:['’]s)?\s+"
    r"(?:details|info|information)|"
    # "who's doing the phishing drill?", "who has the runbook": whose a task is, in its details
    r"who(?:['’]s|\s+is)\s+(?:doing|handling|on|got|owning|running|working\s+on|assigned\s+to|"
    r"responsible\s+for)\s+(?P<t7>[^,]+?)|who\s+(?:has|owns|got|does|is\s+doing)\s+(?P<t8>[^,]+?)|"
    # "open the VPN login hunt": a stored task by its words alone (checked by the rules)
    # "what's on the runbook right now?", "what's going on with the hunt": asked of it
    r"(?:(?:show|open|pull\s+up|bring\s+up)(?:\s+me)?|what(?:['’]s|\s+is)\s+(?:going\s+)?on"
    r"(?:\s+with)?|what(?:['’]s|\s+is)\s+up\s+with|what(?:['’]s|\s+is)\s+the\s+(?:state|status)"
    r"\s+of|where\s+are\s+we\s+(?:at\s+)?(?:with|on))\s+(?:the\s+)?(?P<t13>[^,]+?))"
    r"(?:\s+(?:for\s+me|please|quickly|real\s+quick|right\s+now|now|at\s+the\s+moment|too|"
    r"as\s+well|also))*\W*$",
    re.I,
)
DOCUMENTS = re.compile(
    # "docs on the vpn project": said terse, the kind of thing then the project
    r"^(?:(?:what|which|show|list)\b.{0,20}\b|(?:the\s+|any\s+)?)(?:documents|docs|files|"
    r"attachments|reading\s+material|references|advisories|sources)\b"
    r"(?:.*?(?:\b(?:of|in|for|on|does)\s+"
    r"(?:the\s+)?(?P<p>.+?)(?:\s+(?:project|work|stuff))?(?:\s+(?:have|hold|link))?))?"
    r"(?:[\s,]+please)?\W*$",
    re.I,
)
DOCUMENT_DETAILS = re.compile(
    r"^(?:(?:show|open|read|get)(?: me)? (?:the )?document\s+(?P<d1>.+?)|what does (?:the )?"
    r"document\s+(?P<d2>.+?) say|summari[sz]e (?:the )?document\s+(?P<d3>.+?)|"
    # "open the Check Point advisory document", "what's in the T1133 doc?"
    r"(?:(?:show|open|read|get|pull\s+up|bring\s+up|summari[sz]e)(?: me)?|what(?:'s| is) in) "
    rf"(?:the )?(?P<d4>.+?)\s+{DOCUMENT_KIND}|"
    # "open CVE-2024-24919", "pull up T1133": an advisory's or a technique's id is a document
    r"(?:show|open|read|get|pull\s+up|bring\s+up)(?: me)? (?:the )?"
    r"(?P<d5>CVE-\d{4}-\d{3,}|T\d{4}(?:\.\d{3})?))"
    # "read the Check Point document and tell me what it asks us to do": answered from it
    r"(?:,?\s+and\s+(?:then\s+)?(?:tell|show|explain|let)\b[^.]*)?\W*$",
    re.I,
)
SAYS = re.compile(
    r"^what\s+(?:does|did)\s+(?:the\s+|our\s+|that\s+)?(?P<d>.+?)\s+(?:say|recommend|advise|"
    r"suggest|propose|require|tell\s+us|want\s+us\s+to\s+do)(?:\s+(?:we|us)\s+(?:do|to\s+do))?"
    r"(?:\s+(?:about|on|regarding)\s+(?P<about>.+?))?\W*$",
    re.I,
)
"""Only a document says things: "what does the merger memo say about Zephyrine?"."""
SEARCH = re.compile(
    r"^(?:search|find|look for|look up|where\s+(?:did|do|does|has|have)\s+(?:the\s+)?[\w.-]+\s+"
    r"(?:talk(?:ed)?|discuss(?:ed)?|mention(?:ed)?|write|wr[io]te|note[d]?)|(?:(?:is|was)\s+there\s+|"
    # "do we have anything about X", "have we got any notes on X": whether it is written
    r"(?:do|did)\s+(?:we|you|i)\s+have\s+|have\s+(?:we|you)\s+got\s+)?"
    r"any(?:thing|\s+notes?|\s+comments?|\s+mentions?)(?:\s+in\s+(?:our|the|my)\s+(?:workspace|"
    # "anything written anywhere about vpn logs?"
    r"notes|projects?))?(?:\s+(?:anywhere|somewhere))?(?:\s+(?:written|noted|recorded)(?:\s+(?:down|up))?)?"
    r"(?:\s+(?:anywhere|somewhere|at\s+all))?"
    r"(?=\s+(?:about|on|regarding)\b))(?:\s+for)?\s+(?:(?:the\s+)?(?P<p0>[^,]+?)\s+project\s+for\s+)?(?:anything\s+|everything\s+|tasks\s+|"
    r"comments\s+|documents\s+|notes\s+|(?:the\s+|my\s+|our\s+)?(?:tasks|comments|documents|"
    r"notes|projects|workspace)\s+for\s+)?(?:about\s+|on\s+|regarding\s+|mentioning\s+|"
    r"that mention\s+)?"
    r"(?P<q>.+?)(?:\s+(?:in|within|inside|under)\s+(?:the\s+)?(?:(?P<p>.+?)\s+project|"
    r"(?:my\s+|our\s+)?(?:projects|"
    r"workspace|tasks|comments|documents)))?\W*$",
    re.I,
)
WORKSPACE_SEARCH = re.compile(
    r"\b(?:projects?|workspace|tasks|comments|documents|notes)\b|^(?:search|find|look for)\s+"
    r"(?:anything|everything)\b|\b(?:across|through)\s+(?:everything|all)\b|\beverywhere\b",
    re.I,
)
CREATE_TASK = re.compile(
    r"^(?:(?:create|add|make|open|file|start|set\s+up|i\s+(?:want|need)|we\s+need|let'?s\s+(?:add|"
    r"have|get))\s+(?:a\s+|an\s+)?(?:new\s+)?|new\s+)"
    r"(?:(?P<lead_priority>low|medium|high|urgent)[\s-]+priority\s+)?task\b\s*"
    # "a task to rotate the certs" is its purpose; "a task to the X project" is where it goes
    r"(?:to\s+(?!(?:the\s+)?[^,:]+?\s+project\b)|called\s+|named\s+|titled\s+|for\s+|:\s*)?"
    r"(?P<rest>.+)$",
    re.I,
)
ASSIGN_CLAUSE = re.compile(
    r"\s*,?\s*(?i:and\s+)?(?i:assign(?:ed)?|give)\s+(?i:it\s+)?(?:(?i:to)\s+)?"
    r"(?P<a>[A-Za-z][\w.-]*(?:\s+[A-Z][\w.-]*)?)|"
    # "..., I'll own it", "- I'll take it": the reader takes the new task (no `a`: "me")
    r"\s*[,;–—-]?\s*(?i:and\s+)?(?i:i'?ll|i\s+will|i'?m\s+going\s+to)\s+"
    r"(?i:own|take|do|handle|grab|pick\s+up)\s+(?i:it|this|that)\b(?:\s+(?i:myself))?",
)
"""Names are one word (a user id) or a capitalized display name ("Bob Builder")."""
DUE_CLAUSE = re.compile(rf"\s*,?\s*(?:and\s+)?(?:due|by)\s+(?:on\s+)?{_DATE}", re.I)
PRIORITY_CLAUSE = re.compile(
    rf"\s*,?\s*(?:with\s+)?(?:(?:a\s+)?{_PRIORITY}\s+priority|priority\s+{_PRIORITY2})",
    re.I,
)
COMPLETE = re.compile(
    r"^(?:mark|set)\s+(?P<t1>.+?)\s+(?:as\s+)?(?:done|complete|completed|finished)\W*$|"
    # "close this out", "wrap the drill up", "tick it off": the particle after the task
    r"^(?:close|wrap|tick|sign)\s+(?P<t6>.+?)\s+(?:out|up|off)(?:\s+now)?\W*$|"
    r"^(?:complete|finish|close(?:\s+out)?|wrap\s+up)\s+(?P<t2>.+?)\W*$|"
    r"^(?P<t3>.+?)\s+is\s+(?:done|finished|complete)\W*$|"
    # "patch task done", "runbook finished": a terse report, not a question about it
    r"^(?!.*\?)(?!(?:what|which|who|whose|is|are|was|were|anything|nothing|not)\b)"
    r"(?P<t5>(?:\S+\s+){0,5}?(?:task|\S+))\s+(?:now\s+|all\s+)?(?:done|finished|completed)\W*$",
    re.I,
)
STATUS = re.compile(
    rf"^(?:move|set|put|change|mark)\s+(?:the\s+status\s+of\s+)?(?P<t>.+?)\s+(?:back\s+)?"
    # "put it in progress": the status's own "in" says where it goes
    rf"(?:(?:to|into|as|in)\s+|(?=in[ -](?:progress|review)\b))"
    rf"{_STATUS}\W*$|^(?:start|begin)\s+(?:working\s+on\s+)?(?P<t2>.+?)"
    r"(?:\s+(?:now|today|right\s+away|straight\s+away))?\W*$",
    re.I,
)
_FOR_NOW = (
    r"(?:\s+(?:instead|now|then|please|for\s+now|for\s+the\s+(?:moment|time\s+being)|"
    r"anymore|any\s+more))*"
)
"""What may end an assignment without being its person or task ("give it to me instead")."""
_UNOWNED = (
    r"(?:\s*[,;.–—-]\s*(?:so\s+|and\s+)?(?:please\s+)?(?:(?:nobody|no\s+one|no-one)(?:['’]s|\s+is)?\s+"
    r"(?:owns?|has|on|owning|having|assigned(?:\s+to)?)\s+(?:it|that|this)|"
    # "..., leave it unassigned", "- unassign it", "keep it with no owner"
    r"(?:leave|keep|have)\s+(?:it|that|this)\s+(?:unassigned|unowned|with\s+no\s+(?:owner|assignee|"
    r"one(?:\s+on\s+it)?)|without\s+an?\s+(?:owner|assignee))|unassign\s+(?:it|that|this))"
    r"(?:\s+(?:for\s+now|now|anymore|for\s+the\s+(?:moment|time\s+being)))?)?"
)
"""A removal restated ("take bob off it, nobody owns it for now"): no part of the task."""
ASSIGN = re.compile(
    rf"^(?:re)?assign\s+(?P<t>.+?)\s+to\s+(?P<a>[A-Za-z][\w.-]*(?: [A-Z][\w.-]*)?){_FOR_NOW}\W*$|"
    # "move the patch over to vera": a task moved over to a person is theirs
    rf"^(?:give|hand|pass|transfer|(?:move|shift|send|switch)(?=\s.+?\s+over\s+to\s))\s+"
    rf"(?P<t2>.+?)(?:\s+over)?\s+to\s+(?P<a2>[A-Za-z][\w.-]*){_FOR_NOW}\W*$|"
    # "unassign the drill", "remove the assignee from it", "clear the owner of the runbook"
    rf"^(?:unassign|de-?assign|un-assign)\s+(?P<t3>.+?){_FOR_NOW}{_UNOWNED}\W*$|"
    rf"^(?:remove|clear|drop|delete)\s+(?:the\s+)?(?:assignee|owner|assignment)\s+"
    rf"(?:from|of|on|for)\s+(?P<t5>.+?){_FOR_NOW}\W*$|"
    # "leave it unassigned", "keep the drill with no owner for now": no one is its assignee
    rf"^(?:leave|keep|have)\s+(?P<t11>.+?)\s+(?:unassigned|unowned|with\s+no\s+(?:owner|assignee)|"
    rf"without\s+an?\s+(?:owner|assignee)){_FOR_NOW}\W*$|"
    # "nobody should own the drill for now(, please unassign it)": no one is its assignee
    rf"^(?:nobody|no\s+one|no-one)\s+(?:should|must|needs\s+to|is\s+to|will)\s+(?:own|have|"
    rf"be\s+on)\s+(?P<t6>(?:(?!\b(?:for|anymore)\b)[^,;.])+?){_FOR_NOW}"
    rf"(?:\s*[,;.–—-]\s*(?:so\s+)?(?:please\s+)?(?:(?:remove|clear|drop)\s+(?:the\s+)?"
    rf"(?:assignee|owner)\s+(?:from|of|on)\s+(?:it|that|this)|unassign\s+(?:it|that|this)|"
    r"(?:leave|keep)\s+(?:it|that|this)\s+unassigned))?"
    rf"\W*$|"
    # "take the drill off everyone", "take the drill off bob": its assignee removed
    # ("take me off it": "it" is the task, taken off nobody)
    rf"^take\s+(?P<t7>.+?)\s+off\s+(?P<from>everyone|everybody|anyone|(?!(?:it|this|that)\b)"
    r"[A-Za-z][\w.-]*)"
    rf"(?:['’]s\s+plate)?{_FOR_NOW}{_UNOWNED}\W*$|"
    # "take me off the netscaler review"
    rf"^take\s+(?P<from2>me|him|her|[A-Za-z][\w.-]*)\s+off\s+(?P<t8>(?:(?![,;]).)+?){_FOR_NOW}"
    rf"{_UNOWNED}\W*$|"
    r"^(?:i'?m|i\s+am|i'?ll|i\s+will|i)\s+(?:taking|take|grabbing|grab|picking\s+up|pick\s+up|"
    # "I'll take over the check point patching from Bob": taken from its owner, by the reader
    r"handling|handle|owning|own)(?:\s+over)?\s+"
    # "I'm taking notes on the runbook", "taking a look at the hunt": nothing taken on
    r"(?!(?:some\s+|a\s+few\s+|a\s+|the\s+)?(?:notes?|look|peek|glance|break|day|time|care|"
    r"part|screenshots?|photos?|minutes|questions?|lunch|leave)\b)(?P<t4>.+?)(?:\s+(?:over|on))?"
    r"(?:\s+(?:from|off)\s+[A-Za-z][\w.-]*)?\W*$|"
    # "grab the drill for me", "put me down for the runbook", "sign me up for it": the reader's
    r"^(?:take|grab|claim|pick\s+up)\s+(?P<t9>.+?)\s+for\s+(?:me|myself)\W*$|"
    r"^(?:put|sign|mark|add)\s+me\s+(?:up\s+|down\s+)?(?:on|for|as\s+owner\s+of)\s+(?P<t10>.+?)\W*$",
    re.I,
)
PRIORITY = re.compile(
    # "bump the priority of this one to high": the field named first, then the task
    rf"^(?:set|change|bump|raise|lower|drop|move|put)\s+(?:the\s+)?priority\s+(?:of|on|for)\s+"
    rf"(?P<t>.+?)\s+(?:up\s+|down\s+)?to\s+{_PRIORITY}\W*$|"
    # "make it urgent", "set it high": a priority word alone after the task
    rf"^(?:make|mark|set)\s+(?P<t2>(?:(?!\b(?:priority|to)\b).)+?)\s+{_PRIORITY2}"
    rf"(?:\s+priority)?\W*$|"
    # "set the hunt task to urgent, due 2026-11-20": the priority, then what else changes
    rf"^(?:set|bump|raise|lower|drop|change|move)\s+(?P<t3>.+?)(?:['’]s\s+priority|\s+priority)?"
    rf"\s+(?:up\s+|down\s+)?to\s+"
    rf"{_PRIORITY.replace('priority>', 'p3>')}(?:\s+priority)?(?P<more>\s*,.*)?\W*$",
    re.I,
)
DUE = re.compile(
    rf"^(?:set|change|move)\s+(?:the\s+)?due\s+date\s+of\s+(?P<t>.+?)\s+to\s+{_DATE}\W*$|"
    rf"^(?P<t2>.+?)\s+is\s+(?:now\s+)?due\s+(?:on\s+)?{_DATE.replace('due>', 'due2>')}\W*$|"
    rf"^(?:make|set)\s+(?P<t3>(?:(?!\bto\b)[^,])+?)\s+due\s+(?:on\s+|by\s+)?"
    rf"{_DATE.replace('due>', 'due3>')}\W*$",
    re.I,
)
FIELD_ONLY = re.compile(
    r"^(?:change|update|set|edit|adjust|modify|move|bump)\s+(?:the\s+)?(?P<field>status|priority|"
    r"due\s+date|deadline|state)\s+(?:of|on|for)\s+(?P<t>(?:(?!\b(?:to|into|as)\b).)+?)\W*$|"
    r"^(?:change|update|edit|adjust|modify)\s+(?P<t2>(?:(?!\b(?:to|into|as)\b).)+?)['’]s\s+"
    r"(?P<field2>status|priority|due\s+date|deadline|state)\W*$",
    re.I,
)
"""A field to change named without its value ("change the status of the drill"): asked."""
DUE_WORDS = re.compile(
    # "set the due date to the 20th": the field and the day, of the task in view
    r"^(?:set|move|push|shift|change|update)\s+(?:the\s+|its\s+)?(?:due\s+date|deadline)\s+"
    r"(?:to|as)\s+(?P<when3>.+?)\W*$|"
    # "set the due date of the hunt to a week from today": the field, its task, then the day
    r"^(?:set|move|push|shift|change|update)\s+(?:the\s+)?(?:due\s+date|deadline)\s+(?:of|on|for)\s+"
    r"(?P<t2>(?:(?!\bto\b)[^,])+?)\s+to\s+(?P<when2>.+?)\W*$|"
    r"^(?:make|set|move|push|shift|change)\s+(?P<t>(?:(?!\bto\b)[^,])+?)\s+(?:due|deadline)\b\s*"
    # "... due tomorrow and urgent": a priority said with the day
    rf"(?P<when>[^,;]*?)(?:\s+and\s+(?:make\s+it\s+)?{_PRIORITY.replace('priority>', 'also>')}"
    r"(?:\s+priority)?)?\W*$",
    re.I,
)
"""A due date in words ("set it due on the 20th of November", "make the drill due soonish")."""
RENAME_TASK = re.compile(
    r"^(?:rename\s+(?:the\s+)?task\s+(?P<t>.+?)|rename\s+(?P<t3>.+?\s+task|it|this|that)|change\s+the\s+title\s+of\s+(?P<t2>.+?))\s+to\s+"
    # "to 'Hunt for VPN logins (Oct-Nov)'": a closing bracket is the title's, not punctuation
    r"(?P<title>.+?\)?)[^\w)]*$",
    re.I,
)
DESCRIBE = re.compile(
    r"^(?:set|change|update)\s+the\s+description\s+of\s+(?P<t>.+?)\s+to\s*:?\s*(?P<d>.+)$", re.I
)
BLOCKER_VERB = r"(?:add|create|record|log|raise|flag|put|set|place|file|open|register|make|note)"
CREATE_BLOCKER = re.compile(
    rf"^(?:{BLOCKER_VERB}\s+(?:a\s+)?(?:new\s+)?|(?:an?\s+|new\s+)?)blocker\s+"
    r"(?:to|on|for|against)\s+(?P<target>[^(:]+?)"
    # "log a blocker on the runbook (waiting for the template)": the reason in parentheses
    r"\s*(?::|[-–—]|\(|\bsaying\b|\bthat\b|\bbecause(?:\s+of)?\b|\bsince\b|(?=\bwaiting\b))\s*"
    r"(?P<d>.+)$|"
    # "the drill can't go ahead because the allowlist isn't set up (, log it as a blocker)"
    r"^(?!(?:why|what|how|when|who|can|could|is|does|do)\b)(?P<target3>.+?)\s+(?:can\s*not|"
    r"can['’]?t|won['’]?t|could\s*n['’]?o?t|is\s+unable\s+to)\s+(?:go\s+on|go\s+ahead|"
    r"proceed|continue|move\s+(?:on|forward|ahead)|start|happen|progress)\s+(?:because(?:\s+of)?|"
    r"since|as|while|(?P<until>until|till))\s+(?P<d3>[^?]+?)(?:\s*[,;.]\s*(?:so\s+)?(?:please\s+)?"
    rf"(?:{BLOCKER_VERB}|mark)\s+(?:this|it|that)\s+(?:down\s+)?as\s+(?:a\s+)?blocker)?\W*$|"
    # "what's blocked on the vpn project" asks what is: a question word is no task
    r"^(?!(?:what|which|who|how|why|anything|everything)\b)"
    r"(?P<target2>.+?)(?:\s+is|\s+has\s+been|['’]s)\s+(?:blocked|stuck|held\s+up)\s*"
    r"(?:\s(?:by|on|because(?:\s+of)?|since|as)\s+|[:,;—–-]\s*)"
    # "the vpn thing is stuck, whats blocking it" asks; it records nothing
    r"(?!\s*(?:what|whats|what's|who|why|how|which|is|are|can|could)\b)(?P<d2>[^?]+?)\W*$",
    re.I,
)
RESOLVE = re.compile(
    r"^(?:resolve|close|clear|lift)\s+(?:the\s+)?blocker\s+(?:about\s+|on\s+|for\s+|re\s+)?"
    r"(?P<b>.+?)(?:\s*[:;]\s*|\s+(?:with|saying|because|since)\s+)(?P<r>.+?)\W*$|"
    r"^the\s+blocker\s+(?:about\s+|on\s+)?(?P<b2>.+?)\s+is\s+(?:resolved|gone|fixed|cleared)"
    r"\s*(?::|-|,|because|since)?\s*(?P<r2>.+?)\W*$|"
    r"^(?:resolve|close|clear|lift)\s+(?:the\s+)?(?P<b3>.+?)\s+blocker\s*(?:[(:;,—–-]\s*|\s+"
    r"(?:with|saying|because|since|as|now\s+that)\s+)(?P<r3>.+?)\)?\W*$|"
    r"^(?P<r5>.+?),?\s+so\s+(?:the\s+|that\s+|this\s+)?(?P<b5>.*?)\s*blocker\s+(?:can|could|"
    r"should|may)\s+(?:now\s+)?be\s+(?:resolved|closed|cleared|lifted)\W*$|"
    # "clear 'Waiting on the vendor': they replied": a blocker said by its quoted words
    r"^(?:resolve|close|clear|lift)\s+(?:the\s+)?(?:blocker\s+)?[\"“'‘](?P<b7>[^\"”'’]+)[\"”'’]"
    r"(?:\s+blocker)?\s*(?:[(:;,—–-]\s*|\s+(?:with|saying|because|since|as|now\s+that)\s+)"
    r"(?P<r7>.+?)\)?\W*$|"
    r"^unblock\s+(?P<b4>.+?)\s*(?:[(:;,—–-]\s*|\s+(?:because|since|as|now\s+that)\s+)"
    r"(?P<r4>.+?)\)?\W*$|"
    # "the check point patching isn't blocked anymore, we got a slot": its blocker resolved
    r"^(?!(?:why|what|how|is|isn['’]t|which)\b)(?P<b6>.+?)\s+(?:(?:is|are)\s+(?:not|no\s+longer)\s+|"
    r"isn['’]?t\s+|aren['’]?t\s+|(?:is|are)\s+(?:now\s+)?un-?)(?:blocked|stuck|held\s+up)(?:\s+(?:anymore|any\s+more|now))?"
    r"\s*(?:[(:;,—–-]\s*|[.]\s+|\s+(?:because|since|as|now\s+that)\s+)(?P<r6>[^?]+?)\)?\W*$",
    re.I,
)
COMMENT = re.compile(
    r"^(?:add|post|leave|write|put|drop)\s+(?:a\s+)?(?:comment|note)\s+(?:to|on)\s+(?P<t>.+?)\s*"
    r"(?::|saying|that)\s*(?P<c>.+)$|"
    # "drop a note that all four gateways are patched": a note dropped is one left
    r"^(?:add|post|leave|write|put|drop)\s+(?:a\s+)?(?:comment|note)\s*(?::|saying|that)\s*"
    r"(?P<c2>.+)$|"
    # "add a comment 'draft is up'": quoted, on the task in view (or named earlier)
    r"^(?:add|post|leave|write|put|drop)\s+(?:a\s+)?(?:comment|note)\s+[\"“'‘](?P<c11>[^\"”'’]+)"
    r"[\"”'’]\W*$|"
    r"^comment\s+on\s+(?P<t3>.+?)\s*:\s*(?P<c3>.+)$|"
    # "add a comment on the netscaler task 'tokens revoked'", "comment on it asking bob to ..."
    r"^(?:(?:add|post|leave|write|put|drop)\s+(?:a\s+)?(?:comment|note)|comment)\s+(?:to|on)\s+"
    r"(?P<t4>.+?)\s*(?:[\"“'‘](?P<c4>[^\"”'’]+)[\"”'’]|\b(?P<c5>(?:asking|telling)\s+.+))\W*$|"
    # "comment that it's ready": on the task in view; "note on this task: logs are missing"
    r"^comment\s+(?:saying|that|:)\s*(?P<c7>.+)$|"
    r"^(?:(?:jot|write|put|scribble|note)\s+(?:down\s+)?|(?:an?\s+)?(?:comment|note)\s+)(?:on|to|for|"
    r"in|under)\s+(?P<t8>.+?)\s*(?::|\bthat\b|\bsaying\b)\s*(?P<c8>.+)$|"
    # "post 'hotfix applied' on the check point task": the words quoted, then where
    r"^(?:add|post|leave|write|put|drop)\s+[\"“'‘](?P<c6>[^\"”'’]+)[\"”'’]\s+(?:as\s+a\s+"
    r"(?:comment|note)\s+)?(?:on|to|under)\s+(?P<t6>(?:(?!\bproject\b).)+?)\W*$|"
    # "tell everyone on the check point task that gateway 4 is done", "let the team on the
    # runbook know: draft is up": what the people on a task are told is a comment on it.
    r"^(?:tell|let|inform|update)\s+(?:everyone|everybody|(?:the\s+)?(?:team|others|folks|people))"
    r"\s+(?:on|in|under|working\s+on)\s+(?P<t9>.+?)\s*(?:\s+know\b(?:\s+that\b|\s*:)?|\s+that\b|:)"
    r"\s*(?P<c9>.+)$|"
    # "tell bob on the runbook that the draft is up", "let him know on the task that ...": one
    # person told on a task is a comment on it too
    # "tell bob in a comment that it can't slip": the comment on the task named, else "it"
    r"^(?:tell|inform|remind|ping|notify)\s+(?P<w12>him|her|them|[a-z][\w.-]*)\s+(?:in|via|with)\s+"
    r"an?\s+(?:comment|note)(?:\s+(?:on|under)\s+(?P<t12>.+?))?\s*(?:\s+that\b|:)\s*(?P<c12>.+)$|"
    r"^(?:(?:tell|inform|update|ping|notify)\s+(?P<w10>him|her|them|[a-z][\w.-]*)|let\s+"
    r"(?P<w11>him|her|them|[a-z][\w.-]*)\s+know)\s+(?:on|in|under|via)\s+(?P<t10>.+?)"
    r"\s*(?:\s+that\b|:)\s*(?P<c10>.+)$",
    re.I,
)
THEN = re.compile(
    r"\s*(?:,\s*|\s+)(?:and\s+then|then|and\s+also|and)\s+|"
    # "list the vpn tasks. also who's on the team": a sentence more, joined by "also"
    r"(?<=[.!])\s+(?:also|plus)\s+|"
    # "close out the patch, also the netscaler one": one more thing the same verb takes
    r"\s*[,;]\s*(?:also|plus)\s+(?=(?:the|that|this|my|his|her)\s)|"
    # "I'm taking the hunt task, make it high priority too"; "...; also move its due date"
    r"\s*[,;]\s*(?:also\s+)?(?=(?:make|set|mark|move|push|bump|assign|give|hand|add|leave|put|"
    r"close|complete|finish|resolve|rename|comment|note|tell\s+(?:everyone|everybody|the\s+team))\b)",
    re.I,
)
ANOTHER = re.compile(
    r"^(?:and|also|plus|oh and)?\s*,?\s*(?:one\s+(?:more|called)\s+|another\s+(?:one\s+)?"
    r"(?:called\s+)?)?[\"“'‘](?P<t>[^\"”'’]+)[\"”'’]\s*,?\s*(?:too|as\s+well|also)?\b"
    r"(?:\s*,?\s*(?:in\s+)?(?:the\s+)?same\s+project)?\W*$",
    re.I,
)
"""A follow-up naming only a new title ("and 'Train the sales team' too, same project")."""
CREATED = re.compile(r"Create the task '(?P<t>[^']+)' in '(?P<p>[^']+)'")
"""How a proposed or done creation is told, for the follow-up that repeats it."""
PROJECT_LEAD = re.compile(
    r"^(?:in\s+|for\s+|on\s+)?(?:the\s+)?(?P<p>(?:[\w.&'-]+\s+){0,2}[\w.&'-]+)\s+project\s*:\s*"
    r"(?P<rest>.+)$",
    re.I,
)
"""A request led by the project it is about: "vpn project: new task ..."."""
TASK_FOR = re.compile(
    r"^(?:an?\s+|new\s+)?(?:task|todo|to-do)\s+for\s+(?P<p>me|[a-z][\w.-]*)\s*:\s*(?P<t>.+)$", re.I
)
ANOTHER_REQUEST = re.compile(
    r"^(?:please\s+)?(?:assign|give|hand|mark|close|complete|finish|resolve|unblock|comment|ping|"
    r"tell|notify|remind|message|bump|rename|delete|remove|reopen|leave\s+a|add\s+a\s+(?:comment|"
    r"note)|let\s+\w+\s+know)\b",
    re.I,
)
"""The start of a second request in a message ("... and then ping bob in a comment")."""
QUOTED_INTO = re.compile(
    r"^(?P<v>add|put|create)\s+(?P<t>[\"“'‘][^\"”'’]+[\"”'’])\s+(?:to|in|into|under)\s+(?:the\s+)?"
    r"(?P<where>.+?)(?P<tail>(?:\s*,|\s+and\b|\s+due\b|\s+by\b).*)?$",
    re.I,
)
"""A quoted title put somewhere: a new task when the place is a project."""
PROJECT_TASK = re.compile(
    r"^(?P<lead>(?:i\s+(?:want|need)|we\s+need|create|add|make|open|file|start)\s+(?:a\s+|an\s+)?"
    r"(?:new\s+)?|(?:a\s+)?new\s+(?=[\w-]+(?:\s+[\w-]+)?\s+(?:task|todo|to-do)\s*[:,-]?\s*[\"“'‘]))"
    r"(?P<where>[\w-]+(?:\s+[\w-]+)?)\s+(?:task|todo|to-do)\b(?P<rest>.*)$",
    re.I,
)
"""A new task named by its project's word: "i want a new vpn task - ...", or with no verb
before "new" when a quoted title follows ('new vpn task "Audit MFA", high priority')."""
_CAN_DO = (
    r"(?:manage|edit|change|modify|create|make|update|write|delete|touch|handle|assign|close|"
    r"complete)\s+(?:any\s+|the\s+)?(?:tasks|projects|blockers|comments|things|stuff|anything|"
    r"the\s+workspace|changes)(?:\s+(?:for\s+me|here|at\s+all))?"
)
_READ_ONLY = (
    r"(?:just\s+|only\s+)?(?:read[-\s]?only|view[-\s]?only|only\s+(?:reading|looking|read|view|"
    r"see|look)|just\s+(?:reading|looking|read|view|see|look))(?:\s+access)?"
    # "... or only read them?": what is only read, said again
    r"(?:\s+(?:at\s+)?(?:them|it|things|stuff|tasks|projects))?"
)
CAPABILITIES = re.compile(
    # "(can you) manage tasks, or are you read-only?": the policy has taken "can you" off
    rf"^(?:(?:can|could|do|will|are)\s+you\s+(?:(?:be\s+)?(?:able|allowed|permitted)\s+to\s+|"
    rf"even\s+|actually\s+|also\s+)?)?{_CAN_DO}\s*,?\s*or\s+(?:are\s+you\s+|is\s+it\s+)?"
    rf"{_READ_ONLY}\W*$|"
    rf"^(?:(?:can|could|do|will|are)\s+you\s+)?(?:(?:be\s+)?(?:able|allowed|permitted)\s+to\s+|"
    rf"even\s+|actually\s+|also\s+)?{_CAN_DO}\s*\?\s*$|"
    rf"^are\s+you\s+{_READ_ONLY}\W*$|"
    # "can u do stuff like close tasks or whatever": what it can do, asked by an example
    r"^(?:(?:can|could|do|will)\s+(?:you|u|ya)\s+)?(?:do|help\s+with)\s+(?:stuff|things|"
    rf"anything|work)\s+like\s+{_CAN_DO}(?:\s*,?\s*(?:or\s+(?:whatever|something|anything|"
    r"so|like\s+that)|etc\.?|and\s+(?:stuff|so\s+on|the\s+like)))?\W*$|"
    r"^do\s+you\s+have\s+(?:write|edit|read[-\s]?only)\s+(?:access|rights|permissions?)\W*$",
    re.I,
)
"""A question about what the assistant may do ("can you manage tasks, or are you read-only?"):
told what it can do, no look-up and no question back."""
