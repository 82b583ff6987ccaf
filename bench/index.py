"""Index build of the full catalog: a full rebuild, then an unchanged re-index.

Each run is the real `lectern index` command in its own process (wall time from outside,
peak RSS of that process). Needs an ingested catalog in the data directory.

Usage: python bench/index.py
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path


def run(*args: str) -> tuple[float, float, str]:
    """Wall seconds, peak MB of the child, and its last output line."""
    lectern = Path(sys.executable).parent / "lectern"
    started = time.perf_counter()
    done = subprocess.run(
        [str(lectern), "index", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "200"},
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"lectern index {' '.join(args)} failed:\n{done.stderr}")
    # The largest child so far: the full build runs first, so this is its peak.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return seconds, peak, done.stdout.strip().splitlines()[-1]


def main() -> None:
    full, full_peak, full_line = run("--rebuild")
    print(f"full index build: {full:.1f} s wall, peak RSS {full_peak:.0f} MB")
    print(f"  {full_line}")
    again, _, again_line = run()
    print(f"unchanged re-index: {again:.1f} s wall (process start included)")
    print(f"  {again_line}")


if __name__ == "__main__":
    main()
