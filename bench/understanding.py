"""What the understanding layer adds per message, against today's policies, in one run.

    python bench/understanding.py [--repeat 3]

Every message of the dev split (book assistant and workspace) goes through the rule policy's
first step twice: without the layer (today's patterns, a miss is a book search) and with it
(the packaged MiniLM, examples cached on disk). The system prompt carries a names block like
the demo workspace's. Prints p50/p95 per message for both and the added p95, as figures and
as a ratio. The machine may be shared: the figures are per run, not a promise.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import CONVERSATIONAL, EXAMPLES
from lectern.adapters.understanding.intents import packaged_classifier
from lectern.adapters.understanding.layer import Understanding
from lectern.application.assistant.names import NAMES_HEADER
from lectern.application.evaluation.metrics import percentile
from lectern.domain.assistant import Message, ToolSpec

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "src" / "lectern" / "evaluation" / "understanding" / "dev"
NAMES = "\n".join(
    [
        NAMES_HEADER,
        "- reader: alice",
        "- project: VPN gateway hardening",
        "- project: Phishing awareness",
        "- task: Patch the Check Point gateways",
        "- task: Review NetScaler session tokens",
        "- task: Hunt for unusual VPN logins",
        "- task: Write the incident runbook",
        "- task: Schedule the phishing drill",
        "- blocker: Waiting for the vendor maintenance window",
        "- member: alice (Alice Analyst)",
        "- member: bob (Bob Builder)",
        "- member: vera (Vera Viewer)",
        "- list: Summer",
        "- list: Halloween",
    ]
)
TOOLS = [ToolSpec(name, "", {"type": "object"}) for name in EXAMPLES if name not in CONVERSATIONAL]


def messages() -> list[str]:
    """Every message of the dev split's book assistant and workspace sets."""
    found = []
    for case in json.loads((DEV / "assistant.json").read_text())["cases"]:
        found += case.get("turns") or [case["request"]]
    for case in json.loads((DEV / "workspace.json").read_text())["cases"]:
        found += [turn["say"] for turn in case["turns"]]
    return found


def timed(policy: RulePolicy, texts: list[str], repeat: int) -> list[float]:
    """Milliseconds of the first step, per message (the best of `repeat` runs).

    The layer keeps recent messages' vectors; they are dropped before every run, so each run
    times a message's first read (its embedding included).
    """
    system = f"The reader is on the home page.\n\n{NAMES}"
    times = []
    for text in texts:
        best = float("inf")
        for _ in range(repeat):
            if policy.layer is not None:
                policy.layer.classifier.forget_messages()
            started = time.perf_counter()
            policy.complete_with_tools([Message("user", text)], TOOLS, system=system)
            best = min(best, (time.perf_counter() - started) * 1000)
        times.append(best)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = messages()
    with tempfile.TemporaryDirectory() as cache:
        layer = Understanding(
            packaged_classifier(OnnxMiniLMEmbedder(threads=1), EXAMPLES, Path(cache))
        )
        today = timed(RulePolicy(), texts, args.repeat)
        with_layer = timed(RulePolicy(layer=layer), texts, args.repeat)
    for label, times in (("today's policy", today), ("with the layer", with_layer)):
        print(
            f"{label:15} {len(times)} messages: p50 {percentile(times, 0.5):.2f} ms, "
            f"p95 {percentile(times, 0.95):.2f} ms"
        )
    added = percentile(with_layer, 0.95) - percentile(today, 0.95)
    ratio = percentile(with_layer, 0.95) / max(percentile(today, 0.95), 1e-9)
    print(f"added p95: {added:.2f} ms ({ratio:.1f}x today's p95); target <= 30 ms added")


if __name__ == "__main__":
    main()
