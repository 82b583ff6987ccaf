"""One change said once for the tasks listed after it ("move his stuff to alice - X and Y").

"bob's out, move all his stuff to alice - the check point patch and the drill" says its change
once, with a word that stands for the tasks ("all his stuff", "both", "these", "his tasks"),
and lists the tasks after a dash or a colon. Read whole, only the first task listed was
moved. The change is said again for each task listed, in the place of the standing-in
words: "move the check point patch to alice and move the drill to alice". Only when every
item listed names a stored task (two or three of them, each a different one): "move his
stuff to alice - he is out all week" is left as it was.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB

_STANDING_IN = (
    r"(?:all\s+(?:of\s+)?)?(?:(?:his|her|their|my|our|[a-z]+['’]s)\s+)?"
    r"(?:(?:open\s+|other\s+|remaining\s+)?(?:stuff|tasks|things|work|items|tickets)|"
    r"both(?:\s+of\s+them)?|these(?:\s+two|\s+three)?|those(?:\s+two|\s+three)?|them(?:\s+all)?)"
)
_SAID_ONCE = re.compile(
    r"^(?P<polite>(?:(?:please|pls|can\s+you|could\s+you)\s+)*)"
    rf"(?P<lead>{CHANGE_VERB}\s+)"
    rf"(?P<them>{_STANDING_IN})(?P<rest>(?:\s+(?:to|over\s+to|on|onto|as|back\s+to)\s+[^-–—:,]+?)?)"
    r"\s*(?:[-–—]+|:)\s+(?P<listed>.+?)\W*$",
    re.I,
)
_ITEM_JOINT = re.compile(r"\s*,\s*(?:and\s+)?|\s+(?:and|&|\+)\s+", re.I)


def listed_objects(text: str, names: Names) -> str:
    """`text` with a change said once for the tasks listed after it said for each of them."""
    said = _SAID_ONCE.match(text.strip())
    if said is None:
        return text
    items = [i.strip() for i in _ITEM_JOINT.split(said.group("listed")) if i.strip()]
    tasks = names.of("task")
    found = [find_in(item, tasks).name for item in items]
    if not 2 <= len(items) <= 3 or None in found or len(set(found)) != len(found):
        return text
    lead, rest = said.group("lead"), said.group("rest")
    changes = " and ".join(f"{lead}{item}{rest}" for item in items)
    return f"{said.group('polite')}{changes}"
