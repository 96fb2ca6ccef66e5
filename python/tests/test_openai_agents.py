"""The OpenAI Agents SDK adapters in the SDK's own `Runner`: a scripted model (an
implementation of the SDK's `Model`) calls a tool turn after turn; the input filter keeps
every model call compacted with each call beside its output, and the session keeps what
it stores compacted from one run to the next. The README's example is what runs."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List

import pytest

pytest.importorskip("agents")

from agents import Agent, Model, ModelResponse, Runner, SQLiteSession, Usage, function_tool, set_tracing_disabled
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from compactor.openai_agents import CompactingSession, CompactorInputFilter
import scripted
from conftest import readme_example
from scripted import ANSWER, SUMMARY, TASK

set_tracing_disabled(True)  # no exporter: the runs stay on this machine



read_file = function_tool(scripted.read_file)


class ScriptedModel(Model):
    """Calls `read_file` `turns` times a run, then answers; records every input."""

    def __init__(self, turns: int) -> None:
        self.turns = turns
        self.inputs: List[List[Dict[str, Any]]] = []
        self.calls = 0
        self.in_run = 0

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        self.inputs.append(list(input))
        if self.in_run < self.turns:
            n, self.in_run, self.calls = self.calls, self.in_run + 1, self.calls + 1
            call = ResponseFunctionToolCall(
                type="function_call", call_id=f"call_{n}", name="read_file",
                arguments=f'{{"path": "src/m{n}.rs"}}', id=f"fc_{n}", status="completed",
            )
            return ModelResponse(output=[call], usage=Usage(), response_id=None)
        self.in_run = 0
        text = ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
        message = ResponseOutputMessage(
            type="message", id=f"msg_{self.calls}", role="assistant", status="completed", content=[text]
        )
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the tests run without streaming")


def paired(items: List[Dict[str, Any]]) -> bool:
    calls = {i["call_id"] for i in items if i.get("type") == "function_call"}
    outputs = {i["call_id"] for i in items if i.get("type") == "function_call_output"}
    return calls == outputs


def has_summary(items: List[Dict[str, Any]]) -> bool:
    return any(SUMMARY in str(i.get("content")) for i in items)


def test_the_readme_example_compacts_every_model_call() -> None:
    model = ScriptedModel(turns=40)
    agent = Agent(name="coder", instructions="You are a coding agent.", model=model, tools=[read_file])
    requests: List[Dict[str, Any]] = []

    def summarize(request: Dict[str, Any]) -> str:
        requests.append(request)
        return SUMMARY

    namespace: Dict[str, Any] = {"agent": agent, "task": TASK, "summarize": summarize}
    code = readme_example("CompactorInputFilter")
    exec(compile("async def example():\n" + "".join("    " + line + "\n" for line in code.splitlines()) + "    return locals()", "README", "exec"), namespace)
    scope = asyncio.run(namespace["example"]())
    assert scope["result"].final_output == ANSWER
    assert len(model.inputs) == 41 and requests
    assert all(paired(items) for items in model.inputs)
    assert all(items[0].get("content") == TASK for items in model.inputs)
    assert has_summary(model.inputs[-1]) and len(model.inputs[-1]) <= 50
    assert scope["compaction"].last_result.report["messagesAfter"] <= 50


def test_a_session_that_compacts_keeps_its_store_compacted() -> None:
    model = ScriptedModel(turns=15)
    agent = Agent(name="coder", instructions="You are a coding agent.", model=model, tools=[read_file])
    store = SQLiteSession("user-1")
    session = CompactingSession(store, lambda request: SUMMARY, model="gpt-4o", max_messages=24)

    async def runs() -> None:
        for n in range(4):
            result = await Runner.run(agent, f"{TASK} (try {n})", session=session, max_turns=50)
            assert result.final_output == ANSWER

    asyncio.run(runs())
    stored = asyncio.run(store.get_items())
    # Four runs of 15 calls each (over 120 items) went through; the store holds a compacted
    # history, pairs intact, that the last runs started from.
    assert len(stored) <= 24 and paired(stored) and has_summary(stored)
    assert session.last_result is not None and session.last_result.report["messagesAfter"] <= 24
    assert all(paired(items) for items in model.inputs)
    assert any(has_summary(items) for items in model.inputs)
    assert stored[-1]["role"] == "assistant"
