"""The example agent loop, replaying a mini-swe-agent corpus trajectory with a scripted
model: every call it makes stays inside the window, with the task and every tool pair."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any, Dict, List

import compactor
from conftest import REPO, corpus_dir

spec = importlib.util.spec_from_file_location("mini_agent", REPO / "python/examples/mini_agent.py")
assert spec is not None and spec.loader is not None
mini_agent = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mini_agent)

WINDOW, RESERVE = 12_000, 2_000


def test_a_replayed_trajectory_stays_inside_the_window() -> None:
    path: Path = corpus_dir() / "mini-swe-agent--django-13230.json"
    trajectory: List[Dict[str, Any]] = json.loads(path.read_text())
    task = trajectory[1]["content"]
    replies = iter([m for m in trajectory if m["role"] == "assistant"])
    outputs = {m["tool_call_id"]: m["content"] for m in trajectory if m["role"] == "tool"}
    engine = compactor.Compactor(model="gpt-4o", max_context_tokens=WINDOW, output_reserve=RESERVE)
    shown: List[List[Dict[str, Any]]] = []

    def model(messages: List[Dict[str, Any]]) -> Dict[str, Any]:
        shown.append(messages)
        return next(replies, {"role": "assistant", "content": "done"})

    summaries: List[Dict[str, Any]] = []

    def summarize(request: Dict[str, Any]) -> str:
        summaries.append(request)
        return "Explored django/contrib/syndication; views.py builds feed items."

    final = mini_agent.run_agent(
        task, model, lambda call: outputs.get(call["id"], "(no output)"), summarize, engine,
        max_steps=200,
    )
    assistant = [m for m in trajectory if m["role"] == "assistant"]
    # Every recorded step, then the scripted "done" after the last tool call.
    assert len(shown) == len(assistant) + 1
    assert final[-1] == {"role": "assistant", "content": "done"}
    assert assistant[-1] in final
    # The whole trajectory would not fit; each call did.
    assert engine.assess(trajectory, lenient=True)["totalTokens"] > WINDOW
    for messages in shown:
        assert engine.assess(messages)["totalTokens"] <= WINDOW - RESERVE
        assert messages[1]["content"] == task
        calls = {c["id"] for m in messages for c in m.get("tool_calls") or []}
        assert calls == {m["tool_call_id"] for m in messages if m["role"] == "tool"}
    assert summaries
