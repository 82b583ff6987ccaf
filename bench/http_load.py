"""HTTP load: 8 concurrent clients POST /search against `lectern serve` on 127.0.0.1.

Two runs of --seconds each: without explanations, then with extractive explanations. Prints
throughput, p50/p95/p99 latency and errors for each. The server runs as the real command in
its own process (rate limit raised for the run: every client shares one address); the
clients run here, on the same 2 cores, so the figures include their cost.

Usage: python bench/http_load.py [--seconds 30] [--clients 8] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from lectern.application.evaluation.metrics import percentile
from lectern.entrypoints.http.probe import free_port, wait_until_ready

QUERIES = [
    "dark fantasy heist in a magical city",
    "a cozy mystery in a small english village",
    "dystopian young adult novel with a rebellion",
    "space opera with political intrigue",
    "history of the roman empire",
    "psychological thriller with an unreliable narrator",
    "epic fantasy with dragons",
    "memoir of a chef",
    "science fiction about mars",
    "gothic romance in a haunted house",
    "detective in 1920s london",
    "vampires in high school",
    "post apocalyptic survival",
    "cold war spy thriller",
    "greek mythology retelling",
    "novela de misterio",
    "harry potter",
    "stephen king",
    "jane austen",
    "artificial intelligence robots",
]
FILTERS = [{}, {"min_year": 2000}, {"language": "en"}, {"category": "fantasy"}, {}]


def _run(url: str, seconds: float, clients: int, explain: bool) -> None:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(number: int) -> None:
        # http.client, the lightest standard client, so that the load generator takes as
        # little as possible of the shared 2 cores. A new connection per request, as a
        # client behind a load balancer would arrive: kept-alive connections stay pinned to
        # whichever server worker accepted them, however busy it is.
        host, port = url.removeprefix("http://").split(":")
        n = number
        while time.monotonic() < stop:
            body = json.dumps(
                {
                    "text": QUERIES[n % len(QUERIES)],
                    "filters": FILTERS[n % len(FILTERS)],
                    "use_explanations": explain,
                }
            )
            n += clients
            started = time.perf_counter()
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
            try:
                connection.request("POST", "/search", body, {"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                problem = None if response.status == 200 else f"HTTP {response.status}"
            except (OSError, http.client.HTTPException) as error:
                problem = type(error).__name__
            finally:
                connection.close()
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                if problem is None:
                    latencies.append(elapsed)
                else:
                    errors.append(problem)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started
    name = "with explanations (extractive)" if explain else "without explanations"
    print(
        f"POST /search {name}: {len(latencies)} ok in {wall:.1f} s = "
        f"{len(latencies) / wall:.1f} req/s with {clients} clients; "
        f"p50 {percentile(latencies, 0.5):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms, "
        f"p99 {percentile(latencies, 0.99):.1f} ms, "
        f"mean {statistics.fmean(latencies or [0]):.1f} ms; "
        f"errors {len(errors)}" + (f" ({sorted(set(errors))})" if errors else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="lectern serve --workers")
    args = parser.parse_args()
    port = free_port()
    lectern = Path(sys.executable).parent / "lectern"
    env = {**os.environ, "LECTERN_RATE_LIMIT": "1000000/minute", "LECTERN_LOG_LEVEL": "WARNING"}
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
        _run(url, 3, args.clients, explain=False)
        _run(url, args.seconds, args.clients, explain=False)
        _run(url, args.seconds, args.clients, explain=True)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
