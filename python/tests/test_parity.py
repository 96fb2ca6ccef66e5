"""The same results from Python as from Rust on every corpus trajectory: the component,
driven from Python, writes the same bytes and report as the `compactor compact` command
line, and a session follows the default policy call by call as `compactor replay`
replays it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import compactor
from conftest import corpus_files

WINDOWS = [20_000, 60_000]


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.stem[:40])
@pytest.mark.parametrize("window", WINDOWS)
def test_same_messages_and_tokens_as_rust(
    path: Path, window: int, cli: Path, tmp_path: Path
) -> None:
    out, report = tmp_path / "out.json", tmp_path / "report.json"
    command = [
        str(cli), "compact", str(path), "--max-context", str(window),
        "--summarizer", "extractive", "--reason", "manual", "--session", "cli",
        "-o", str(out), "--report", str(report),
    ]
    strict = subprocess.run(command, capture_output=True, text=True)
    engine = compactor.Compactor(model="gpt-4o", max_context_tokens=window)
    lenient = strict.returncode != 0
    if lenient:
        # A message the formats do not know (mini-swe-agent's `exit`): refused the same
        # way from Python, path and all, and kept as an opaque message when lenient.
        with pytest.raises(compactor.CompactorError) as refused:
            engine.compact(path.read_text(), summarize=compactor.offline, trigger="manual")
        assert refused.value.code == "INVALID_INPUT"
        assert f"{refused.value.message} (--lenient" in strict.stderr
        subprocess.run(command + ["--lenient"], check=True, capture_output=True)
    expected = json.loads(report.read_text())

    result = engine.compact(
        path.read_text(),
        summarize=compactor.offline,
        trigger="manual",
        session_id="cli",
        lenient=lenient,
    )

    assert result.text + "\n" == out.read_text()
    assert result.status == expected["status"]
    assert result.report == expected["report"]
    # Counting agrees too: the assessment of the result is the report's figure.
    assessed = engine.assess(result.text, lenient=lenient)
    assert assessed["totalTokens"] == result.report["tokensAfter"]


def test_messages_in_as_dicts_come_back_as_dicts() -> None:
    path = corpus_files()[0]
    messages = json.loads(path.read_text())
    engine = compactor.Compactor(model="gpt-4o", max_context_tokens=20_000)
    from_dicts = engine.compact(messages, summarize=compactor.offline, trigger="manual")
    from_text = compactor.Compactor(model="gpt-4o", max_context_tokens=20_000).compact(
        path.read_text(), summarize=compactor.offline, trigger="manual"
    )
    assert isinstance(from_dicts.messages, list)
    assert from_dicts.messages == from_text.messages


def replay_session(engine: compactor.Compactor, messages: List[Dict[str, Any]]) -> List[Dict[str, int]]:
    """`messages` replayed call by call through a session, as `compactor replay` replays
    them with its default options: before each model call (an assistant message) the
    history since the last one is appended, and the session compacts when a signal fires,
    reactively once more when still over the absolute limit. Each call's prompt, summary
    input and compactions."""
    session = engine.session("replay", [], format="openai", lenient=True)
    calls: List[Dict[str, int]] = []
    appended = 0
    for at in range(1, len(messages)):
        if messages[at]["role"] != "assistant":
            continue
        session.extend(messages[appended:at])
        appended = at
        compactions, summary_input = 0, 0
        if any(session.assess()["signals"].values()):
            for trigger in ("proactive", "reactive"):
                if trigger == "reactive" and not session.assess()["signals"]["overAbsoluteLimit"]:
                    break
                result = session.compact(compactor.offline, trigger=trigger)
                compactions += result.compacted
                summary_input += sum(
                    e["inputTokens"] for e in result.events if e["type"] == "requestIssued"
                )
        calls.append(
            {
                "message": at,
                "promptTokens": session.assess()["totalTokens"],
                "summaryInputTokens": summary_input,
                "compactions": compactions,
            }
        )
    return calls


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.stem[:40])
@pytest.mark.parametrize("window,reserve", [(24_000, 4_000), (8_000, 1_000)])
def test_a_session_follows_the_default_policy_as_rust_replays_it(
    path: Path, window: int, reserve: int, cli: Path
) -> None:
    """With no target given, a session cuts as the engine's cost-aware policy says: every
    call of the replay is the command line's."""
    command = [
        str(cli), "replay", str(path), "--lenient", "--max-context", str(window),
        "--output-reserve", str(reserve), "--max-messages", "off", "--json",
    ]
    replayed = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
    expected = next(p for p in replayed["policies"] if p["policy"] == "configured")["calls"]
    engine = compactor.Compactor(
        max_context_tokens=window, output_reserve=reserve, max_messages=0
    )
    mine = replay_session(engine, json.loads(path.read_text()))
    keys = ("message", "promptTokens", "summaryInputTokens", "compactions")
    assert mine == [{k: call[k] for k in keys} for call in expected]
