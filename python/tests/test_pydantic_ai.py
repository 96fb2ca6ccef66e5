"""The Pydantic AI history processor in a real `Agent` run: a scripted model (Pydantic AI's
`FunctionModel`) reads a file a turn for 40 turns, and every request it is sent stays
compacted, with each tool call beside its return. The README's example is what runs."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent
from pydantic_ai.capabilities import ProcessHistory
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from compactor import CompactorError
from compactor.pydantic_ai import CompactorProcessor, from_dicts, to_dicts
from conftest import readme_example
from scripted import ANSWER, SUMMARY, TASK, read_file

TURNS = 40




def scripted() -> "tuple[FunctionModel, List[List[ModelMessage]]]":
    seen: List[List[ModelMessage]] = []

    def respond(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        n = len(seen) - 1
        if n < TURNS:
            return ModelResponse(parts=[ToolCallPart("read_file", {"path": f"src/m{n}.rs"}, tool_call_id=f"call_{n}")])
        return ModelResponse(parts=[TextPart(ANSWER)])

    return FunctionModel(respond), seen


def check(seen: List[List[ModelMessage]]) -> None:
    assert len(seen) == TURNS + 1
    for messages in seen:
        calls = {p.tool_call_id for m in messages if isinstance(m, ModelResponse) for p in m.parts if isinstance(p, ToolCallPart)}
        returns = {p.tool_call_id for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)}
        assert calls == returns
        first = messages[0]
        assert isinstance(first, ModelRequest) and first.parts[0].content == TASK  # type: ignore[union-attr]
    # It compacted: the summary is in the last request, which is far shorter than the run.
    texts = [str(p.content) for m in seen[-1] if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, UserPromptPart)]
    assert any(SUMMARY in t for t in texts)
    assert len(seen[-1]) < 2 * TURNS


def test_the_readme_example_runs_in_an_agent() -> None:
    model, seen = scripted()
    requests: List[Dict[str, Any]] = []

    def summarize(request: Dict[str, Any]) -> str:
        requests.append(request)
        return SUMMARY

    namespace: Dict[str, Any] = {"model": model, "summarize": summarize, "read_file": read_file}
    exec(readme_example("compactor.pydantic_ai"), namespace)
    assert namespace["result"].output == ANSWER
    check(seen)
    compaction = namespace["compaction"]
    assert requests and compaction.last_result is not None
    assert compaction.last_result.report["messagesAfter"] <= 50


def test_an_async_summarizer_in_an_async_run() -> None:
    model, seen = scripted()

    async def summarize(request: Dict[str, Any]) -> str:
        await asyncio.sleep(0)
        return SUMMARY

    # A small window: the tokens fire, not the message count (LIGHT clears outputs first).
    compaction = CompactorProcessor(summarize, model="gpt-4o", max_context_tokens=6_000, output_reserve=1_000)
    agent = Agent(model, tools=[read_file], capabilities=[ProcessHistory(compaction)])
    result = asyncio.run(agent.run(TASK))
    assert result.output == ANSWER
    for messages in seen:
        calls = {p.tool_call_id for m in messages if isinstance(m, ModelResponse) for p in m.parts if isinstance(p, ToolCallPart)}
        returns = {p.tool_call_id for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)}
        assert calls == returns
        sent, _ = to_dicts(messages)
        assert compaction.compactor.assess(sent, lenient=True)["totalTokens"] <= 5_000
    assert compaction.last_result is not None and compaction.last_result.report["tokensBefore"] > 0


def test_untouched_messages_come_back_as_the_same_objects() -> None:
    messages: List[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart(TASK)]),
        ModelResponse(parts=[TextPart("Looking."), ToolCallPart("read_file", {"path": "a"}, tool_call_id="c1")]),
        ModelRequest(parts=[ToolReturnPart("read_file", "x" * 5, tool_call_id="c1"), UserPromptPart("Go on.")]),
    ]
    sent, origins = to_dicts(messages)
    back = from_dicts(sent, sent, origins, messages)
    assert len(back) == 3 and all(a is b for a, b in zip(back, messages))
    # A rewritten tool return is a copy of its request with the new text, the rest kept.
    changed = [dict(d) for d in sent]
    changed[2]["content"] = "[cleared]"
    back = from_dicts(changed, sent, origins, messages)
    assert back[2] is not messages[2] and back[2].parts[0].content == "[cleared]"  # type: ignore[union-attr]
    assert back[2].parts[1] is messages[2].parts[1]


def test_an_async_summarizer_is_refused_where_only_a_plain_one_can_run() -> None:
    async def summarize(request: Dict[str, Any]) -> str:
        return SUMMARY

    with pytest.raises(CompactorError) as error:
        CompactorProcessor(summarize, model="gpt-4o").compact([], "openai")
    assert error.value.path == "summarize"
