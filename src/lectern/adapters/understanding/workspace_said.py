"""A workspace message in the words the workspace rules read, before any of them runs.

People write to a project's assistant in their own words; each step here turns one such
construct into the words the rules already read, and leaves everything else as it was.
They run in this order, for a reader who has projects to speak of:

1. tracker words (`workspace_shorthand.tracker_words_read`): "the phishing backlog", "a
   story", "the done column";
2. everyday names for stored things compared by meaning (`workspace_everyday`): "the
   fake-email test" is the phishing drill;
3. a heading that names nothing stored (`workspace_heading`): "end of day stuff: comment
   ..., move ..." is its requests;
4. a question framed as a wish to know (`workspace_asked_within`): "can you tell me which
   blockers are open" asks which blockers are open;
5. a weekday with its day of the month (`slots.weekday_with_its_day`): "next friday, the
   13th" is the 13th;
6. a subject pointed at for a search (`workspace_search_pointed`): "someone wrote something
   about a lab gateway? search for it" searches "lab gateway";
7. a blocker told as cleared with what cleared it (`workspace_cleared_told`): "blocker's
   cleared, hotfix went in last night" resolves it with "hotfix went in last night";
8. a member named by their display name (`workspace_members_named`): "put the Builder on the
   hunt" puts bob on it;
9. one change said once for the tasks listed after it (`workspace_listed_objects`): "move all
   his stuff to alice - the patch and the drill" moves each;
10. what the reader says they are doing now (`workspace_doing_now`): "I'm taking the hunt and
   starting on it" assigns it to them and starts it;
11. two due dates, the second's verb left out (`workspace_gapped_due`): "runbook due 1 dec,
   and the hunt in 3 days";
12. the parts of a task's details listed after the request (`workspace_details_listed`);
13. a request pointing back at pasted or framed words (`workspace_framed_request`): '"@bob can
   u take the review?" he said yes, make it official' assigns it to bob;
14. a new task's title after a dash (`workspace_dash_title`): "new task in vpn - brief ...";
15. a heading naming the task the requests after it are about (`workspace_task_heading`):
   "three things on the hunt: record a blocker ..., comment '...', and make it high";
16. one look-up for two projects in turn (`workspace_places_in_order`): "all of bob's tasks -
   vpn first, then phishing".
"""

from __future__ import annotations

from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.slots import weekday_with_its_day
from lectern.adapters.understanding.workspace_asked_within import asked_within
from lectern.adapters.understanding.workspace_cleared_told import cleared_told
from lectern.adapters.understanding.workspace_dash_title import dash_title
from lectern.adapters.understanding.workspace_details_listed import details_unlisted
from lectern.adapters.understanding.workspace_doing_now import doing_now
from lectern.adapters.understanding.workspace_everyday import by_everyday_names
from lectern.adapters.understanding.workspace_framed_request import framed_request
from lectern.adapters.understanding.workspace_gapped_due import gapped_due
from lectern.adapters.understanding.workspace_heading import without_heading
from lectern.adapters.understanding.workspace_listed_objects import listed_objects
from lectern.adapters.understanding.workspace_members_named import members_named
from lectern.adapters.understanding.workspace_places_in_order import places_in_order
from lectern.adapters.understanding.workspace_search_pointed import search_pointed
from lectern.adapters.understanding.workspace_shorthand import tracker_words_read
from lectern.adapters.understanding.workspace_task_heading import task_heading


def workspace_said(text: str, names: Names, layer: Understanding | None) -> str:
    """`text` with each construct above read as the rules read it."""
    text = by_everyday_names(layer, tracker_words_read(text), names)
    text = weekday_with_its_day(asked_within(without_heading(text, names)))
    text = search_pointed(text) or text
    text = members_named(cleared_told(text) or text, names)
    text = gapped_due(doing_now(listed_objects(text, names), names), names)
    text = dash_title(framed_request(details_unlisted(text), names), names)
    return places_in_order(task_heading(text, names), names)
