"""A client of the guideline chat written against its specification's stream format only.

It needs nothing but httpx: POST /chat/stream, read `data:` lines, print each
`{"token": ...}` as it comes, and on `{"done": true, ...}` print the citations and flags.

Usage: python tools/guide_client.py [--url http://127.0.0.1:8000] [--key KEY]
       [--session ID] [--top-k 5] [--profile nist] [--json] QUESTION
Exit status: 0 after `done`; 1 when the stream ends without it or reports an error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

import httpx


def events(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The JSON payloads of a Server-Sent Events stream (comment lines are heartbeats)."""
    data: list[str] = []
    for line in lines:
        if line == "":
            if data:
                yield json.loads("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    if data:
        yield json.loads("\n".join(data))


def ask(
    url: str,
    question: str,
    *,
    key: str | None = None,
    session: str | None = None,
    top_k: int = 5,
    profile: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Each event of one streamed answer."""
    body: dict[str, Any] = {"message": question, "top_k": top_k}
    if session:
        body["session_id"] = session
    if profile:
        body["profile"] = profile
    headers = {"Accept": "text/event-stream"}
    if key:
        headers["X-API-Key"] = key
    with httpx.stream(
        "POST", f"{url.rstrip('/')}/chat/stream", json=body, headers=headers, timeout=300
    ) as response:
        if response.status_code != 200:
            response.read()
            raise SystemExit(f"HTTP {response.status_code}: {response.text}")
        yield from events(response.iter_lines())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("question")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--key")
    parser.add_argument("--session")
    parser.add_argument("--profile")
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the done event as JSON")
    args = parser.parse_args(argv)
    tokens = 0
    for event in ask(
        args.url,
        args.question,
        key=args.key,
        session=args.session,
        top_k=args.top_k,
        profile=args.profile,
    ):
        if "token" in event:
            tokens += 1
            print(event["token"], end="", flush=True)
        if event.get("done"):
            print()
            if args.json:
                print(json.dumps({**event, "tokens": tokens}))
            else:
                for citation in event.get("citations", []):
                    print(f"  {citation['label']}: \"{citation['snippet']}\"")
                print(f"  flags: {', '.join(event.get('grounding_flags', [])) or 'none'}")
                print(f"  session: {event.get('session_id')}")
            return 1 if "error" in event else 0
    print("\nthe stream ended without a done event", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
