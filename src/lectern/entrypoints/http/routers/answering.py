"""`POST /kb/reply` (answer from a collection, or stay silent) and `POST /research`.

An unknown collection (or another organization's project collection) is 404, a bad body
422 (problem details); a reply that fails inside the graph is still 200 with
`should_reply: false` and the reason in `error`.
"""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from lectern.domain.answering import Conversation, ConversationMessage, RequestContext
from lectern.entrypoints.http.answering_schemas import (
    AIResultOut,
    KBReplyIn,
    QueryResponseOut,
    ResearchIn,
)
from lectern.entrypoints.http.deps import AppServices, CurrentUser
from lectern.entrypoints.http.problems import documented
from lectern.errors import InvalidQueryError

router = APIRouter(tags=["answering"], responses=documented(400, 401, 404, 413, 422, 429, 503))


@router.post("/kb/reply")
async def kb_reply(body: KBReplyIn, services: AppServices, user: CurrentUser) -> AIResultOut:
    """Decide whether to answer the conversation's last turn; answer with citations if so."""
    name = body.collection or services.settings.ai_kb_collection
    if not name:
        raise InvalidQueryError("name a collection (or set LECTERN_AI_KB_COLLECTION)")
    services.collection_access().require_read(user, name)
    if body.conversation is not None:
        conversation = body.conversation.to_domain()
    else:
        conversation = Conversation((ConversationMessage(user, body.question or ""),))
    context = RequestContext(name, user, body.channel)
    replier = services.kb_replier()
    result = await run_in_threadpool(replier.reply, conversation, context)
    return AIResultOut.of(result)


@router.post("/research")
async def research(body: ResearchIn, services: AppServices, user: CurrentUser) -> QueryResponseOut:
    """Retrieve, write with the template, keep only citations that hold, suggest related items."""
    name = body.collection or services.settings.ai_research_collection
    if not name:
        raise InvalidQueryError("name a collection (or set LECTERN_AI_RESEARCH_COLLECTION)")
    services.collection_access().require_read(user, name)
    response = await run_in_threadpool(services.research().query, body.to_domain(name))
    return QueryResponseOut.of(response)
