"""The LangGraph node in LangGraph's own loops: the prebuilt ReAct agent (as its
``pre_model_hook``) and a graph of our own (as a node before the model's). A scripted
chat model calls a tool turn after turn; every call it gets keeps each tool call beside
its result, and the state holds the compacted conversation. The README's example is what
runs."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any, Dict, List

import pytest

pytest.importorskip("langgraph")

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from compactor.langgraph import CompactorHook
import scripted as scripted_tools
from conftest import readme_example
from lc_scripted import ScriptedModel, reading
from scripted import ANSWER, SUMMARY, TASK

TURNS = 40


read_file = tool(scripted_tools.read_file)


def scripted() -> ScriptedModel:
    model = ScriptedModel(messages=reading(TURNS, ANSWER))
    model.seen = []
    return model


def check(model: ScriptedModel, state: Dict[str, Any]) -> None:
    assert state["messages"][-1].content == ANSWER
    assert len(model.seen) == TURNS + 1
    for shown in model.seen:
        calls = {c["id"] for m in shown if isinstance(m, AIMessage) for c in m.tool_calls}
        assert calls == {m.tool_call_id for m in shown if isinstance(m, ToolMessage)}
        assert any(isinstance(m, HumanMessage) and m.content == TASK for m in shown)
    assert any(SUMMARY in str(m.content) for m in model.seen[-1])
    # The state holds the compacted conversation, not the whole run.
    assert len(state["messages"]) < 2 * TURNS


def test_the_readme_example_as_a_prebuilt_agents_hook() -> None:
    model = scripted()
    summaries: List[Dict[str, Any]] = []

    def summarize(request: Dict[str, Any]) -> str:
        summaries.append(request)
        return SUMMARY

    namespace: Dict[str, Any] = {"model": model, "tools": [read_file], "summarize": summarize}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_react_agent: deprecated for langchain's create_agent
        exec(readme_example("compactor.langgraph"), namespace)
    state = namespace["agent"].invoke({"messages": [HumanMessage(TASK)]}, {"recursion_limit": 200})
    check(model, state)
    assert summaries and namespace["compaction"].last_result.report["messagesAfter"] <= 50


def test_a_node_of_our_own_graph_async() -> None:
    model = scripted()

    async def summarize(request: Dict[str, Any]) -> str:
        await asyncio.sleep(0)
        return SUMMARY

    compaction = CompactorHook(summarize, model="gpt-4o", max_context_tokens=6_000, output_reserve=1_000)

    async def call_model(state: MessagesState) -> Dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("compact", compaction)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode([read_file]))
    graph.add_edge(START, "compact")
    graph.add_edge("compact", "model")
    graph.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "compact")
    state = asyncio.run(graph.compile().ainvoke({"messages": [HumanMessage(TASK)]}, {"recursion_limit": 200}))
    check(model, state)
    for shown in model.seen:
        assert compaction.compactor.assess([{"role": "user", "content": str(m.content)} for m in shown])["totalTokens"] <= 5_000
    assert compaction.last_result is not None
