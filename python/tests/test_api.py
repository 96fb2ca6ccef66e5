"""The Python API: bad input, the drivers (plain and asyncio), sessions, traps."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Dict, List

import pytest

import compactor
from compactor import Compactor, CompactorError, InputTooLong
from compactor._compactor import dump_messages
from conftest import corpus_files


def long_conversation(turns: int = 40) -> List[Dict[str, Any]]:
    """A coding agent's conversation with tool calls, long enough to compact."""
    messages: List[Dict[str, Any]] = [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Fix the failing test in src/lib.rs."},
    ]
    for i in range(turns):
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{i}",
                        "type": "function",
                        "function": {"name": "shell", "arguments": json.dumps({"cmd": f"cat f{i}.rs"})},
                    }
                ],
            }
        )
        body = f"fn f{i}() {{ /* line */ }}\n" * 40
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": body})
    messages.append({"role": "user", "content": "Now run the tests."})
    return messages


def small() -> Compactor:
    return Compactor(model="gpt-4o", max_context_tokens=24_000, output_reserve=4_000)


def summary(request: Dict[str, Any]) -> str:
    assert request["prompt"] and request["maxOutputTokens"] > 0
    return f"Summary of {len(request['covers'])} messages: read files f0..f9."


# Bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("messages", "path"),
    [
        ([{"role": "bot", "content": "hi"}], "messages[0].role"),
        ([{"role": "user", "content": "a"}, {"role": "user", "content": 5}], "messages[1].content"),
        ("{not json", "messages"),
        ([{"role": "user", "content": {1, 2}}], "messages"),
    ],
)
def test_bad_messages_raise_with_a_path(messages: Any, path: str) -> None:
    with pytest.raises(CompactorError) as error:
        small().assess(messages)
    assert error.value.code == "INVALID_INPUT"
    assert error.value.path == path


def test_bad_config_raises_with_the_field() -> None:
    with pytest.raises(CompactorError) as error:
        Compactor(model="no-such-model")
    assert (error.value.code, error.value.path) == ("INVALID_INPUT", "config.model")
    with pytest.raises(CompactorError) as error:
        Compactor(model="gpt-4o", max_summary_tokens=1)
    assert error.value.path == "config.max-summary-tokens"
    with pytest.raises(CompactorError) as error:
        Compactor(model="gpt-4o", max_context_tokens="big")
    assert error.value.code == "INVALID_INPUT"
    with pytest.raises(TypeError):
        Compactor(model="gpt-4o", no_such_option=1)  # type: ignore[call-arg]


def test_bad_arguments_raise() -> None:
    engine = small()
    with pytest.raises(CompactorError) as error:
        engine.count_tokens("x", encoding="p50k")
    assert error.value.path == "encoding"
    with pytest.raises(CompactorError):
        engine.compact(long_conversation(), summarize=summary, trigger="sometimes")
    with pytest.raises(CompactorError) as error:
        engine.assess([{"role": "user", "content": "x"}], format="bogus")
    assert error.value.path == "format"


def test_an_orphan_tool_result_is_refused() -> None:
    with pytest.raises(CompactorError) as error:
        small().compact(
            [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "nope", "content": "r"}]
            * 3,
            summarize=summary,
            trigger="manual",
        )
    assert error.value.code == "INVALID_INPUT"
    assert error.value.path is not None and error.value.path.startswith("messages[")


# Counting and formats -------------------------------------------------------------------


def test_counting_matches_between_module_and_compactor() -> None:
    text = corpus_files()[0].read_text()
    assert compactor.count_tokens(text) == small().count_tokens(text) > 0
    assert compactor.count_tokens("hello world") == 2
    assert compactor.count_tokens("hello world", "estimate") > 0
    texts = [text, "hello world", ""]
    assert compactor.count_tokens_each(texts) == [compactor.count_tokens(t) for t in texts]
    with pytest.raises(CompactorError) as error:
        compactor.count_tokens_each(["x"], "p50k")
    assert error.value.path == "encoding"


def test_formats_are_detected_and_kept() -> None:
    body = {
        "system": "You are terse.",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "hello"}]},
        ],
    }
    assert compactor.detect_format(body) == "anthropic"
    result = small().compact(body, summarize=summary)
    assert result.messages == body
    assert not result.compacted


