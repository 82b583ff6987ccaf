"""`PendingActionStore` on SQLAlchemy Core: the catalog database (SQLite or PostgreSQL).

Every status change is one `UPDATE ... WHERE id = :id AND user = :user AND status = :from`
(and `expires_at > :now` when approving): the database decides which of two concurrent
approvals wins, and the loser's update touches no row. An approval claims the row as
`executing` with a lease (owner, lease_until); only the lease holder ends it, and the
recovery pass takes over rows whose lease ran out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from lectern.adapters.catalog.tables import pending_actions
from lectern.domain.assistant import (
    ActionPreview,
    ActionStatus,
    FieldDiff,
    PendingAction,
    canonical_json,
)
from lectern.domain.books import JSONValue


def utc(moment: datetime) -> datetime:
    """A moment in UTC; naive values (SQLite hands them back so) are taken as UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _guarded(user: str, action_id: str, status: ActionStatus) -> sa.Update:
    """An UPDATE of one of the user's actions that applies only while it is in `status`."""
    table = pending_actions
    return table.update().where(
        table.c.id == action_id, table.c.user == user, table.c.status == status
    )


def _stored(moment: datetime) -> datetime:
    """What is written: UTC (SQLite's text form drops the zone and still sorts in order)."""
    return utc(moment)


