"""`Compactor` and `Session`: the npm package's API, in Python, over the component."""

from __future__ import annotations

import functools
import inspect
import json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from wasmtime.component import Record

from ._driver import (
    AsyncSummarize,
    CompactResult,
    OnEvent,
    RunHandle,
    Summarize,
    adrive,
    drive,
    now_ms,
)
from ._runtime import Runtime, checked, shared
from .errors import CompactorError

Messages = Union[Sequence[Mapping[str, Any]], Mapping[str, Any], str]
"""A conversation: a list of message dicts (OpenAI Chat Completions, Anthropic Messages,
Vercel AI SDK), a request body holding ``messages`` (an Anthropic body with ``system``),
or its JSON text."""

_TRIGGERS = ("proactive", "reactive", "manual")


def _jsonable(value: Any) -> Any:
    """SDK objects (pydantic models) as the dicts they stand for."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(exclude_none=True)
    raise TypeError(f"{type(value).__name__} is not JSON-serializable")


def dump_messages(messages: Messages, path: str = "messages") -> str:
    """The conversation as the JSON text the component reads: ASCII, non-ASCII characters
    as ``\\u`` escapes, unless those would take over a quarter of it (CJK text, say)."""
    # Performance notes, on the 1M-token bench conversation (4.3 MB of JSON, 0.3% of it
    # escapes), whose cold `assess` takes some 110 ms (the npm package's about 90):
    # - `ensure_ascii=False` (as before) took 25 ms to dump: one astral character (an
    #   emoji) makes the whole str 4 bytes a character, and wasmtime-py's UTF-8 encoding of
    #   it took 6.5 ms more. ASCII: 9.5 ms, and encoding it is a copy (0.3 ms). The escapes
    #   cost the component time to read, so text mostly of escapes (CJK: 45 ms slower on
    #   4 MB) is dumped again as UTF-8: such a conversation pays the thrown-away ASCII
    #   dump, about 10 ms, where one like the bench's saves 20. Everything the engine
    #   hands back (messages, summary requests) is JSON that decodes the same.
    # - bytes as WIT `list<u8>`: wasmtime-py lowers a list one element at a time, so 4 MB
    #   take about 4 s (0.9 µs a byte); a `string` is copied whole.
    # - orjson: 1 ms, but a second dependency whose errors and accepted types (int keys,
    #   dataclasses, datetimes) differ from `json`'s.
    # - `separators=(",", ":")`, `check_circular=False`: under 1 ms together.
    if isinstance(messages, str):
        return messages
    try:
        text = json.dumps(messages, default=_jsonable)
        if _escaped_share(text) > 0.25:
            text = json.dumps(messages, ensure_ascii=False, default=_jsonable)
        return text
    except (TypeError, ValueError) as error:
        raise CompactorError(
            "INVALID_INPUT", f"{path}: not JSON-serializable: {error}", path
        ) from None


def _escaped_share(text: str) -> float:
    """About how much of ASCII JSON `text` is ``\\u`` escapes, from 4 kB of every 64 kB
    (counting them all took 9 ms on 8 MB of escaped CJK, sampling takes well under 1)."""
    spans = [(start, min(start + 4096, len(text))) for start in range(0, len(text), 1 << 16)]
    sampled = sum(end - start for start, end in spans)
    escapes = sum(text.count("\\u", start, end) for start, end in spans)
    return escapes * 6 / max(sampled, 1)


def read_options(format: Optional[str], lenient: bool) -> Record:
    """The WIT `read-options` record."""
    record = Record()
    setattr(record, "format", format)
    setattr(record, "lenient", bool(lenient))
    return record


def _check_trigger(trigger: str) -> str:
    if trigger not in _TRIGGERS:
        raise CompactorError(
            "INVALID_INPUT",
            f"trigger: expected one of {', '.join(_TRIGGERS)}, found {trigger!r}",
            "trigger",
        )
    return trigger


@functools.lru_cache(maxsize=None)
def _config_fields() -> List[str]:
    """The WIT `config` record's fields, in snake case: `Compactor`'s keyword arguments
    but `memory_limit`."""
    parameters = inspect.signature(Compactor.__init__).parameters
    return [name for name in parameters if name not in ("self", "memory_limit")]


class Compactor:
    """Keeps a conversation inside the model's context window.

    Every number left out comes from the model catalog (``model="gpt-4o"``), else the
    engine's default; the keyword arguments are the npm package's ``CompactorConfig``
    fields in snake case. ``max_messages=0`` turns the message-count signal off.

    Every compactor of a process lives in one engine instance, which reads the vocabulary
    once: making one after the first is a single call into it. Compactors are safe to use
    from several threads and asyncio tasks (calls into the instance take turns).
    ``memory_limit`` caps the memory of the instance shared by the compactors given that
    same limit, in bytes: a call needing more fails with ``INTERNAL``, so do later calls on
    the runs and sessions that lived in it, and each compactor's next call starts in a
    fresh instance (with its config; its memo, cache and breakers start empty).
    """

    def __init__(
        self,
        model: Optional[str] = None,
        *,
        max_context_tokens: Optional[int] = None,
        output_reserve: Optional[int] = None,
        comfort_tokens: Optional[int] = None,
        trigger_ratio: Optional[float] = None,
        target_ratio: Optional[float] = None,
        max_messages: Optional[int] = None,
        keep_recent_turns: Optional[int] = None,
        tail_tokens: Optional[int] = None,
        keep_tool_results: Optional[int] = None,
        encoding: Optional[str] = None,
        min_tail_turns: Optional[int] = None,
        max_summary_tokens: Optional[int] = None,
        summary_model: Optional[str] = None,
        summary_provider: Optional[str] = None,
        enable_incremental: Optional[bool] = None,
        max_failures: Optional[int] = None,
        breaker_cooldown_ms: Optional[int] = None,
        min_messages: Optional[int] = None,
        clear_at_least: Optional[int] = None,
        max_preserved_user_tokens: Optional[int] = None,
        summarizer_input_tokens: Optional[int] = None,
        request_timeout_ms: Optional[int] = None,
        max_attempts: Optional[int] = None,
        min_reduction: Optional[float] = None,
        max_concurrency: Optional[int] = None,
        cache_capacity: Optional[int] = None,
        session_capacity: Optional[int] = None,
        extractive_fallback: Optional[bool] = None,
        summarize_outputs: Optional[bool] = None,
        instructions: Optional[str] = None,
        cached_price: Optional[float] = None,
        cache_write_price: Optional[float] = None,
        output_price: Optional[float] = None,
        memory_limit: Optional[int] = None,
    ) -> None:
        # Every keyword argument but `memory_limit` is a field of the WIT `config` record (a
        # test holds the two lists equal).
        given = dict(locals())
        self._config: Dict[str, Any] = {
            name: given[name] for name in _config_fields() if name in given
        }
        self._memory_limit = memory_limit
        self._runtime: Optional[Runtime] = None
        self._handle: Any = None
        self._start()

    def _record(self) -> Record:
        record = Record()
        for name, value in self._config.items():
            setattr(record, name.replace("_", "-"), value)
        return record

    def __del__(self) -> None:
        runtime = getattr(self, "_runtime", None)
        if runtime is not None:
            runtime.release(self._handle)

    def _start(self) -> Runtime:
        """The live runtime and this compactor's handle in it, made anew after a trap."""
        runtime = self._runtime
        if runtime is None or not runtime.alive:
            runtime = shared(self._memory_limit)
            try:
                handle = checked(runtime.call("[static]compactor.create", self._record()))
            except (TypeError, ValueError, OverflowError) as error:
                # A value of the wrong type for the record (wasmtime's check).
                raise CompactorError("INVALID_INPUT", f"config: {error}", "config") from None
            self._runtime, self._handle = runtime, handle
        return runtime

    def _call(self, method: str, *args: Any) -> Any:
        runtime = self._start()
        try:
            return checked(runtime.call(f"[method]compactor.{method}", self._handle, *args))
        except (TypeError, ValueError, OverflowError) as error:
            # A value of the wrong type for the WIT signature (wasmtime's check).
            raise CompactorError("INVALID_INPUT", str(error)) from None

    @property
    def budget(self) -> Dict[str, Any]:
        """The resolved numbers: window, reserve, trigger and target tokens, encoding."""
        budget: Dict[str, Any] = json.loads(self._call("budget"))
        return budget

    @property
    def counter(self) -> str:
        """The tokenizer in use: ``o200k_base``, ``cl100k_base`` or ``estimate``."""
        counter: str = self._call("counter")
        return counter

    def assess(
        self, messages: Messages, *, format: Optional[str] = None, lenient: bool = False
    ) -> Dict[str, Any]:
        """Tokens and messages against the limits: which signals fired, and the target.
        ``format`` names the format as `detect_format` does (``openai``, ``anthropic``,
        ``ai-sdk``, ``openai-responses``, ``gemini``; default: detected);
        ``lenient`` keeps unknown roles and parts as pinned, opaque messages."""
        assessment: Dict[str, Any] = json.loads(
            self._call("assess", dump_messages(messages), read_options(format, lenient))
        )
        return assessment

    def plan(
        self, messages: Messages, *, format: Optional[str] = None, lenient: bool = False
    ) -> Dict[str, Any]:
        """The assessment, the segments and the raw tail: what a run would work on."""
        plan: Dict[str, Any] = json.loads(
            self._call("plan", dump_messages(messages), read_options(format, lenient))
        )
        return plan

    def count_tokens(self, text: str, encoding: Optional[str] = None) -> int:
        """Counts `text` with this compactor's tokenizer, or with `encoding`."""
        if not isinstance(text, str):
            raise CompactorError(
                "INVALID_INPUT", f"text: expected a string, found {type(text).__name__}", "text"
            )
        count: int = self._call("count-tokens", text, encoding)
        return count

    def _begin(
        self,
        messages: Messages,
        read: Record,
        session_id: str,
        trigger: str,
    ) -> RunHandle:
        text = dump_messages(messages)
        handle = self._call("begin", text, read, session_id, _check_trigger(trigger), now_ms())
        assert self._runtime is not None
        return RunHandle(self._runtime, handle)

    def compact(
        self,
        messages: Messages,
        summarize: Summarize,
        *,
        session_id: str = "default",
        format: Optional[str] = None,
        lenient: bool = False,
        trigger: str = "proactive",
        on_event: Optional[OnEvent] = None,
    ) -> CompactResult:
        """Compacts `messages` when a limit is crossed (``trigger="manual"``: always).
        ``summarize(request) -> str`` writes each summary with your model; raise
        ``InputTooLong`` when it refuses the input as too long. Returns the conversation to
        use from now on, in the shape and format it came in; raises ``CompactorError`` and
        changes nothing when the run fails."""
        run = self._begin(messages, read_options(format, lenient), session_id, trigger)
        return drive(run, summarize, on_event)

    async def acompact(
        self,
        messages: Messages,
        summarize: AsyncSummarize,
        *,
        session_id: str = "default",
        format: Optional[str] = None,
        lenient: bool = False,
        trigger: str = "proactive",
        on_event: Optional[OnEvent] = None,
    ) -> CompactResult:
        """`compact` with an ``async`` summarizer: a level's requests are awaited
        concurrently (at most ``max_concurrency``), late ones fail at their deadline, and
        cancelling the task cancels the run and the summaries in flight."""
        run = self._begin(messages, read_options(format, lenient), session_id, trigger)
        return await adrive(run, summarize, on_event)

    def session(
        self,
        id: str,
        messages: Messages = (),
        *,
        format: Optional[str] = None,
        lenient: bool = False,
    ) -> "Session":
        """A conversation kept inside the engine: appending a turn and checking it costs
        the new messages only. Its format is ``format``, else detected from ``messages``,
        else OpenAI's."""
        text = dump_messages(list(messages) if isinstance(messages, tuple) else messages)
        handle = self._call("session", id, text, read_options(format, lenient))
        assert self._runtime is not None
        return Session(self, self._runtime, handle, id)

    def reset_circuit(self, session_id: str) -> None:
        """Closes a session's circuit breaker and forgets its failures."""
        self._call("reset-circuit", session_id)

    def export_state(self) -> Dict[str, Any]:
        """The engine's memory (breakers, latest results, summary cache) as plain data."""
        state: Dict[str, Any] = json.loads(self._call("export-state"))
        return state

    def import_state(self, state: Mapping[str, Any]) -> None:
        """Merges an exported state; a damaged one raises and imports nothing."""
        self._call("import-state", dump_messages(state, "state"))


