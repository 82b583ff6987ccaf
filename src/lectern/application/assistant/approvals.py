"""Pending actions from preview to decision: by id, at most once, before expiry, unchanged.

Approval, step by step:
1. the action is looked up by id AND owner (another user's id is "not found");
2. a decided action is refused ("already decided"); a pending one past `expires_at` is
   marked `expired` and refused;
3. an action whose entity depends on another pending action (add to a list not yet created)
   is refused and stays pending;
4. ONE conditional update approves and claims it, `pending -> executing` with a lease
   (this process as owner, `lease` seconds), only if still pending and unexpired: of two
   concurrent approvals exactly one gets the row, the other is told "already decided";
5. the stored input's digest is checked against the digest stored at preview time;
6. the entity's state is read again and compared with the preview's `old_state`: when it
   changed, the action fails with "changed since preview" and a fresh preview is stored;
7. the tool runs with the stored input and the action's id as its idempotency key, and the
   lease holder ends the action `executed` or `failed`.

A crash between 4 and 7 leaves the action `executing` with a lease that runs out. The
recovery pass (`recover`, run at start-up and on a timer) claims each such action (and any
`approved` one an older version left) and settles it from the entity's state, which every
action tool can read: the new state already there -> `executed` (it ran before the crash);
the old state still there -> it runs now, once (or `failed` when it expired meanwhile);
anything else -> `failed`, nothing run. Creating tools carry ids fixed at preview time (or
the idempotency key), so even a re-run that races a slow original cannot write twice.

An automatic reviewer may be registered per tool (a correction's check against the book's
source records): it runs when the preview is stored and its review is attached to the
action for the approver. A reviewer that fails leaves a `failed` review; the action stays
pending and approvable either way, and nothing a review says is read as an instruction.
"""

from __future__ import annotations

import builtins
import os
import socket
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import structlog

from lectern.application.assistant.ports import AssistantObserver, PendingActionStore
from lectern.application.assistant.registry import ToolRegistry
from lectern.application.assistant.tools import ActionTool, ToolContext
from lectern.domain.assistant import (
    IN_FLIGHT,
    ActionPreview,
    ActionStatus,
    PendingAction,
    args_digest,
)
from lectern.domain.books import JSONValue
from lectern.errors import (
    ActionAlreadyDecidedError,
    ActionChangedError,
    ActionConflictError,
    ActionExpiredError,
    ActionNotFoundError,
    LecternError,
)

log = structlog.get_logger(__name__)

ActionReviewer = Callable[[ActionPreview], JSONValue]
"""Reviews a preview for its approver; returns the review as JSON (raises on failure)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What a decision did: the action as it ended, and what its tool returned."""

    action: PendingAction
    result: JSONValue


