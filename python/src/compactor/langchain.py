"""LangChain 1.x: a middleware for ``create_agent`` that keeps the agent's messages inside
the model's context window with compactor.

    from langchain.agents import create_agent
    from compactor.langchain import CompactorMiddleware

    agent = create_agent(
        model, tools,
        middleware=[CompactorMiddleware(summarizer=cheap_model, model="gpt-4o")],
    )

Before each model call the middleware compacts the conversation when it crosses the
trigger: the oldest turns are folded into summaries written by ``summarizer`` (any chat
model), tool calls stay with their results, and the newest turns stay as they are.

Messages cross losslessly (`compactor._lc`): every message the engine did not rewrite
comes back as the very object that went in; one it rewrote keeps everything but its new
content.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from langchain.agents.middleware import AgentMiddleware
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, convert_to_messages

from ._compactor import Compactor
from ._driver import CompactResult, SummaryRequest
from ._lc import INDEX, from_dicts, replacing, to_dicts
from ._lc import text as _text

__all__ = ["CompactorMiddleware", "INDEX", "from_dicts", "to_dicts"]


class CompactorMiddleware(AgentMiddleware):
    """Compacts the agent's messages before each model call when they cross the trigger.

    ``summarizer`` writes the summaries (any chat model: a cheap one does). Every other
    keyword is a ``Compactor`` option (``model``, ``max_context_tokens``, ...), or pass a
    ``compactor`` of your own. ``session_id`` keys the circuit breaker and the summary
    cache. After a run, ``last_result`` holds its report.
    """

    def __init__(
        self,
        summarizer: BaseChatModel,
        *,
        compactor: Optional[Compactor] = None,
        session_id: str = "langchain",
        **config: Any,
    ) -> None:
        super().__init__()
        self.summarizer = summarizer
        self.compactor = compactor if compactor is not None else Compactor(**config)
        self.session_id = session_id
        self.last_result: Optional[CompactResult] = None

    def _summarize(self, request: SummaryRequest) -> str:
        return _text(self.summarizer.invoke(convert_to_messages(request["prompt"])))

    async def _asummarize(self, request: SummaryRequest) -> str:
        return _text(await self.summarizer.ainvoke(convert_to_messages(request["prompt"])))

    def _update(
        self, result: CompactResult, messages: Sequence[BaseMessage], sent: List[Dict[str, Any]]
    ) -> Optional[Dict[str, Any]]:
        self.last_result = result
        if not result.compacted:
            return None
        return {"messages": replacing(from_dicts(result.messages, messages, sent))}

    def before_model(self, state: Any, runtime: Any) -> Optional[Dict[str, Any]]:
        messages = state["messages"]
        sent = to_dicts(messages)
        result = self.compactor.compact(
            sent, summarize=self._summarize, session_id=self.session_id, format="openai"
        )
        return self._update(result, messages, sent)

    async def abefore_model(self, state: Any, runtime: Any) -> Optional[Dict[str, Any]]:
        messages = state["messages"]
        sent = to_dicts(messages)
        result = await self.compactor.acompact(
            sent, summarize=self._asummarize, session_id=self.session_id, format="openai"
        )
        return self._update(result, messages, sent)