class Session:
    """A conversation kept inside the engine, in the format it was created with.

    Made by `Compactor.session`. A session lives in the engine instance its compactor was
    in: if that instance traps, the session's calls raise ``INTERNAL`` (the compactor
    itself starts afresh)."""

    def __init__(self, owner: Compactor, runtime: Runtime, handle: Any, id: str) -> None:
        self._owner = owner
        self._runtime = runtime
        self._handle = handle
        self.id = id

    def __del__(self) -> None:
        runtime = getattr(self, "_runtime", None)
        if runtime is not None:
            runtime.release(self._handle)

    def _call(self, method: str, *args: Any) -> Any:
        return checked(self._runtime.call(f"[method]session.{method}", self._handle, *args))

    def append(self, message: Mapping[str, Any]) -> None:
        """Appends one message."""
        self.extend([message])

    def extend(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """Appends messages, in the session's format."""
        self._call("append", dump_messages(list(messages)))

    def assess(self) -> Dict[str, Any]:
        """Tokens and messages against the limits (no per-message counts)."""
        assessment: Dict[str, Any] = json.loads(self._call("assess"))
        return assessment

    def plan(self) -> Dict[str, Any]:
        """The plan of the session's conversation."""
        plan: Dict[str, Any] = json.loads(self._call("plan"))
        return plan

    @property
    def messages(self) -> Any:
        """The conversation, in the format and shape it came in."""
        return json.loads(self._call("messages"))

    @property
    def changes(self) -> Optional[Dict[str, Any]]:
        """How the latest compaction changed the messages: ``{start, deleteCount,
        insert}``; ``None`` before one."""
        changes = self._call("changes")
        return None if changes is None else json.loads(changes)

    def __len__(self) -> int:
        length: int = self._call("length")
        return length

    def _begin(self, trigger: str) -> RunHandle:
        handle = self._call("compact-begin", _check_trigger(trigger), now_ms())
        return RunHandle(self._runtime, handle, lambda: str(self._call("messages")))

    def compact(
        self,
        summarize: Summarize,
        *,
        trigger: str = "proactive",
        on_event: Optional[OnEvent] = None,
    ) -> CompactResult:
        """Compacts the session when a limit is crossed; afterwards it holds the result.
        Only the changes cross back: the result's ``messages`` are the session's, read
        when first asked for."""
        return drive(self._begin(trigger), summarize, on_event)

    async def acompact(
        self,
        summarize: AsyncSummarize,
        *,
        trigger: str = "proactive",
        on_event: Optional[OnEvent] = None,
    ) -> CompactResult:
        """`compact` with an ``async`` summarizer (see `Compactor.acompact`)."""
        return await adrive(self._begin(trigger), summarize, on_event)


def detect_format(messages: Messages) -> Optional[str]:
    """The name of a conversation's format (``openai``, ``anthropic``, ``ai-sdk``,
    ``openai-responses``, ``gemini``), or ``None`` when it is not a conversation."""
    detected: Optional[str] = _default_runtime().call("detect-format", dump_messages(messages))
    return detected


def count_tokens(text: str, encoding: Optional[str] = None) -> int:
    """Counts `text` with `encoding` (default ``o200k_base``)."""
    if not isinstance(text, str):
        raise CompactorError(
            "INVALID_INPUT", f"text: expected a string, found {type(text).__name__}", "text"
        )
    count: int = checked(_default_runtime().call("count-tokens", text, encoding))
    return count


def count_tokens_each(texts: Sequence[str], encoding: Optional[str] = None) -> List[int]:
    """Counts each of `texts` with `encoding` (default ``o200k_base``): one call into the
    engine for them all, which is much faster than one call per short text."""
    texts = list(texts)
    if not all(isinstance(text, str) for text in texts):
        raise CompactorError("INVALID_INPUT", "texts: expected a list of strings", "texts")
    counts: List[int] = checked(_default_runtime().call("count-tokens-each", texts, encoding))
    return counts


def _default_runtime() -> Runtime:
    """The instance the module-level functions use: the one compactors share."""
    return shared(None)
