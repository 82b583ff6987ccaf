"""The understanding sets' surfaces and splits.

Names only, so the CLI offers them without loading the evaluation (its imports are heavy).
"""

from __future__ import annotations

SURFACES = ("assistant", "workspace", "guideline", "kb")
SPLITS = ("dev", "test")
"""The splits `--split all` runs."""
MORE_SPLITS = (
    "dev2",
    "test2",
    "dev3",
    "dev4",
    "test3",
    "dev5",
    "test4",
    "dev6",
    "test5",
    "dev7",
    "test6",
    "dev8",
    "test7",
    "dev9",
    "test8",
    "dev10",
    "test9",
    "dev11",
    "test10",
    "dev12",
    "test11",
    "dev13",
    "test12",
    "dev14",
    "test13",
    "dev15",
    "test14",
    "dev16",
    "test15",
    "dev17",
    "test16",
    "dev18",
    "test17",
    "dev19",
    "test18",
    "dev20",
    "test19",
    "dev21",
    "test20",
)
"""Run only when named: the second pool's halves (pool-v2), the third pool (pool-v3, dev3:
book assistant and workspace only, for tuning) and the fourth pool's halves (pool-v4, dev4 for
tuning and test3 held out) and the fifth pool's halves (pool-v5, book assistant and workspace
only: dev5 for tuning and test4 held out), the sixth pool's halves (pool-v6, guideline chat
and KB reply only: dev6 for tuning and test5 held out) the seventh pool's halves (pool-v7,
book assistant and workspace only: dev7 for tuning and test6 held out), the eighth pool's
halves (pool-v8, all four surfaces: dev8 for tuning and test7 held out), the ninth pool's
(pool-v9, book assistant and workspace only: dev9 for tuning and test8 held out) and the tenth
pool's (pool-v10, the same two surfaces: dev10 for tuning and test9 held out) and the eleventh
pool's (pool-v11, the same two: dev11 for tuning and test10 held out) and the twelfth pool's
(pool-v12, the same two: dev12 for tuning and test11 held out), the thirteenth pool's
(pool-v13, all four: dev13 / test12) and the fourteenth pool's (pool-v14, book assistant and
workspace only: dev14 for tuning and test13 held out) and the fifteenth pool's (pool-v15, the
same two: dev15 for tuning and test14 held out) and the sixteenth pool's (pool-v16, the same
two: dev16 for tuning and test15 held out) and the seventeenth pool's (pool-v17, guideline
chat and KB reply only: dev17 for tuning and test16 held out) and the eighteenth pool's
(pool-v18, book assistant and workspace only: dev18 for tuning and test17 held out) and the
nineteenth pool's (pool-v19, the same two: dev19 for tuning and test18 held out) and the
twentieth pool's (pool-v20, all four surfaces: dev20 for tuning and test19 held out) and the
twenty-first pool's (pool-v21, all four surfaces: dev21 for tuning and test20 held out)."""
SPLIT_CHOICES = (*SPLITS, *MORE_SPLITS, "all")
"""What `lectern evaluate understanding --split` takes."""
TUNING_SPLITS = tuple(s for s in ("dev", *MORE_SPLITS) if s.startswith("dev") and s != "dev6")
"""The dev splits with book assistant and workspace requests (dev6 has only guideline and KB
questions): what the intent model is fitted on and what `tools/understanding_cases.py` runs."""
