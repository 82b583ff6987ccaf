"""Chat load: concurrent streamed chats (POST /assistant/chat, text/event-stream) against
`lectern serve` on 127.0.0.1 with the offline rule policy.

Each client opens a stream, reads it to the `done` event, and starts the next chat. Prints
chats per second, p50/p95 time to the first event and to `done`, and errors (non-200
answers, `error` events, streams that end without `done`). The server runs as the real
command in its own process over the configured data directory (rate limits raised for the
run: every client shares one address); the clients run here, on the same cores.

The messages only read (searches, questions, "books like"): no action is proposed, so the
catalog database is not written.

Usage: python bench/chat_load.py [--seconds 30] [--clients 8] [--workers 1]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from lectern.application.evaluation.metrics import percentile
from lectern.entrypoints.http.probe import free_port, wait_until_ready

MESSAGES = [
    "find three cozy mysteries after 2000",
    "who wrote Dune?",
    "books like The Hobbit",
    "what is Gilead about?",
    "find science fiction about mars",
    "a dark fantasy heist in a magical city",
    "find books about the roman empire",
    "when was Pride and Prejudice published?",
    "recommend a psychological thriller with an unreliable narrator",
    "books like The Hunger Games",
    "find a novela de misterio in Spanish",
    "what language is Cien años de soledad written in?",
]


@dataclass
class Figures:
    first_event_ms: list[float] = field(default_factory=list)
    done_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _one_chat(host: str, port: int, message: str, figures: Figures) -> None:
    body = json.dumps({"message": message})
    started = time.perf_counter()
    first: float | None = None
    connection = http.client.HTTPConnection(host, port, timeout=60)
    problem = None
    try:
        connection.request(
            "POST",
            "/assistant/chat",
            body,
            {"Content-Type": "application/json", "Accept": "text/event-stream"},
        )
        response = connection.getresponse()
        if response.status != 200:
            problem = f"HTTP {response.status}"
            response.read()
        else:
            event = None
            done = False
            for raw in response:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line.startswith("event:"):
                    event = line.partition(":")[2].strip()
                elif line == "" and event is not None:
                    if first is None:
                        first = time.perf_counter()
                    if event == "error":
                        problem = "error event"
                    if event == "done":
                        done = True
                        break
                    event = None
            if not done and problem is None:
                problem = "no done event"
    except (OSError, http.client.HTTPException) as error:
        problem = type(error).__name__
    finally:
        connection.close()
    ended = time.perf_counter()
    with figures.lock:
        if problem is not None:
            figures.errors.append(problem)
            return
        figures.first_event_ms.append(((first or ended) - started) * 1000)
        figures.done_ms.append((ended - started) * 1000)


def _run(url: str, seconds: float, clients: int) -> Figures:
    figures = Figures()
    host, port = url.removeprefix("http://").split(":")
    stop = time.monotonic() + seconds

    def client(number: int) -> None:
        n = number
        while time.monotonic() < stop:
            _one_chat(host, int(port), MESSAGES[n % len(MESSAGES)], figures)
            n += clients

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return figures


def _report(figures: Figures, wall: float, clients: int) -> None:
    done = len(figures.done_ms)
    print(
        f"{done} streamed chats in {wall:.1f} s = {done / wall:.1f} chats/s with {clients} "
        f"clients; first event p50 {percentile(figures.first_event_ms, 0.5):.0f} ms, "
        f"p95 {percentile(figures.first_event_ms, 0.95):.0f} ms; done p50 "
        f"{percentile(figures.done_ms, 0.5):.0f} ms, p95 {percentile(figures.done_ms, 0.95):.0f} "
        f"ms; errors {len(figures.errors)}"
        + (f" ({sorted(set(figures.errors))})" if figures.errors else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1, help="lectern serve --workers")
    args = parser.parse_args()
    port = free_port()
    lectern = Path(sys.executable).parent / "lectern"
    env = {
        **os.environ,
        "LECTERN_RATE_LIMIT": "1000000/minute",
        "LECTERN_RATE_LIMIT_CHAT": "1000000/minute",
        "LECTERN_ASSISTANT_PROVIDER": "rules",
        "LECTERN_LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [str(lectern), "serve", "--port", str(port), "--workers", str(args.workers)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        if not wait_until_ready(url, 120, alive=lambda: server.poll() is None):
            reason = server.stderr.read() if server.poll() is not None and server.stderr else ""
            sys.exit(f"lectern serve did not become ready in 120 s {reason}")
        print(f"lectern serve --workers {args.workers} on {url}; warming up")
        _run(url, 3, args.clients)
        started = time.monotonic()
        figures = _run(url, args.seconds, args.clients)
        _report(figures, time.monotonic() - started, args.clients)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
