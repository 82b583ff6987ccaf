"""POST /search: hybrid search with verified quotes and planning."""

from __future__ import annotations

from fastapi import APIRouter, Response

from lectern.application.understanding import plan_query
from lectern.entrypoints.http.deps import AppServices, Search
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.schemas import SearchOut, SearchRequest, json_response

router = APIRouter(tags=["search"], responses=documented(400, 401, 413, 422, 429, 503))


@router.post("/search", response_model=SearchOut)
def search(body: SearchRequest, service: Search, services: AppServices) -> Response:
    """Hybrid search, with verified quotes (`use_explanations`) and planning (`understand`).

    With `understand`, filters, variations and a strategy are read from the text first;
    the response's `plan` says what was understood; `ignore` leaves parts of it out. With
    `fallback`, a search that robust signals find wanting goes to the fallback agent; the
    response's `fallback` says why and what the agent did.
    """
    query = body.to_domain()
    plan = (
        plan_query(services.understanding(), query.text, body.ignore) if body.understand else None
    )
    mmr_lambda = body.mmr_lambda if "mmr_lambda" in body.model_fields_set else ...
    use_fallback = body.fallback if body.fallback is not None else services.settings.search_fallback
    if use_fallback:
        response = services.fallback_search().search_with_fallback(
            query, strategy=body.strategy, mmr_lambda=mmr_lambda, plan=plan
        )
    else:
        response = service.search(query, strategy=body.strategy, mmr_lambda=mmr_lambda, plan=plan)
    return json_response(SearchOut.of(response))
