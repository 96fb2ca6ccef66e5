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

Messages cross losslessly: each ``BaseMessage`` goes to the engine as an OpenAI message
carrying its index, and every message the engine did not rewrite comes back as the very
object that went in (ids, ``additional_kwargs``, ``response_metadata`` and all); one it
rewrote keeps everything but its new content.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from langchain.agents.middleware import AgentMiddleware
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    RemoveMessage,
    convert_to_messages,
    convert_to_openai_messages,
)
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from ._compactor import Compactor
from ._driver import CompactResult, SummaryRequest

INDEX = "x_compactor_index"
"""The field that carries a message's index through the engine (unknown fields travel
untouched)."""


def to_dicts(messages: Sequence[BaseMessage]) -> List[Dict[str, Any]]:
    """The messages as OpenAI Chat Completions dicts, each carrying its index."""
    dicts: List[Dict[str, Any]] = []
    for index, message in enumerate(messages):
        converted = convert_to_openai_messages(message)
        assert isinstance(converted, dict)
        if isinstance(message, AIMessage) and message.tool_calls and not converted.get("content"):
            converted["content"] = None
        converted[INDEX] = index
        dicts.append(converted)
    return dicts


def from_dicts(
    dicts: Sequence[Dict[str, Any]],
    originals: Sequence[BaseMessage],
    sent: Sequence[Dict[str, Any]],
) -> List[BaseMessage]:
    """The engine's messages as ``BaseMessage``s: an untouched one is its original object,
    a rewritten one its original with the new content, a new one (a summary) converted."""
    out: List[BaseMessage] = []
    for item in dicts:
        index = item.get(INDEX)
        if isinstance(index, int) and 0 <= index < len(originals):
            if item == sent[index]:
                out.append(originals[index])
            else:
                content = item.get("content")
                out.append(originals[index].model_copy(update={"content": content or ""}))
        else:
            fresh = {k: v for k, v in item.items() if k != INDEX}
            out.extend(convert_to_messages([fresh]))
    return out


def _text(answer: BaseMessage) -> str:
    content = answer.content
    if isinstance(content, str):
        return content
    return "".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in content
    )


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
        kept = from_dicts(result.messages, messages, sent)
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *kept]}

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
