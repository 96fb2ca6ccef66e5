"""The same results from Python as from Rust on every corpus trajectory: the component,
driven from Python, writes the same bytes as the `compactor compact` command line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

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
    for key in ("tokensBefore", "tokensAfter", "messagesBefore", "messagesAfter", "requests"):
        assert result.report[key] == expected["report"][key], key
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
