"""LangGraph: a node that keeps a graph's ``messages`` inside the model's context window
with compactor, as a prebuilt agent's ``pre_model_hook`` or a node of your own graph.

    from langgraph.prebuilt import create_react_agent
    from compactor.langgraph import CompactorHook

    compaction = CompactorHook(summarize, model="gpt-4o")
    agent = create_react_agent(model, tools, pre_model_hook=compaction)

In a graph of your own, add it before the node that calls the model
(``graph.add_node("compact", compaction)``; the state needs a ``messages`` channel with
LangGraph's ``add_messages`` reducer, as ``MessagesState`` has). When the messages cross a
limit, the node replaces them with the compacted conversation; otherwise it changes
nothing. Tool calls stay with their results, and an unanswered call (the newest turn) is
never compacted. Every message the engine did not rewrite comes back as the object that
went in (`compactor._lc`). ``compaction.last_result`` holds the latest check's report.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from langchain_core.runnables import RunnableLambda

from ._adapt import Adapter, Summarizer
from ._compactor import Compactor
from ._lc import from_dicts, replacing, to_dicts

__all__ = ["CompactorHook"]


def _messages(state: Any) -> Any:
    return state["messages"] if isinstance(state, dict) else getattr(state, "messages")


class CompactorHook(RunnableLambda):  # type: ignore[type-arg]
    """A LangGraph node (a runnable, sync and async) that compacts the state's
    ``messages``: ``pre_model_hook=CompactorHook(summarize, model="gpt-4o")``.

    ``summarize(request) -> str`` (or ``async``, for graphs run with ``ainvoke``) writes each
    summary; every other keyword is a `Compactor` option, or pass ``compactor=``. The
    ``llm_input_messages`` a prebuilt agent may read are left alone: the state itself is
    compacted, so a checkpointer stores the compacted conversation."""

    def __init__(
        self,
        summarize: Summarizer,
        *,
        compactor: Optional[Compactor] = None,
        session_id: str = "langgraph",
        **config: Any,
    ) -> None:
        self.adapter = Adapter(summarize, compactor=compactor, session_id=session_id, **config)
        super().__init__(self._compact, afunc=self._acompact, name="compactor")

    @property
    def compactor(self) -> Compactor:
        """The compactor that checks the messages."""
        return self.adapter.compactor

    @property
    def last_result(self) -> Any:
        """The latest check's `CompactResult` (``None`` before the first)."""
        return self.adapter.last_result

    def _compact(self, state: Any) -> Dict[str, Any]:
        messages = _messages(state)
        sent = to_dicts(messages)
        result = self.adapter.compact(sent, "openai")
        if not result.compacted:
            return {}
        return {"messages": replacing(from_dicts(result.messages, messages, sent))}

    async def _acompact(self, state: Any) -> Dict[str, Any]:
        messages = _messages(state)
        sent = to_dicts(messages)
        result = await self.adapter.acompact(sent, "openai")
        if not result.compacted:
            return {}
        return {"messages": replacing(from_dicts(result.messages, messages, sent))}
