"""Structured logs on stderr: text on a terminal, JSON lines otherwise.

Logs never share stdout with a command's answer, so `lectern chat -m ... > reply.txt` holds
the reply alone, and a terminal shows readable lines instead of JSON.
"""

from __future__ import annotations

import logging
import sys
from typing import Literal, TextIO

import structlog

LogFormat = Literal["auto", "text", "json"]


def resolve_format(log_format: LogFormat, stream: TextIO) -> Literal["text", "json"]:
    """`auto` is text when `stream` is a terminal and JSON otherwise."""
    if log_format != "auto":
        return log_format
    isatty = getattr(stream, "isatty", None)
    return "text" if callable(isatty) and isatty() else "json"


def configure_logging(
    level: str, log_format: LogFormat = "auto", stream: TextIO | None = None
) -> None:
    """Send structlog events to `stream` (stderr), filtered at `level`, as text or JSON."""
    numeric = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    target = stream if stream is not None else sys.stderr
    renderer: structlog.types.Processor = (
        structlog.dev.ConsoleRenderer(colors=False)
        if resolve_format(log_format, target) == "text"
        else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=target),
        cache_logger_on_first_use=False,
    )
