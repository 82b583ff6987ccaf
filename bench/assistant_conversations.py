"""The assistant on the scripted conversation set (src/lectern/evaluation/).

    LECTERN_DATA_DIR=/path/to/var python bench/assistant_conversations.py [--out FILE]
        [--provider local --sample 7]

`--provider` picks the assistant's model (the rule policy by default; `local` is the
in-process GGUF model, `make local-llm`); `--sample N` runs every Nth case only.

The catalog database is copied to a temporary folder first (the cases create lists,
ratings and corrections); indexes are read from the data directory. Prints tool accuracy,
end-state accuracy and the failures; `--out` writes the whole report as JSON.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tests.fakes import RecordingTracer

from lectern.application.assistant.books import resolve_book
from lectern.application.evaluation.assistant import ConversationRunner, load_conversations
from lectern.bootstrap import bootstrap
from lectern.errors import LecternError
from lectern.settings import load_settings


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path)
    parser.add_argument("--cases", type=Path, help="another conversation file")
    parser.add_argument("--provider", default="rules", help="LECTERN_ASSISTANT_PROVIDER")
    parser.add_argument("--sample", type=int, default=0, help="run every Nth case only")
    args = parser.parse_args()
    settings = load_settings()
    with tempfile.TemporaryDirectory(prefix="lectern-assistant-eval-") as folder:
        copy = Path(folder) / "catalog.db"
        shutil.copy(settings.data_dir / "catalog.db", copy)
        services = bootstrap(
            load_settings(catalog_url=f"sqlite:///{copy}", assistant_provider=args.provider),
            tracer=RecordingTracer(),
        )
        assistant = services.assistant()

        def resolve(title: str) -> str | None:
            try:
                return str(resolve_book(services.tool_deps(), title).id)
            except LecternError:
                return None

        runner = ConversationRunner(assistant, services.library(), services.catalog, resolve)
        started = time.perf_counter()
        cases = load_conversations(args.cases)
        if args.sample:
            cases = cases[:: args.sample]
        report = runner.run(cases)
        report["seconds"] = round(time.perf_counter() - started, 2)
    print(
        f"{report['cases']} cases: tool accuracy {report['tool_accuracy']:.1%}, "
        f"end-state accuracy {report['state_accuracy']:.1%}, both {report['both']:.1%} "
        f"({report['mean_seconds'] * 1000:.0f} ms a case)"
    )
    for kind, counts in report["by_kind"].items():
        total = counts["cases"]
        print(f"  {kind:10} {counts['tools']}/{total} tools, {counts['state']}/{total} state")
    for failure in report["failures"]:
        print(f"FAIL {failure['id']}: {failure['problems']}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
