"""`/jobs/{id}`: an upload job's state, for its owner only (anyone else: 404).

Uploads (`POST /collections/{name}/documents`, `POST /projects/{id}/uploads`) answer 202
with the job (`Location: /jobs/{id}`); `?wait=true` waits up to LECTERN_UPLOAD_WAIT_SECONDS
and answers as before the queue (201 with the report, or the refusal's problem) when the
job finished by then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from lectern.application.upload_jobs import UploadJob
from lectern.bootstrap import Services
from lectern.entrypoints.http.deps import AppServices, CurrentUser
from lectern.entrypoints.http.job_schemas import AcceptedOut, JobOut
from lectern.entrypoints.http.problems import documented
from lectern.errors import LecternError, UploadRejectedError

router = APIRouter(tags=["jobs"], responses=documented(401, 404, 429))


@router.get("/jobs/{job_id}")
def job(job_id: str, services: AppServices, user: CurrentUser) -> JobOut:
    """One of the caller's upload jobs: status, progress, and its result or errors."""
    return JobOut.of(services.upload_jobs().get(user, job_id))


async def answer(
    services: Services,
    user: str,
    job: UploadJob,
    *,
    wait: bool,
    result_body: Callable[[Mapping[str, Any]], dict[str, Any]],
) -> JSONResponse:
    """202 with the job; with `wait`, the old answer when the job finished in time.

    `result_body` maps a succeeded job's result to the old 201 body (a dict).
    """
    if wait:
        seconds = services.settings.upload_wait_seconds
        job = await run_in_threadpool(services.upload_jobs().wait, user, job.id, seconds)
        if job.status == "succeeded" and job.result is not None:
            body = {**result_body(job.result), "job": JobOut.of(job).model_dump(mode="json")}
            return JSONResponse(body, status_code=201, headers={"Location": f"/jobs/{job.id}"})
        if job.status == "failed":
            if job.error_code is not None:
                raise UploadRejectedError(job.error or "the upload was refused", job.error_code)
            raise LecternError(job.error or "the upload failed")
    accepted = AcceptedOut(job=JobOut.of(job))
    return JSONResponse(
        accepted.model_dump(mode="json"),
        status_code=202,
        headers={"Location": f"/jobs/{job.id}"},
    )
