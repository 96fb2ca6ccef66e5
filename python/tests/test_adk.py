"""The Google ADK callback in ADK's own runner: a scripted model (a `BaseLlm` of our own)
calls a tool turn after turn, and every request it gets is compacted with each
functionCall beside its functionResponse. The README's example is what runs."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any, AsyncGenerator, Dict, List

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

from compactor.adk import CompactorCallback
from conftest import readme_example
from scripted import ANSWER, SUMMARY, TASK, read_file

TURNS = 40




class ScriptedLlm(BaseLlm):
    """Calls `read_file` `turns` times, then answers; records every request's contents."""

    turns: int = TURNS
    seen: List[List[types.Content]] = []

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.seen.append(list(llm_request.contents))
        n = len(self.seen) - 1
        if n < self.turns:
            call = types.FunctionCall(name="read_file", args={"path": f"src/m{n}.rs"}, id=f"call_{n}")
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))
        else:
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=ANSWER)]))


def run(agent: LlmAgent) -> List[Any]:
    async def main() -> List[Any]:
        runner = InMemoryRunner(agent=agent, app_name="compactor-test")
        session = await runner.session_service.create_session(app_name="compactor-test", user_id="u")
        message = types.Content(role="user", parts=[types.Part(text=TASK)])
        return [e async for e in runner.run_async(user_id="u", session_id=session.id, new_message=message)]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ADK's experimental-feature notices
        return asyncio.run(main())


def parts(contents: List[types.Content]) -> List[types.Part]:
    return [p for c in contents for p in c.parts or []]


def check(model: ScriptedLlm, events: List[Any]) -> None:
    assert events[-1].content.parts[0].text == ANSWER
    assert len(model.seen) == TURNS + 1
    for contents in model.seen:
        calls = {p.function_call.id for p in parts(contents) if p.function_call}
        assert calls == {p.function_response.id for p in parts(contents) if p.function_response}
        assert contents[0].parts[0].text == TASK
    assert any(SUMMARY in (p.text or "") for p in parts(model.seen[-1]))
    assert len(model.seen[-1]) < 2 * TURNS


def test_the_readme_example_in_an_adk_runner() -> None:
    model = ScriptedLlm(model="scripted", seen=[])
    summaries: List[Dict[str, Any]] = []

    def summarize(request: Dict[str, Any]) -> str:
        summaries.append(request)
        return SUMMARY

    namespace: Dict[str, Any] = {"model": model, "read_file": read_file, "summarize": summarize}
    exec(readme_example("compactor.adk"), namespace)
    check(model, run(namespace["agent"]))
    assert summaries and namespace["compaction"].last_result.report["messagesAfter"] <= 50


def test_tokens_over_the_window_with_an_async_summarizer() -> None:
    model = ScriptedLlm(model="scripted", seen=[])

    async def summarize(request: Dict[str, Any]) -> str:
        await asyncio.sleep(0)
        return SUMMARY

    compaction = CompactorCallback(summarize, model="gpt-4o", max_context_tokens=6_000, output_reserve=1_000)
    agent = LlmAgent(name="coder", model=model, instruction="You are a coding agent.", tools=[read_file],
                     before_model_callback=compaction)
    check(model, run(agent))
    for contents in model.seen:
        body = {"contents": [c.model_dump(mode="json", exclude_none=True, by_alias=True) for c in contents]}
        assert compaction.compactor.assess(body, format="gemini")["totalTokens"] <= 5_000


def test_a_pending_call_is_never_compacted() -> None:
    # A long-running tool's call whose response has not come: the newest turn, kept as is.
    compaction = CompactorCallback(lambda request: SUMMARY, model="gpt-4o", max_messages=12, clear_at_least=10**9)
    contents: List[types.Content] = [types.Content(role="user", parts=[types.Part(text=TASK)])]
    for n in range(20):
        call = types.FunctionCall(name="read_file", args={"path": f"src/m{n}.rs"}, id=f"call_{n}")
        contents.append(types.Content(role="model", parts=[types.Part(function_call=call)]))
        if n < 19:
            response = types.FunctionResponse(name="read_file", response={"result": read_file(f"src/m{n}.rs")}, id=f"call_{n}")
            contents.append(types.Content(role="user", parts=[types.Part(function_response=response)]))
    request = LlmRequest(contents=list(contents))
    asyncio.run(compaction(None, request))
    assert compaction.last_result is not None and compaction.last_result.compacted
    assert len(request.contents) <= 12
    assert request.contents[-1] is contents[-1] and request.contents[0] is contents[0]
