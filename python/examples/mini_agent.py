"""A small agent loop in the style of mini-swe-agent, compacting its history before each
model call with a compactor session.

The loop: show the model the conversation, run the bash commands it asks for, append the
outputs, repeat until it stops calling tools. Before each call the session (which counts
only what was appended since the last check) is assessed; over the trigger, it is
compacted, the summaries written by the same model. Run it with any OpenAI-compatible
client (``python mini_agent.py "task"``, ``OPENAI_API_KEY`` set); the tests replay a
corpus trajectory through it with a scripted model.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, Callable, Dict, List

from compactor import Compactor, SummaryRequest

Message = Dict[str, Any]
Model = Callable[[List[Message]], Message]
"""Answers a conversation with an assistant message (OpenAI Chat Completions dict)."""
Execute = Callable[[Message], str]
"""Runs one tool call, returns its output."""

SYSTEM = "You are a software engineer. Use the bash tool to inspect and fix the repository."


def run_agent(
    task: str,
    model: Model,
    execute: Execute,
    summarize: Callable[[SummaryRequest], str],
    compactor: Compactor,
    max_steps: int = 100,
) -> List[Message]:
    """Runs the loop; returns the conversation as the model last saw it, with its answer."""
    session = compactor.session("agent", [{"role": "system", "content": SYSTEM}, {"role": "user", "content": task}])
    for _ in range(max_steps):
        signals = session.assess()["signals"]
        if any(signals.values()):
            session.compact(summarize=summarize)
        reply = model(session.messages)
        session.append(reply)
        calls = reply.get("tool_calls") or []
        if not calls:
            break
        session.extend(
            [{"role": "tool", "tool_call_id": call["id"], "content": execute(call)} for call in calls]
        )
    messages: List[Message] = session.messages
    return messages


def bash(call: Message) -> str:
    """Runs a `bash` tool call's command in the current directory."""
    command = json.loads(call["function"]["arguments"]).get("command", "")
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120)
    return f"<returncode>{done.returncode}</returncode>\n<output>\n{done.stdout}{done.stderr}</output>"


def main() -> None:  # pragma: no cover - needs a model
    from openai import OpenAI

    client = OpenAI()
    tools = [{
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a bash command",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    }]

    def model(messages: List[Message]) -> Message:
        answer = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
        return answer.choices[0].message.model_dump(exclude_none=True)

    def summarize(request: SummaryRequest) -> str:
        answer = client.chat.completions.create(
            model="gpt-4o-mini", messages=request["prompt"], max_tokens=request["maxOutputTokens"]
        )
        return answer.choices[0].message.content or ""

    for message in run_agent(sys.argv[1], model, bash, summarize, Compactor(model="gpt-4o")):
        print(message.get("role"), str(message.get("content"))[:200])


if __name__ == "__main__":  # pragma: no cover
    main()
