"""LangChain messages as the engine reads them, and back (for `compactor.langchain` and
`compactor.langgraph`; needs ``langchain-core`` and ``langgraph``).

Each ``BaseMessage`` goes to the engine as an OpenAI Chat message carrying its index, and
every message the engine did not rewrite comes back as the very object that went in (ids,
``additional_kwargs``, ``response_metadata`` and all); one it rewrote keeps everything but
its new content; a new one (a summary) is converted.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    RemoveMessage,
    convert_to_messages,
    convert_to_openai_messages,
)
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from ._adapt import TAG, text_of, traced

INDEX = TAG


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
    for back in traced(dicts, sent):
        if back.index is None:
            out.extend(convert_to_messages([back.message]))
        elif not back.changed:
            out.append(originals[back.index])
        else:
            content = text_of(back.message.get("content"))
            out.append(originals[back.index].model_copy(update={"content": content}))
    return out


def replacing(messages: Sequence[BaseMessage]) -> List[BaseMessage]:
    """A state update that replaces every message of the state with `messages`."""
    return [RemoveMessage(id=REMOVE_ALL_MESSAGES), *messages]


def text(answer: BaseMessage) -> str:
    """A chat model's answer as text."""
    content = answer.content
    if isinstance(content, str):
        return content
    return "".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in content
    )
