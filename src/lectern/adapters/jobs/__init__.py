"""Background jobs: the review queue on Redis (rq) and an in-process fallback."""
