"""The LangChain middleware in a real `create_agent` loop: a scripted chat model calls a
tool turn after turn, and the conversation it is shown stays inside the window, with every
tool call beside its result."""

from __future__ import annotations

import asyncio
from typing import Any, List

import pytest

pytest.importorskip("langchain")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

import compactor
from compactor.langchain import CompactorMiddleware, from_dicts, to_dicts
from lc_scripted import ScriptedModel, reading
from scripted import file_text

TURNS = 24


@tool
def read_file(path: str) -> str:
    """Reads a file of the repository."""
    return file_text(path, lines=120)


def agent_and_model(window: int, **config: Any) -> "tuple[Any, ScriptedModel, CompactorMiddleware]":
    model = ScriptedModel(messages=reading(TURNS, "The bug is in src/m3.rs."))
    model.seen = []
    summarizer = FakeListChatModel(responses=["Read src/m0.rs .. src/m9.rs; nothing found yet."])
    middleware = CompactorMiddleware(
        summarizer=summarizer,
        model="gpt-4o",
        max_context_tokens=window,
        output_reserve=2_000,
        **config,
    )
    agent = create_agent(model=model, tools=[read_file], middleware=[middleware])
    return agent, model, middleware


def check_every_call(model: ScriptedModel, limit: int) -> None:
    engine = compactor.Compactor(model="gpt-4o")
    assert len(model.seen) == TURNS + 1
    for shown in model.seen:
        dicts = [{k: v for k, v in d.items() if k != "x_compactor_index"} for d in to_dicts(shown)]
        assert engine.assess(dicts)["totalTokens"] <= limit
        calls = {c["id"] for m in shown if isinstance(m, AIMessage) for c in m.tool_calls}
        results = {m.tool_call_id for m in shown if isinstance(m, ToolMessage)}
        assert calls == results
    # The task is never summarized away: the user's request opens every call.
    assert all(shown[0].content == "Find the bug." for shown in model.seen)


def test_the_agent_runs_inside_the_window() -> None:
    # LIGHT (clearing old tool results) off: the summarizer must write.
    agent, model, middleware = agent_and_model(14_000, clear_at_least=10**9)
    state = agent.invoke({"messages": [HumanMessage("Find the bug.", id="task")]})
    assert state["messages"][-1].content == "The bug is in src/m3.rs."
    check_every_call(model, 12_000)
    # It did compact, and the summarizer's words are in the conversation.
    assert any("nothing found yet" in str(m.content) for m in model.seen[-1])
    assert middleware.last_result is not None


def test_the_agent_runs_inside_the_window_async() -> None:
    agent, model, _ = agent_and_model(14_000)
    state = asyncio.run(agent.ainvoke({"messages": [HumanMessage("Find the bug.", id="task")]}))
    assert state["messages"][-1].content == "The bug is in src/m3.rs."
    check_every_call(model, 12_000)
    # LIGHT cleared old tool results (later folded into a summary, perhaps): rewritten
    # messages keep their ids and tool call ids.
    cleared = [m for shown in model.seen for m in shown if "cleared by compactor" in str(m.content)]
    assert cleared and all(isinstance(m, ToolMessage) and m.id for m in cleared)


def test_messages_the_engine_left_alone_come_back_as_the_same_objects() -> None:
    messages: List[BaseMessage] = [
        HumanMessage("hi", id="h1", additional_kwargs={"extra": 1}),
        AIMessage(
            "",
            id="a1",
            tool_calls=[{"id": "c1", "name": "read_file", "args": {"path": "x"}}],
            response_metadata={"model": "m"},
        ),
        ToolMessage("out", tool_call_id="c1", id="t1", artifact={"raw": [1, 2]}),
    ]
    sent = to_dicts(messages)
    back = from_dicts(compactor.Compactor(model="gpt-4o").compact(sent, summarize=str).messages, messages, sent)
    assert all(a is b for a, b in zip(back, messages)) and len(back) == 3