@pytest.mark.parametrize("cjk", [False, True])
def test_a_list_reads_as_its_utf8_text_reads(cjk: bool) -> None:
    # A list crosses as ASCII JSON (non-ASCII as escapes), or as UTF-8 when escapes would
    # be over a quarter of it (`cjk`): either way the engine sees what the UTF-8 text says.
    messages = long_conversation(30)
    for i, message in enumerate(messages):
        if isinstance(message.get("content"), str):
            plain = " é ü 🙂 中文 \\u00e9 (text, not an escape)"
            extra = "解析失败，重试中。" * 30 if cjk else plain
            message["content"] += extra + "🙂" * (i % 3)
    text = json.dumps(messages, ensure_ascii=False)
    assert (dump_messages(messages) == text) == cjk
    assert small().assess(messages) == small().assess(text)

    def run(conversation: Any) -> Any:
        requests: List[Dict[str, Any]] = []

        def summarize(request: Dict[str, Any]) -> str:
            # The deadline is the time of the call plus the timeout: it differs run to run.
            requests.append({k: v for k, v in request.items() if k != "deadlineMs"})
            return "Summary: é 🙂 中文."

        result = small().compact(conversation, summarize=summarize)
        assert result.compacted
        return result.messages, requests, result.report

    assert run(messages) == run(text)


# Drivers -------------------------------------------------------------------------------


def test_compact_calls_the_summarizer_and_keeps_tool_pairs() -> None:
    engine = small()
    calls: List[Dict[str, Any]] = []

    def summarize(request: Dict[str, Any]) -> str:
        calls.append(request)
        return summary(request)

    events: List[Dict[str, Any]] = []
    result = engine.compact(long_conversation(), summarize=summarize, on_event=events.append)
    assert result.compacted and calls
    assert result.report["tokensAfter"] <= engine.budget["targetTokens"]
    assert events and events == result.events
    ids = {c["id"] for m in result.messages for c in m.get("tool_calls") or []}
    results = {m["tool_call_id"] for m in result.messages if m["role"] == "tool"}
    assert ids == results


def test_summarize_outputs_hands_the_running_summary_whole_outputs() -> None:
    def read(**config: Any) -> int:
        # LIGHT off and a window only a running summary fits: the outputs reach it uncleared.
        engine = Compactor(
            model="gpt-4o", max_context_tokens=3_000, output_reserve=0, clear_at_least=10**9, **config
        )
        result = engine.compact(long_conversation(), summarize=summary)
        assert result.compacted
        return int(result.report["summaryInputTokens"])

    assert read(summarize_outputs=True) > read()


def test_a_failing_summarizer_fails_the_run_and_changes_nothing() -> None:
    def broken(request: Dict[str, Any]) -> str:
        raise RuntimeError("model unavailable")

    engine = Compactor(
        model="gpt-4o", max_context_tokens=24_000, output_reserve=4_000, clear_at_least=10**9
    )
    messages = long_conversation()
    # Within the absolute limit, a run whose summaries all fail makes no progress: the
    # conversation comes back as it was, and the report counts the failures.
    result = engine.compact(messages, summarize=broken, trigger="manual")
    assert result.status == {"kind": "noProgress"}
    assert result.messages == messages
    assert sum(level["failures"] for level in result.report["levels"]) >= 1
    assert any(event["type"] == "requestFailed" for event in result.events)


def test_input_too_long_is_retried_with_less() -> None:
    seen: List[Dict[str, Any]] = []

    def picky(request: Dict[str, Any]) -> str:
        seen.append(request)
        if len(seen) == 1:
            raise InputTooLong()
        return summary(request)

    result = small().compact(long_conversation(), summarize=picky, trigger="manual")
    assert result.compacted
    retried = [r for r in seen if r["attempt"] > 1]
    assert retried and retried[0]["inputTokens"] < seen[0]["inputTokens"]


def test_acompact_awaits_a_level_concurrently() -> None:
    engine = Compactor(
        model="gpt-4o", max_context_tokens=24_000, output_reserve=4_000, max_concurrency=4,
        summarizer_input_tokens=2_000,
    )
    running = 0
    most = 0

    async def summarize(request: Dict[str, Any]) -> str:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.02)
        running -= 1
        return summary(request)

    result = asyncio.run(engine.acompact(long_conversation(80), summarize=summarize))
    assert result.compacted
    assert 1 < most <= 4
    # The same messages as the plain driver, given the same answers.
    plain = Compactor(
        model="gpt-4o", max_context_tokens=24_000, output_reserve=4_000, max_concurrency=4,
        summarizer_input_tokens=2_000,
    ).compact(long_conversation(80), summarize=summary)
    assert plain.messages == result.messages