class SqlAlchemyPendingActions:
    """The `pending_actions` table (created by migration 0004 with the catalog)."""

    def __init__(self, engine: Engine) -> None:
        """Share the catalog's engine; the catalog has already migrated the schema."""
        self.engine = engine

    def add(self, action: PendingAction) -> None:
        """Store a new pending action."""
        preview = action.preview
        with self.engine.begin() as connection:
            connection.execute(
                pending_actions.insert().values(
                    id=action.id,
                    user=action.user,
                    conversation=action.conversation,
                    tool_name=preview.tool_name,
                    description=preview.description,
                    tool_input=canonical_json(dict(preview.tool_input)),
                    args_digest=action.args_digest,
                    entity_type=preview.entity_type,
                    entity_id=preview.entity_id,
                    old_state=canonical_json(preview.old_state),
                    new_state=canonical_json(preview.new_state),
                    diff=canonical_json(
                        [{"field": d.field, "old": d.old, "new": d.new} for d in preview.diff]
                    ),
                    status=action.status,
                    created_at=_stored(action.created_at),
                    expires_at=_stored(action.expires_at),
                    decided_at=_stored(action.decided_at) if action.decided_at else None,
                    result=None if action.result is None else canonical_json(action.result),
                    review=None if action.review is None else canonical_json(action.review),
                )
            )

    def set_review(self, action_id: str, review: JSONValue) -> None:
        """Attach the automatic review (its status is untouched: still approvable)."""
        with self.engine.begin() as connection:
            connection.execute(
                pending_actions.update()
                .where(pending_actions.c.id == action_id)
                .values(review=canonical_json(review))
            )

    def get(self, user: str, action_id: str) -> PendingAction | None:
        """The user's action with this id; another user's is None, as an unknown id is."""
        statement = sa.select(pending_actions).where(
            pending_actions.c.id == action_id, pending_actions.c.user == user
        )
        with self.engine.connect() as connection:
            row = connection.execute(statement).first()
        return _action(row._mapping) if row is not None else None

    def list(
        self, user: str, *, status: ActionStatus | None = None, conversation: str | None = None
    ) -> list[PendingAction]:
        """The user's actions, oldest first."""
        statement = sa.select(pending_actions).where(pending_actions.c.user == user)
        if status is not None:
            statement = statement.where(pending_actions.c.status == status)
        if conversation is not None:
            statement = statement.where(pending_actions.c.conversation == conversation)
        statement = statement.order_by(pending_actions.c.created_at, pending_actions.c.id)
        with self.engine.connect() as connection:
            return [_action(row._mapping) for row in connection.execute(statement)]

    def transition(
        self,
        user: str,
        action_id: str,
        *,
        from_status: ActionStatus,
        to_status: ActionStatus,
        now: datetime,
        unexpired: bool = False,
        result: JSONValue = None,
    ) -> bool:
        """One conditional UPDATE; True when this call changed the row."""
        table = pending_actions
        statement = _guarded(user, action_id, from_status).values(
            status=to_status, decided_at=_stored(now)
        )
        if unexpired:
            statement = statement.where(table.c.expires_at > _stored(now))
        if result is not None:
            statement = statement.values(result=canonical_json(result))
        with self.engine.begin() as connection:
            return connection.execute(statement).rowcount == 1

    def claim(
        self,
        user: str,
        action_id: str,
        *,
        from_status: ActionStatus,
        owner: str,
        lease_until: datetime,
        now: datetime,
        unexpired: bool = False,
    ) -> bool:
        """One conditional UPDATE to `executing`, leased to `owner`; True when it won."""
        table = pending_actions
        statement = _guarded(user, action_id, from_status).values(
            status="executing", lease_owner=owner, lease_until=_stored(lease_until)
        )
        if from_status == "pending":
            statement = statement.values(decided_at=_stored(now))
        if from_status == "executing":
            statement = statement.where(
                sa.or_(table.c.lease_until.is_(None), table.c.lease_until <= _stored(now))
            )
        if unexpired:
            statement = statement.where(table.c.expires_at > _stored(now))
        with self.engine.begin() as connection:
            return connection.execute(statement).rowcount == 1

    def finish(
        self,
        user: str,
        action_id: str,
        *,
        owner: str,
        to_status: ActionStatus,
        now: datetime,
        result: JSONValue,
    ) -> bool:
        """`executing` (held by `owner`) -> `to_status` with its result; True when it won."""
        statement = (
            _guarded(user, action_id, "executing")
            .where(pending_actions.c.lease_owner == owner)
            .values(
                status=to_status,
                decided_at=_stored(now),
                result=canonical_json(result),
                lease_until=None,
            )
        )
        with self.engine.begin() as connection:
            return connection.execute(statement).rowcount == 1

    def stranded(self, now: datetime) -> Sequence[PendingAction]:
        """Every user's actions left `approved`, or `executing` past their lease."""
        table = pending_actions
        statement = (
            sa.select(table)
            .where(
                sa.or_(
                    table.c.status == "approved",
                    sa.and_(
                        table.c.status == "executing",
                        sa.or_(table.c.lease_until.is_(None), table.c.lease_until <= _stored(now)),
                    ),
                )
            )
            .order_by(table.c.created_at, table.c.id)
        )
        with self.engine.connect() as connection:
            return [_action(row._mapping) for row in connection.execute(statement)]


def _action(row: Any) -> PendingAction:
    preview = ActionPreview(
        tool_name=row["tool_name"],
        description=row["description"],
        entity_type=row["entity_type"],
        entity_id=row["entity_id"],
        tool_input=json.loads(row["tool_input"]),
        old_state=json.loads(row["old_state"]),
        new_state=json.loads(row["new_state"]),
        diff=tuple(FieldDiff(d["field"], d["old"], d["new"]) for d in json.loads(row["diff"])),
    )
    return PendingAction(
        id=row["id"],
        user=row["user"],
        conversation=row["conversation"],
        preview=preview,
        args_digest=row["args_digest"],
        status=row["status"],
        created_at=utc(row["created_at"]),
        expires_at=utc(row["expires_at"]),
        decided_at=utc(row["decided_at"]) if row["decided_at"] is not None else None,
        result=json.loads(row["result"]) if row["result"] is not None else None,
        review=json.loads(row["review"]) if row["review"] is not None else None,
        lease_owner=row["lease_owner"],
        lease_until=utc(row["lease_until"]) if row["lease_until"] is not None else None,
    )
