"""Small real collections for the answering tests (hashed vectors, real everything else).

`kb`: two FastAPI tutorial pages, a team note and FAQ records with URLs (sources
`kb:<rel_path>`, `team:<file>`, `kb:<url>`). `threats`: a few CISA KEV records and ATT&CK
techniques read from ../shared/data at test time (nothing is copied into the repository).
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from lectern.adapters.knowledge_index import JsonKnowledgeIndexStore
from lectern.application.answering.knowledge import (
    KnowledgeBases,
    LeadSentenceSummarizer,
    SelectionConfig,
)
from lectern.application.collections import CollectionService
from tests.collection_wiring import SHARED, collection_service

TEAM_NOTE = """# Deploying Lectern

We deploy the API with uvicorn behind nginx on two hosts.

## Restarting

Restart the service with systemctl restart lectern after a configuration change. The
health check lives at /health/ready and answers 503 until the indexes are loaded.
"""

FAQ = [
    {
        "id": "faq-rate-limit",
        "question": "Why do I get 429 Too Many Requests?",
        "answer": "Every client may make 300 requests a minute by default. Over the limit the "
        "API answers 429 with a Retry-After header.",
        "url": "https://docs.example.org/faq/rate-limits",
    },
    {
        "id": "faq-api-keys",
        "question": "How do API keys work?",
        "answer": "Send your key in the X-API-Key header. Keys map to users, and each user has "
        "its own rate limit.",
        "url": "https://docs.example.org/faq/api-keys",
    },
]
FAQ_MAPPING = """name: faq
format: json
files: ["faq.json"]
records: null
id: id
title: "{question}"
text: |
  {question}
  {answer}
url: "{url}"
"""

KEV_IDS = (
    "CVE-2021-44228",
    "CVE-2021-45046",
    "CVE-2017-5638",
    "CVE-2024-3400",
    "CVE-2023-4966",
    "CVE-2014-0160",
    "CVE-2020-1472",
    "CVE-2022-30190",
)
ATTACK_IDS = ("T1003", "T1003.001", "T1558.003", "T1059.001", "T1486", "T1550.002")


def kb_sources(root: Path) -> tuple[Path, Path, Path]:
    """(docs folder, FAQ folder, FAQ mapping file) under `root`."""
    docs = root / "docs"
    (docs / "tutorial").mkdir(parents=True)
    (docs / "team").mkdir()
    for page in ("query-params.md", "path-params.md"):
        shutil.copy(SHARED / "kb/fastapi-docs/docs/tutorial" / page, docs / "tutorial")
    (docs / "team" / "deploy-notes.md").write_text(TEAM_NOTE, encoding="utf-8")
    faq = root / "faq"
    faq.mkdir()
    (faq / "faq.json").write_text(json.dumps(FAQ), encoding="utf-8")
    mapping = root / "faq.yaml"
    mapping.write_text(FAQ_MAPPING, encoding="utf-8")
    return docs, faq, mapping


def kb_collection(data_dir: Path, root: Path) -> CollectionService:
    """A collection service holding the `kb` collection."""
    service = collection_service(data_dir)
    docs, faq, mapping = kb_sources(root)
    service.add("kb", docs)
    service.add("kb", faq, mapping=str(mapping))
    return service


def threat_sources(root: Path) -> tuple[Path, Path]:
    """(KEV folder, ATT&CK folder): subsets of the shared files, written under `root`."""
    kev = root / "kev"
    kev.mkdir()
    catalog = json.loads(
        (SHARED / "threat/cisa-kev/known_exploited_vulnerabilities.json").read_text("utf-8")
    )
    catalog["vulnerabilities"] = [v for v in catalog["vulnerabilities"] if v["cveID"] in KEV_IDS]
    (kev / "known_exploited_vulnerabilities.json").write_text(json.dumps(catalog), "utf-8")
    attack = root / "attack"
    attack.mkdir()
    source = SHARED / "threat/mitre-attack"
    kept_ids = set()
    with (attack / "enterprise-attack-pattern.jsonl").open("w", encoding="utf-8") as out:
        for line in (source / "enterprise-attack-pattern.jsonl").read_text("utf-8").splitlines():
            item = json.loads(line)
            refs = item.get("external_references") or [{}]
            if refs[0].get("external_id") in ATTACK_IDS:
                kept_ids.add(item["id"])
                out.write(line + "\n")
    for name in ("enterprise-course-of-action.jsonl", "enterprise-intrusion-set.jsonl"):
        shutil.copy(source / name, attack / name)
    with gzip.open(source / "enterprise-relationship.jsonl.gz", "rt", encoding="utf-8") as raw:
        kept = [line for line in raw if json.loads(line).get("target_ref") in kept_ids]
    with gzip.open(attack / "enterprise-relationship.jsonl.gz", "wt", encoding="utf-8") as out:
        out.writelines(kept)
    return kev, attack


def threats_collection(data_dir: Path, root: Path) -> CollectionService:
    """A collection service holding the `threats` collection (KEV and ATT&CK subsets)."""
    service = collection_service(data_dir)
    kev, attack = threat_sources(root)
    service.add("threats", kev, mapping="cisa-kev")
    service.add("threats", attack, mapping="mitre-attack")
    return service


def knowledge_bases(
    service: CollectionService, folder: Path, min_relevance: float = 0.15
) -> KnowledgeBases:
    """Knowledge bases over the service; the hashed vectors need a lower floor than MiniLM's."""
    return KnowledgeBases(
        service,
        JsonKnowledgeIndexStore(folder),
        LeadSentenceSummarizer(),
        SelectionConfig(min_relevance=min_relevance, min_coverage=0.5),
    )