class Approvals:
    """Stores previews as pending actions and carries out their owners' decisions."""

    def __init__(
        self,
        store: PendingActionStore,
        registry: ToolRegistry,
        *,
        ttl: timedelta,
        clock: Callable[[], datetime],
        new_id: Callable[[], str],
        observer: AssistantObserver | None = None,
        reviewers: Mapping[str, ActionReviewer] | None = None,
        lease: timedelta = timedelta(seconds=60),
        owner: str | None = None,
    ) -> None:
        """Actions live `ttl` after their preview; `reviewers` review previews by tool name.

        An approved action is leased to `owner` (this process) for `lease` while it runs;
        past it, the recovery pass may take the action over.
        """
        self.lease = lease
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.reviewers = dict(reviewers or {})
        self.store = store
        self.registry = registry
        self.ttl = ttl
        self.clock = clock
        self.new_id = new_id
        self.observer = observer

    def propose(self, preview: ActionPreview, user: str, conversation: str) -> PendingAction:
        """Store a preview as a pending action, with its input's digest and expiry."""
        now = self.clock()
        action = PendingAction(
            id=self.new_id(),
            user=user,
            conversation=conversation,
            preview=preview,
            args_digest=args_digest(preview.tool_name, preview.tool_input),
            status="pending",
            created_at=now,
            expires_at=now + self.ttl,
        )
        self.store.add(action)
        self._count("pending")
        reviewer = self.reviewers.get(preview.tool_name)
        if reviewer is None:
            return action
        # Run beside the preview, not on the review queue: the approver sees the review
        # with the card, and it reads local records only (milliseconds, no model).
        review: JSONValue
        try:
            review = reviewer(preview)
        except Exception as error:  # noqa: BLE001 - a failed review never blocks the action
            log.warning("action review failed", action=action.id, error=str(error))
            review = {"status": "failed", "error": f"{type(error).__name__}: {error}"}
        try:
            self.store.set_review(action.id, review)
        except Exception as error:  # noqa: BLE001 - the action stands without its review
            log.warning("action review not stored", action=action.id, error=str(error))
            return action
        return replace(action, review=review)

    def get(self, user: str, action_id: str) -> PendingAction:
        """The user's action; ActionNotFoundError for an unknown id or another user's."""
        action = self.store.get(user, action_id)
        if action is None:
            raise ActionNotFoundError(f"no action {action_id!r}")
        return action

    def list(self, user: str, *, pending_only: bool = False) -> list[PendingAction]:
        """The user's actions (pending ones past expiry are shown as expired)."""
        now = self.clock()
        actions = self.store.list(user, status="pending" if pending_only else None)
        for action in actions:
            if action.status == "pending" and action.is_expired(now):
                self._expire(action, now)
        return self.store.list(user, status="pending" if pending_only else None)

    def approve(self, user: str, action_id: str) -> Decision:
        """Run the action once, with its previewed input, if nothing stands in the way."""
        stranded = self._settle_if_stranded(user, action_id)
        if stranded is not None:
            return Decision(stranded, stranded.result)
        action = self._open(user, action_id)
        tool = self._tool(action)
        context = ToolContext(user, action.conversation, self.clock(), idempotency_key=action.id)
        tool.state(action.preview.tool_input, context)  # ActionNotReadyError: stays pending
        now = self.clock()
        if not self.store.claim(
            user,
            action_id,
            from_status="pending",
            owner=self.owner,
            lease_until=now + self.lease,
            now=now,
            unexpired=True,
        ):
            self._refuse_lost_race(user, action_id, now)
        self._count("approved")
        if args_digest(action.preview.tool_name, action.preview.tool_input) != action.args_digest:
            self._fail(action, {"error": "input_changed"}, now)
            raise ActionConflictError(
                f"action {action_id} no longer holds the input it was previewed with; "
                "nothing was run"
            )
        try:
            current = tool.state(action.preview.tool_input, context)
        except LecternError as error:
            self._fail(action, {"error": str(error)}, now)
            raise
        if current != action.preview.old_state:
            self._fail(action, {"error": "changed_since_preview", "current": current}, now)
            fresh = self._fresh_preview(tool, action, context)
            raise ActionChangedError(
                f"{action.preview.description}: changed since the preview; nothing was run"
                + (f". A fresh preview is waiting: action {fresh.id}" if fresh else ""),
                fresh.id if fresh else None,
            )
        try:
            result = tool.execute(action.preview.tool_input, context)
        except Exception as error:  # noqa: BLE001 - a failed tool ends the action as failed
            log.warning("action failed", action=action_id, tool=tool.name, error=str(error))
            failure: JSONValue = {"error": f"{type(error).__name__}: {error}"}
            self._fail(action, failure, self.clock())
            return Decision(self.get(user, action_id), failure)
        self._finish(action, "executed", result)
        return Decision(self.get(user, action_id), result)

    def recover(self) -> Sequence[PendingAction]:
        """Settle every stranded action (idempotent; safe beside other processes).

        Returns the actions this call settled, as they ended.
        """
        settled: builtins.list[PendingAction] = []
        for action in self.store.stranded(self.clock()):
            ended = self._recover_one(action)
            if ended is not None:
                settled.append(ended)
        if settled:
            log.info(
                "stranded actions recovered",
                actions=len(settled),
                executed=sum(a.status == "executed" for a in settled),
                failed=sum(a.status == "failed" for a in settled),
            )
        return settled

    def reject(self, user: str, action_id: str) -> Decision:
        """Mark the action rejected; nothing runs."""
        stranded = self._settle_if_stranded(user, action_id)
        if stranded is not None:
            raise ActionAlreadyDecidedError(
                f"action {action_id} was approved before an interruption and is now "
                f"{stranded.status}; it can no longer be rejected"
            )
        action = self._open(user, action_id)
        now = self.clock()
        if not self.store.transition(
            user, action_id, from_status="pending", to_status="rejected", now=now
        ):
            self._refuse_lost_race(user, action_id, now)
        self._count("rejected")
        result: JSONValue = {"rejected": action.preview.description}
        return Decision(self.get(user, action_id), result)

    # --- helpers --------------------------------------------------------------------------

    def _open(self, user: str, action_id: str) -> PendingAction:
        """The user's action while it can still be decided."""
        action = self.get(user, action_id)
        if action.status in IN_FLIGHT:
            raise ActionAlreadyDecidedError(
                f"action {action_id} was approved and is being carried out; it will end "
                "executed or failed"
            )
        if action.status != "pending":
            raise ActionAlreadyDecidedError(f"action {action_id} was already {action.status}")
        now = self.clock()
        if action.is_expired(now):
            self._expire(action, now)
            raise ActionExpiredError(
                f"action {action_id} expired at {action.expires_at.isoformat()}; ask again "
                "for a fresh preview"
            )
        return action

    def _refuse_lost_race(self, user: str, action_id: str, now: datetime) -> None:
        """Another decision (or expiry) got to the row first: say which."""
        latest = self.get(user, action_id)
        if latest.status == "pending" and latest.is_expired(now):
            self._expire(latest, now)
            raise ActionExpiredError(f"action {action_id} expired before it was approved")
        raise ActionAlreadyDecidedError(f"action {action_id} was already {latest.status}")

    def _tool(self, action: PendingAction) -> ActionTool:
        tool = self.registry.action(action.preview.tool_name)
        if tool is None:
            raise ActionConflictError(
                f"action {action.id} needs the tool {action.preview.tool_name!r}, "
                "which this installation does not have"
            )
        return tool

    def _expire(self, action: PendingAction, now: datetime) -> None:
        if self.store.transition(
            action.user, action.id, from_status="pending", to_status="expired", now=now
        ):
            self._count("expired")

    def _fail(self, action: PendingAction, result: JSONValue, now: datetime) -> None:
        if self.store.finish(
            action.user, action.id, owner=self.owner, to_status="failed", now=now, result=result
        ):
            self._count("failed")

    def _finish(self, action: PendingAction, status: ActionStatus, result: JSONValue) -> None:
        """End the leased action; a lease lost to recovery leaves the ending to it."""
        if self.store.finish(
            action.user,
            action.id,
            owner=self.owner,
            to_status=status,
            now=self.clock(),
            result=result,
        ):
            self._count(status)
        else:
            log.warning("action lease lost before it ended", action=action.id, status=status)

    def _settle_if_stranded(self, user: str, action_id: str) -> PendingAction | None:
        """The action settled now when a crash left it in flight past its lease."""
        action = self.get(user, action_id)
        if action.status not in IN_FLIGHT:
            return None
        now = self.clock()
        if action.status == "executing" and (
            action.lease_until is not None and action.lease_until > now
        ):
            return None  # still running somewhere: `_open` says so
        self._recover_one(action)
        return self.get(user, action_id)

    def _recover_one(self, action: PendingAction) -> PendingAction | None:
        """Claim one stranded action and settle it from its entity's state."""
        now = self.clock()
        if not self.store.claim(
            action.user,
            action.id,
            from_status=action.status,
            owner=self.owner,
            lease_until=now + self.lease,
            now=now,
        ):
            return None  # another process took it over first
        tool = self.registry.action(action.preview.tool_name)
        if tool is None:
            self._fail(action, {"error": "interrupted", "detail": "tool not installed"}, now)
            return self.store.get(action.user, action.id)
        context = ToolContext(action.user, action.conversation, now, idempotency_key=action.id)
        preview = action.preview
        try:
            current = tool.state(preview.tool_input, context)
        except Exception as error:  # noqa: BLE001 - an unreadable entity fails the action
            self._fail(action, {"error": "interrupted", "detail": f"{error}"}, now)
            return self.store.get(action.user, action.id)
        if current == preview.new_state and current != preview.old_state:
            self._finish(action, "executed", {"recovered": True, "ran_before_interruption": True})
        elif current != preview.old_state:
            failure: JSONValue = {"error": "interrupted_and_changed", "current": current}
            self._fail(action, failure, now)
        elif action.is_expired(now):
            self._fail(action, {"error": "interrupted_and_expired"}, now)
        elif args_digest(preview.tool_name, preview.tool_input) != action.args_digest:
            self._fail(action, {"error": "input_changed"}, now)
        else:
            try:
                result = tool.execute(preview.tool_input, context)
            except Exception as error:  # noqa: BLE001 - a failed tool ends the action as failed
                failed: JSONValue = {"error": f"{type(error).__name__}: {error}"}
                self._fail(action, failed, self.clock())
            else:
                self._finish(action, "executed", {"recovered": True, "result": result})
        return self.store.get(action.user, action.id)

    def _fresh_preview(
        self, tool: ActionTool, action: PendingAction, context: ToolContext
    ) -> PendingAction | None:
        """The same request previewed against the entity as it is now, if it still applies."""
        try:
            args = tool.parse(tool.arguments_of(action.preview.tool_input))
            preview = tool.preview(args, context)
        except LecternError:
            return None
        return self.propose(preview, action.user, action.conversation)

    def _count(self, status: str) -> None:
        if self.observer is not None:
            self.observer.action(status)
