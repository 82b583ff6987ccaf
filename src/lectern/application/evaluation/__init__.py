"""Evaluation: IR metrics now; judged query sets, judges and ablations later."""
