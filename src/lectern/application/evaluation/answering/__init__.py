"""Evaluation of the answering workflows: knowledge-base replies on ClapNQ, research citations.

Replies (ClapNQ dev: 300 answerable and 300 unanswerable questions over one collection of
their passages):
- `should_reply` precision (replied questions that were answerable), recall (answerable
  questions replied to) and balanced accuracy (mean of recall and of the unanswerable
  questions left unanswered);
- on replied answerable questions: the share whose reply cites a gold `selected_sentences`
  sentence (a cited quote that is a piece of a gold sentence, or holds one, after the
  citation rule's folding) and the SQuAD token F1 of the reply against the gold answer;
- citation validity: every returned quote re-read against its document in the store;
- latency p50/p95 of `replier.ask`;
- the baseline: a BM25 top-score threshold, tuned on the same data (and on one half, then
  applied to the other).
The questions are split into two halves (stratified, by a hash of the id): thresholds are
tuned on `tune` and every figure is reported on `held_out` and on all.

Research (hand-written KEV/ATT&CK questions with gold record ids): cited-source precision
and recall per question, and whether the gold records were retrieved at all.

Transfer: hand-written support questions over the FastAPI documentation (answerable, and
technical or off-topic questions the documentation does not answer), run with the floor
tuned on ClapNQ; nothing is tuned on them.

The package holds one module per evaluation: `replies` (ClapNQ and the support questions),
`twins` (perturbed twins), `research` and `artifact` (a run's figures and targets). Every
public name is re-exported here.
"""

from lectern.application.evaluation.answering.artifact import (
    TARGETS,
    answering_artifact,
    records_json,
    targets_met,
)
from lectern.application.evaluation.answering.replies import (
    CLAPNQ_FILES,
    SUPPORT_FILE,
    ClapnqCase,
    ReplyEvaluation,
    ReplyRecord,
    best_threshold,
    bm25_baseline,
    cites_gold,
    decision_figures,
    halves,
    load_clapnq,
    load_support_questions,
    reflection_figures,
    relevance_sweep,
    reply_body,
    reply_figures,
    token_f1,
    transfer_figures,
)
from lectern.application.evaluation.answering.research import (
    RESEARCH_DEV2_FILE,
    RESEARCH_DEV_FILE,
    RESEARCH_FILE,
    RESEARCH_SETS,
    ResearchCase,
    ResearchRecord,
    load_research_questions,
    research_figures,
    research_records,
)
from lectern.application.evaluation.answering.twins import (
    perturbed_cases,
    perturbed_figures,
    threshold_baseline,
)

__all__ = [
    "CLAPNQ_FILES",
    "ClapnqCase",
    "RESEARCH_DEV2_FILE",
    "RESEARCH_DEV_FILE",
    "RESEARCH_FILE",
    "RESEARCH_SETS",
    "ReplyEvaluation",
    "ReplyRecord",
    "ResearchCase",
    "ResearchRecord",
    "SUPPORT_FILE",
    "TARGETS",
    "answering_artifact",
    "best_threshold",
    "bm25_baseline",
    "cites_gold",
    "decision_figures",
    "halves",
    "load_clapnq",
    "load_research_questions",
    "load_support_questions",
    "perturbed_cases",
    "perturbed_figures",
    "records_json",
    "reflection_figures",
    "relevance_sweep",
    "reply_body",
    "reply_figures",
    "research_figures",
    "research_records",
    "targets_met",
    "threshold_baseline",
    "token_f1",
    "transfer_figures",
]
