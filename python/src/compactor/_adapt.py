"""What every framework adapter does around a compaction.

A framework's messages go to the engine as dicts in a format it reads (OpenAI Chat
Completions, OpenAI Responses items, Gemini contents), each tagged with its place in what
was sent (unknown fields travel untouched). Each dict that comes back is the one sent
(untouched: the adapter hands back the framework's own object), the one sent with new text
(rewritten: a cleared tool result, a clipped message: the adapter copies the original with
that text), or new (a summary, which the adapter builds). Only the conversions differ from
one framework to the next; the compaction itself is the engine's, through `Compactor`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ._compactor import Compactor
from ._driver import CompactResult, SummaryRequest
from .errors import CompactorError

TAG = "x_compactor_index"
"""The field that carries a message's place through the engine."""

Summarizer = Union[Callable[[SummaryRequest], str], Callable[[SummaryRequest], Awaitable[str]]]
"""Writes a summary: ``summarize(request) -> str`` (or ``async``), ``request["prompt"]``
the messages to send to a model, in OpenAI Chat form."""


@dataclass
class Returned:
    """One message of a compaction's result, traced back to what was sent."""

    index: Optional[int]
    """Its place in what was sent; ``None`` for a message the engine made (a summary)."""
    message: Dict[str, Any]
    """The engine's message, the tag taken off."""
    changed: bool
    """Whether it differs from the message sent at `index` (always, for a new one)."""


def tagged(messages: Sequence[Mapping[str, Any]]) -> List[Dict[str, Any]]:
    """Copies of `messages`, each carrying its index."""
    return [{**message, TAG: index} for index, message in enumerate(messages)]


def traced(result: Sequence[Mapping[str, Any]], sent: Sequence[Mapping[str, Any]]) -> List[Returned]:
    """The messages of a compaction's `result`, each traced back to the `sent` (tagged)
    message it came from."""
    out: List[Returned] = []
    for item in result:
        index = item.get(TAG)
        message = {k: v for k, v in item.items() if k != TAG}
        if isinstance(index, int) and 0 <= index < len(sent):
            out.append(Returned(index, message, dict(item) != dict(sent[index])))
        else:
            out.append(Returned(None, message, True))
    return out


def text_of(content: Any) -> str:
    """OpenAI Chat message content (a string, a list of parts, ``None``) as text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", "")) if isinstance(part, Mapping) else str(part) for part in content
        )
    return str(content)


class Adapter:
    """The compactor, the summarizer and the latest result an adapter keeps.

    ``summarize`` writes each summary (plain or ``async``; a plain one is called from the
    event loop's thread, so keep it quick or make it ``async``). Every other keyword is a
    `Compactor` option (``model``, ``max_context_tokens``, ...), or pass a ``compactor`` of
    your own. ``session_id`` keys the circuit breaker and the summary cache. After each
    check, ``last_result`` holds the run's `CompactResult` (``status``, ``report``,
    ``events``); it stays ``None`` while nothing crossed a limit."""

    def __init__(
        self,
        summarize: Summarizer,
        *,
        compactor: Optional[Compactor] = None,
        session_id: str = "agent",
        **config: Any,
    ) -> None:
        if not callable(summarize):
            raise CompactorError(
                "INVALID_INPUT", "summarize: expected a function of a summary request", "summarize"
            )
        self.summarize = summarize
        self.compactor = compactor if compactor is not None else Compactor(**config)
        self.session_id = session_id
        self.last_result: Optional[CompactResult] = None

    def compact(self, messages: Any, format: str, lenient: bool = False) -> CompactResult:
        """Compacts `messages` when a limit is crossed, with a plain summarizer."""
        if inspect.iscoroutinefunction(self.summarize):
            raise CompactorError(
                "INVALID_INPUT",
                "summarize: an async summarizer needs the framework's async path",
                "summarize",
            )
        summarize: Callable[[SummaryRequest], str] = self.summarize  # type: ignore[assignment]
        result = self.compactor.compact(
            messages, summarize=summarize, session_id=self.session_id, format=format, lenient=lenient
        )
        self.last_result = result
        return result

    async def acompact(self, messages: Any, format: str, lenient: bool = False) -> CompactResult:
        """Compacts `messages` when a limit is crossed; a level's summaries concurrently."""
        result = await self.compactor.acompact(
            messages,
            summarize=self.summarize,  # type: ignore[arg-type]
            session_id=self.session_id,
            format=format,
            lenient=lenient,
        )
        self.last_result = result
        return result
