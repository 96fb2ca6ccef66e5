"""Pydantic AI: a history processor that keeps an agent's messages inside the model's
context window with compactor.

    from pydantic_ai import Agent
    from pydantic_ai.capabilities import ProcessHistory
    from compactor.pydantic_ai import CompactorProcessor

    compaction = CompactorProcessor(summarize, model="gpt-4o")
    agent = Agent(model, capabilities=[ProcessHistory(compaction)])  # 1.x: history_processors=[compaction]

Before each model request the processor compacts the history when it crosses a limit: old
tool returns are cleared, old turns folded into summaries written by ``summarize``, every
tool call kept beside its return. ``compaction.last_result.report`` says what was done.

Each part crosses as an OpenAI Chat message (a request's parts one message each, a
response one assistant message): every message the engine did not rewrite comes back as
the very object that went in, and a request or response it rewrote part of is a copy with
the new text. Parts the engine has no reading for (files, native tool calls, compaction
parts) are counted by a short stand-in and kept as they are; thinking is not counted
(providers drop earlier turns' thinking).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional, Sequence, Tuple

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    SystemPromptPart,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from ._adapt import Adapter, tagged, text_of, traced

__all__ = ["CompactorProcessor", "to_dicts", "from_dicts"]

Origin = Tuple[int, Optional[int]]
"""Where a dict came from: the message's index, and the part's for a request."""


def _user_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(item if isinstance(item, str) else f"[{type(item).__name__}]" for item in content)


def _request_part(part: Any) -> Dict[str, Any]:
    if isinstance(part, SystemPromptPart):
        return {"role": "system", "content": part.content}
    if isinstance(part, UserPromptPart):
        return {"role": "user", "content": _user_text(part.content)}
    if isinstance(part, ToolReturnPart):
        return {"role": "tool", "tool_call_id": part.tool_call_id, "content": part.model_response_str()}
    if isinstance(part, RetryPromptPart) and part.tool_name is not None:
        return {"role": "tool", "tool_call_id": part.tool_call_id, "content": part.model_response()}
    if isinstance(part, RetryPromptPart):
        return {"role": "user", "content": part.model_response()}
    # A part the engine has no reading for: kept whole and pinned (lenient reading).
    return {"role": f"pydantic-ai:{type(part).__name__}", "content": str(getattr(part, "content", ""))}


def _response(message: ModelResponse) -> Dict[str, Any]:
    texts: List[str] = []
    calls: List[Dict[str, Any]] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            texts.append(part.content)
        elif isinstance(part, ToolCallPart):
            calls.append(
                {
                    "id": part.tool_call_id,
                    "type": "function",
                    "function": {"name": part.tool_name, "arguments": part.args_as_json_str()},
                }
            )
        elif not isinstance(part, ThinkingPart):
            texts.append(f"[{type(part).__name__}]")
    out: Dict[str, Any] = {"role": "assistant", "content": "\n".join(texts) if texts else None}
    if calls:
        out["tool_calls"] = calls
    return out


def to_dicts(messages: Sequence[ModelMessage]) -> Tuple[List[Dict[str, Any]], List[Origin]]:
    """The messages as OpenAI Chat dicts (tagged), and where each came from."""
    dicts: List[Dict[str, Any]] = []
    origins: List[Origin] = []
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest):
            for part_index, part in enumerate(message.parts):
                dicts.append(_request_part(part))
                origins.append((index, part_index))
        else:
            dicts.append(_response(message))
            origins.append((index, None))
    return tagged(dicts), origins


def _rewritten_part(part: Any, text: str) -> Any:
    if isinstance(part, (UserPromptPart, ToolReturnPart, SystemPromptPart)):
        return dataclasses.replace(part, content=text)
    return part  # A retry prompt or an opaque part: the engine never rewrites those.


def _rewritten_response(message: ModelResponse, text: str) -> ModelResponse:
    """`message` with its text parts replaced by `text` (tool calls kept)."""
    parts: List[Any] = [TextPart(text)] if text else []
    parts += [p for p in message.parts if not isinstance(p, (TextPart, ThinkingPart))]
    return dataclasses.replace(message, parts=parts)


def from_dicts(
    result: Sequence[Dict[str, Any]],
    sent: Sequence[Dict[str, Any]],
    origins: Sequence[Origin],
    messages: Sequence[ModelMessage],
) -> List[ModelMessage]:
    """The engine's messages as Pydantic AI messages: a request's parts that come back
    together are that request again (the same object when nothing in it changed), a new
    message (a summary) is a user prompt."""
    out: List[ModelMessage] = []
    group: List[Any] = []  # the request parts collected for `group_of`
    group_of: Optional[int] = None
    group_changed = False

    def close() -> None:
        nonlocal group, group_of, group_changed
        if group_of is not None:
            original = messages[group_of]
            assert isinstance(original, ModelRequest)
            whole = not group_changed and len(group) == len(original.parts)
            out.append(original if whole else dataclasses.replace(original, parts=group))
        group, group_of, group_changed = [], None, False

    for back in traced(result, sent):
        if back.index is None:
            close()
            out.append(ModelRequest(parts=[UserPromptPart(text_of(back.message.get("content")))]))
            continue
        index, part_index = origins[back.index]
        original = messages[index]
        if part_index is None:
            close()
            assert isinstance(original, ModelResponse)
            changed = back.changed
            out.append(_rewritten_response(original, text_of(back.message.get("content"))) if changed else original)
            continue
        if group_of != index:
            close()
            group_of = index
        assert isinstance(original, ModelRequest)
        part = original.parts[part_index]
        if back.changed:
            group_changed = True
            part = _rewritten_part(part, text_of(back.message.get("content")))
        group.append(part)
    close()
    return out


class CompactorProcessor(Adapter):
    """A Pydantic AI history processor: ``Agent(model, capabilities=[ProcessHistory(processor)])``
    (Pydantic AI 1.x: ``history_processors=[processor]``).

    ``summarize(request) -> str`` (or ``async``) writes each summary with your model;
    every other keyword is a `Compactor` option, or pass ``compactor=``. After each model
    request, ``last_result`` holds the check's `CompactResult` (``report``, ``status``).
    """

    async def __call__(self, messages: List[ModelMessage]) -> List[ModelMessage]:
        sent, origins = to_dicts(messages)
        result = await self.acompact(sent, "openai", lenient=True)
        if not result.compacted:
            return messages
        return from_dicts(result.messages, sent, origins, messages)
