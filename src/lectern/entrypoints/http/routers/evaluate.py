"""Evaluation runs over HTTP: start one in the background, poll it, list them."""

from __future__ import annotations

from fastapi import APIRouter, Response

from lectern.application.evaluation.runner import RunConfig
from lectern.entrypoints.http.deps import AppServices, Search
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.schemas import (
    EvaluateAccepted,
    EvaluateRequest,
    RunStatusOut,
    RunSummaryOut,
)

router = APIRouter(
    prefix="/evaluate",
    tags=["evaluation"],
    responses=documented(400, 401, 413, 422, 429, 503),
)


@router.post("", status_code=202, responses=documented(409), response_model=EvaluateAccepted)
def evaluate(body: EvaluateRequest, service: Search, services: AppServices) -> Response:
    """Start an evaluation run in the background (one at a time); poll its status URL."""
    del service  # the run searches with the loaded indexes; 503 until they are
    run_id = services.evaluation().start(
        RunConfig(
            config=body.config,
            disabled=tuple(dict.fromkeys(body.disable)),
            force_strategy=body.force_strategy,
            judge_repeats=body.judge_repeats,
            limit=body.limit,
            mmr_lambda=services.settings.mmr_lambda,
        )
    )
    accepted = EvaluateAccepted(
        run_id=run_id, status="running", status_url=f"/evaluate/runs/{run_id}"
    )
    return Response(
        accepted.model_dump_json(),
        status_code=202,
        media_type="application/json",
        headers={"Location": accepted.status_url},
    )


@router.get("/runs")
def runs(services: AppServices) -> list[RunSummaryOut]:
    """Stored runs, newest first."""
    return [RunSummaryOut.model_validate(s) for s in services.evaluation().store.list()]


@router.get(
    "/runs/{run_id}",
    responses={**documented(404), 202: {"model": RunStatusOut}},
    response_model=RunStatusOut,
)
def run_status(run_id: str, services: AppServices) -> Response:
    """A run's status; when finished, its whole artifact (202 while it runs)."""
    status, artifact, error = services.evaluation().status(run_id)
    body = RunStatusOut(run_id=run_id, status=status, error=error, artifact=artifact)
    return Response(
        body.model_dump_json(),
        status_code=202 if status == "running" else 200,
        media_type="application/json",
    )