def test_acompact_honours_deadlines() -> None:
    engine = Compactor(
        model="gpt-4o", max_context_tokens=24_000, output_reserve=4_000,
        request_timeout_ms=50, max_attempts=1, clear_at_least=10**9,
    )

    async def hangs(request: Dict[str, Any]) -> str:
        await asyncio.sleep(30)
        return "never"

    started = time.monotonic()
    result = asyncio.run(engine.acompact(long_conversation(), summarize=hangs, trigger="manual"))
    assert time.monotonic() - started < 10
    assert not result.compacted
    failed = [e for e in result.events if e["type"] == "requestFailed"]
    assert failed and "deadline" in json.dumps(failed)


def test_cancelling_acompact_cancels_the_summaries() -> None:
    engine = small()
    cancelled = []

    async def slow(request: Dict[str, Any]) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(request["id"])
            raise
        return "never"

    async def main() -> None:
        task = asyncio.ensure_future(engine.acompact(long_conversation(), summarize=slow))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert cancelled
    # The compactor still works.
    assert small().compact(long_conversation(), summarize=summary).compacted


# Sessions ------------------------------------------------------------------------------


def test_a_session_appends_checks_and_compacts() -> None:
    engine = small()
    messages = long_conversation()
    session = engine.session("agent-1", messages[:2])
    for message in messages[2:]:
        session.append(message)
    assert len(session) == len(messages)
    assert session.assess()["totalTokens"] == engine.assess(messages)["totalTokens"]
    assert session.changes is None
    result = session.compact(summarize=summary)
    assert result.compacted
    assert session.messages == result.messages
    changes = session.changes
    assert changes is not None and changes["deleteCount"] > 0
    start, end = changes["start"], changes["start"] + changes["deleteCount"]
    assert messages[:start] + changes["insert"] + messages[end:] == session.messages
    session.extend([{"role": "assistant", "content": "Tests pass."}])
    assert session.messages[-1] == {"role": "assistant", "content": "Tests pass."}
    assert "segmentation" in session.plan()


def test_a_session_compacts_asynchronously() -> None:
    session = small().session("agent-2", long_conversation())

    async def summarize(request: Dict[str, Any]) -> str:
        await asyncio.sleep(0)
        return summary(request)

    result = asyncio.run(session.acompact(summarize=summarize))
    assert result.compacted and session.messages == result.messages


def test_a_session_refuses_bad_appends() -> None:
    session = small().session("agent-3", long_conversation(2))
    with pytest.raises(CompactorError) as error:
        session.append({"role": "bot", "content": "x"})
    assert error.value.code == "INVALID_INPUT"
    assert len(session) == len(long_conversation(2))


# Traps ---------------------------------------------------------------------------------


def test_a_trap_does_not_crash_python_and_a_fresh_instance_takes_over() -> None:
    # A memory limit the input cannot fit in: the engine's allocation fails, which traps.
    engine = Compactor(model="gpt-4o", memory_limit=48 * 1024 * 1024)
    huge = [{"role": "user", "content": "x " * 16_000_000}]
    session = engine.session("s", [{"role": "user", "content": "hi"}])
    with pytest.raises(CompactorError) as error:
        engine.assess(huge)
    assert error.value.code == "INTERNAL"
    # The session lived in the instance that trapped: it says so, it does not crash.
    with pytest.raises(CompactorError) as error:
        session.assess()
    assert error.value.code == "INTERNAL"
    assert engine.assess([{"role": "user", "content": "hi"}])["totalTokens"] > 0


def test_keyword_arguments_are_the_wit_config_record() -> None:
    """`Compactor`'s keyword arguments are the fields of the WIT `config` record, which is
    written from the engine's options table: same names, order and types."""
    import inspect
    import re

    from conftest import REPO

    wit = (REPO / "component" / "wit" / "compactor.wit").read_text()
    record = wit[wit.index("record config {") :]
    record = record[: record.index("\n    }")]
    fields = re.findall(r"^\s+([a-z-]+): option<([a-z0-9]+)>,$", record, re.M)
    python = {"string": "Optional[str]", "bool": "Optional[bool]", "f64": "Optional[float]"}
    expected = [(name.replace("-", "_"), python.get(kind, "Optional[int]")) for name, kind in fields]
    parameters = inspect.signature(Compactor.__init__).parameters.values()
    given = [(p.name, p.annotation) for p in parameters if p.name not in ("self", "memory_limit")]
    assert len(fields) >= 30
    assert given == expected
