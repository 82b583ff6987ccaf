"""A resolution told before the request, with a clock time in it (rule policy + the layer).

dev18: "vendor finally gave us a maintenance window, saturday 02:00. clear the blocker" was
resolved with "00. clear the blocker" (the time's colon read as the one leading the text);
"resolve it" after the blockers were listed asked which one. Phrasings of our own beside.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from tests.workspace_world import conversation_worlds

TOLD = {
    # dev18
    "vendor finally gave us a maintenance window, saturday 02:00. clear the blocker": "02:00",
    "mw confirmed w/ vendor for thu 22:00 utc, resolve the check point blocker": "22:00 utc",
    # our own
    "check point gave us friday 23:30 for the window. please close the vendor blocker": "23:30",
    "vendor confirmed 01:00 sunday, lift the maintenance window blocker": "01:00 sunday",
    "got the slot: monday 6:30. resolve the maintenance window blocker": "6:30",
}


@pytest.mark.parametrize("said", list(TOLD))
def test_a_time_told_before_the_request_is_in_the_resolution(
    tmp_path: Path, layer: Understanding, said: str
) -> None:
    world = conversation_worlds(tmp_path, RulePolicy(layer=layer))()
    reply = world.assistant.chat("alice", said)
    [call] = reply.tool_calls
    assert call.name == "resolve_blocker", said
    resolution = str(call.arguments["resolution"])
    assert TOLD[said] in resolution, resolution
    assert not any(w in resolution.casefold() for w in ("resolve", "clear", "close", "lift")), said
