"""Console output: a command's answer on stdout, logs on stderr (text on a terminal)."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import structlog

from lectern.observability import configure_logging


def _chat(tmp_path: Path, env: dict[str, str], stderr: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lectern", "chat", "-m", "find books about whales"],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        timeout=120,
        check=False,
        env={
            **os.environ,
            "COLUMNS": "200",
            "LECTERN_DATA_DIR": str(tmp_path / "var"),
            "LECTERN_LOG_LEVEL": "INFO",
            **env,
        },
    )


def _no_log_line(stdout: str) -> None:
    assert stdout.strip(), "the answer is on stdout"
    for line in stdout.splitlines():
        assert "assistant turn" not in line and not line.lstrip().startswith('{"'), line


def test_chat_answers_on_stdout_and_logs_json_on_stderr_when_not_a_terminal(
    tmp_path: Path,
) -> None:
    result = _chat(tmp_path, {}, subprocess.PIPE)

    assert result.returncode == 0, result.stderr
    _no_log_line(result.stdout)
    events = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    assert any(event["event"] == "assistant turn" for event in events)


def test_chat_logs_text_on_a_terminal_and_json_when_asked(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    try:
        result = _chat(tmp_path, {}, follower)
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65_536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if follower != -1:
            os.close(follower)
        os.close(leader)
    terminal = b"".join(chunks).decode("utf-8", "replace")

    assert result.returncode == 0
    _no_log_line(result.stdout)
    turn = [line for line in terminal.splitlines() if "assistant turn" in line]
    assert turn and not turn[0].lstrip().startswith("{"), terminal

    forced = _chat(tmp_path, {"LECTERN_LOG_FORMAT": "json"}, subprocess.PIPE)
    _no_log_line(forced.stdout)
    assert any('"event": "assistant turn"' in line for line in forced.stderr.splitlines())


def test_the_format_follows_the_stream_unless_set() -> None:
    saved = structlog.get_config()

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    try:
        for stream, fmt, json_expected in (
            (Terminal(), "auto", False),
            (io.StringIO(), "auto", True),
            (Terminal(), "json", True),
            (io.StringIO(), "text", False),
        ):
            configure_logging("INFO", fmt, stream)  # type: ignore[arg-type]
            structlog.get_logger().info("probe", n=1)
            line = stream.getvalue().strip()
            assert line.startswith("{") is json_expected, (fmt, line)
            assert "probe" in line
    finally:
        structlog.configure(**saved)
