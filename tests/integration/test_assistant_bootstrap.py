"""bootstrap wires the assistant: SQL actions and lists in the catalog DB, sessions, flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.sessions.memory import InMemorySessions
from lectern.adapters.sessions.redis_sessions import RedisSessions
from lectern.bootstrap import bootstrap
from lectern.errors import AssistantDisabledError
from lectern.settings import Settings
from tests.fakes import FakeLibrary, FakePendingActions


def test_default_wiring_keeps_actions_in_the_catalog_database(tmp_path: Path) -> None:
    services = bootstrap(Settings(data_dir=tmp_path / "var"))
    assistant = services.assistant()
    (action,) = assistant.chat("local", "create a list called Summer").actions
    restarted = bootstrap(Settings(data_dir=tmp_path / "var"))  # a new process
    restarted.assistant().approve("local", action.id)
    assert [r.name for r in restarted.library().lists("local")] == ["Summer"]
    assert isinstance(services.sessions(), InMemorySessions)
    assert b"lectern_assistant_actions_total" in services.metrics.exposition()


def test_ports_can_be_overridden(tmp_path: Path) -> None:
    library, actions = FakeLibrary(), FakePendingActions()
    services = bootstrap(
        Settings(data_dir=tmp_path / "var"), library=library, pending_actions=actions
    )
    services.assistant().chat("alice", "create a list called Summer")
    assert [a.preview.tool_name for a in actions.actions.values()] == ["create_list"]


def test_settings_choose_sessions_provider_and_the_flag(tmp_path: Path) -> None:
    redis = bootstrap(Settings(data_dir=tmp_path, redis_url="redis://127.0.0.1:6379/0"))
    assert isinstance(redis.sessions(), RedisSessions)
    local = bootstrap(Settings(data_dir=tmp_path, assistant_provider="local")).chat_model()
    assert local.model_id.startswith("local:")  # the weights load on the first call
    off = bootstrap(Settings(data_dir=tmp_path, assistant_enabled=False)).assistant()
    with pytest.raises(AssistantDisabledError):
        off.chat("local", "hello")
    masked = Settings(data_dir=tmp_path, assistant_provider="openai")
    assert masked.assistant_masks_pii and not Settings(data_dir=tmp_path).assistant_masks_pii
