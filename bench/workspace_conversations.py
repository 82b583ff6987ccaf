"""The workspace conversation set through the configured assistant model, on real documents.

Each case gets a fresh catalog database (its own workspace, pending actions and sessions)
seeded with the demo workspace, whose VPN project links the KEV and ATT&CK documents of the
data directory's `kev` and `attack` collections (`make demo-collections` adds them).

    LECTERN_DATA_DIR=var python bench/workspace_conversations.py [--sample N]

LECTERN_ASSISTANT_PROVIDER picks the model (rules by default; `local` for the in-process
GGUF model, loaded once and shared by every case).
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
from pathlib import Path

from lectern.application.evaluation.workspace import (
    WorkspaceWorld,
    load_workspace_conversations,
    run_workspace_set,
)
from lectern.application.workspace.demo import DEMO_ATTACK, DEMO_KEV, DemoUsers, seed_demo
from lectern.application.workspace.ports import ReviewJob
from lectern.bootstrap import bootstrap
from lectern.settings import load_settings


class NoReviews:
    def enqueue(self, job: ReviewJob) -> str:
        del job
        return "not-run"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sample", type=int, default=0, help="Run every Nth case only.")
    args = parser.parse_args()
    settings = load_settings()
    shared = bootstrap(settings)
    collections = shared.collections()
    model = shared.chat_model()
    links = []
    for label in (*DEMO_KEV, *DEMO_ATTACK):
        resolved = collections.resolve(f"[{label}]")
        links.append((resolved.document.collection, resolved.document.id))
    scratch = Path(tempfile.mkdtemp(prefix="lectern-workspace-bench-"))
    numbers = itertools.count(1)

    def make_world() -> WorkspaceWorld:
        case_settings = settings.model_copy(
            update={"catalog_url": f"sqlite:///{scratch / f'case-{next(numbers)}.db'}"}
        )
        services = bootstrap(
            case_settings, collections=collections, review_queue=NoReviews(), chat_model=model
        )
        workspace = services.workspace()
        demo = seed_demo(workspace, DemoUsers(viewer="vera"), links)
        rival = workspace.create_organization("mallory", "Umbrella")
        project = workspace.create_project("mallory", rival.id, "Umbrella secrets")
        task = workspace.create_task("mallory", project.id, "Steal the formula")
        return WorkspaceWorld(workspace, services.assistant(), demo, project.id, task.id)

    cases = load_workspace_conversations()
    if args.sample:
        cases = cases[:: args.sample]
    started = time.perf_counter()
    report = run_workspace_set(cases, make_world)
    seconds = time.perf_counter() - started
    for outcome in report.outcomes:
        if not outcome.ok:
            print(f"MISS {outcome.id}: {'; '.join(outcome.problems)}")
    heldout = [o for o, c in zip(report.outcomes, cases, strict=True) if c.id.startswith("heldout")]
    print(
        f"{report.cases} cases ({len(heldout)} held out): tools and arguments "
        f"{report.tools_right}/{report.cases} ({report.share(report.tools_right):.1%}), "
        f"end state {report.state_right}/{report.cases} ({report.share(report.state_right):.1%}), "
        f"both {report.both_right}; {seconds / max(report.cases, 1) * 1000:.0f} ms a case"
    )


if __name__ == "__main__":
    main()
