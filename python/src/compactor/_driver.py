"""The drivers: loops over a run's `poll` / `complete`, as the Rust and npm drivers are.

The engine owns time and concurrency: `poll` hands out at most `max_concurrency` requests
and names the next deadline; a driver only calls the summarizer, hands answers back, and
reports the time. The rule: after `begin`, `complete` or `handle_timeout`, poll until
`wait`, `done` or `failed`.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Awaitable, Callable, Dict, List, Optional, Union

from wasmtime.component import Variant

from ._runtime import Runtime, checked
from .errors import CompactorError, InputTooLong

SummaryRequest = Dict[str, Any]
"""A summary request as the npm package hands it out: ``prompt`` (messages to send to the
model), ``maxOutputTokens``, ``level``, ``covers``, ``deadlineMs``, ``model``..."""

Summarize = Callable[[SummaryRequest], str]
AsyncSummarize = Callable[[SummaryRequest], Awaitable[str]]
OnEvent = Callable[[Dict[str, Any]], None]


def now_ms() -> int:
    """The clock the drivers hand the engine: wall time in milliseconds."""
    return int(time.time() * 1000)


class CompactResult:
    """A finished run: the conversation to use from now on, in the shape and format it
    came in, with the engine's report.

    The conversation crosses from the engine once, as JSON text, and is parsed when first
    asked for; a session's run sends only its changes (the session holds the messages)."""

    def __init__(
        self,
        status: Dict[str, Any],
        report: Dict[str, Any],
        text: Union[str, Callable[[], str]],
        changes: Optional[Dict[str, Any]] = None,
        events: Optional[List[Dict[str, Any]]] = None,
    ) -> None:
        self.status = status
        """``{"kind": "compacted" | "skipped" | "noOp" | "noProgress", ...}``."""
        self.report = report
        """Tokens and messages before and after, levels walked, requests, the loss receipt."""
        self.changes = changes
        """A session's run: ``{start, deleteCount, insert}`` in the session's messages."""
        self.events: List[Dict[str, Any]] = events if events is not None else []
        """Everything the run reported, in order."""
        self._text = text
        self._messages: Any = None

    @property
    def text(self) -> str:
        """The conversation as JSON text, laid out as the input text was (when the input
        was text, untouched messages are its own bytes). A session's run: the session's
        messages, written when first asked for."""
        if callable(self._text):
            self._text = self._text()
        return self._text

    @property
    def messages(self) -> Any:
        """The conversation (a list of messages, or the request body it came in)."""
        if self._messages is None:
            self._messages = json.loads(self.text)
        return self._messages

    @property
    def compacted(self) -> bool:
        """Did the run rewrite the conversation?"""
        return self.status.get("kind") == "compacted"


class RunHandle:
    """A `run` resource of one runtime. Dropping it cancels the run. `written` writes the
    conversation of a session's run (which the outcome leaves out)."""

    def __init__(
        self, runtime: Runtime, handle: Any, written: Optional[Callable[[], str]] = None
    ) -> None:
        self.runtime = runtime
        self.handle = handle
        self.written = written
        self.events: List[Dict[str, Any]] = []

    def call(self, method: str, *args: Any) -> Any:
        return checked(self.runtime.call(f"[method]run.{method}", self.handle, *args))

    def poll(self, on_event: Optional[OnEvent]) -> Any:
        """One call a step: the events since the last poll come with it."""
        polled = self.call("poll")
        events = polled.events
        if events != "[]":
            for event in json.loads(events):
                self.events.append(event)
                if on_event is not None:
                    on_event(event)
        return polled.step

    def complete(self, request_id: int, answer: Variant) -> None:
        self.call("complete", request_id, answer, now_ms())

    def finished(self, outcome: Any) -> CompactResult:
        changes = getattr(outcome, "changes")
        text = outcome.messages
        if text is None:
            if self.written is None:
                raise CompactorError("INTERNAL", "the engine wrote no messages for this run")
            text = self.written
        return CompactResult(
            status=json.loads(getattr(outcome, "status-json")),
            report=json.loads(outcome.report),
            text=text,
            changes=None if changes is None else json.loads(changes),
            events=self.events,
        )

    def close(self) -> None:
        handle, self.handle = self.handle, None
        self.runtime.drop(handle)


def offline(request: SummaryRequest) -> str:
    """The engine's own offline summarizer (extractive: no model, no network), as the
    command line's ``--summarizer extractive``. Pass it as ``summarize``; the drivers hand
    each request to the engine for its answer."""
    raise CompactorError(
        "INVALID_INPUT", "summarize: `offline` is answered by the engine inside a run"
    )


def _answer_for(run: "RunHandle", summarize: Any, wit_request: Any) -> Optional[Variant]:
    """The engine's own answer when `summarize` is `offline`; `None` otherwise."""
    if summarize is offline:
        return Variant("ok", run.call("offline-summary", wit_request.id))
    return None


def _answer(value: Any) -> Variant:
    """A summarizer's return value as the WIT `result<string, summary-failure>`."""
    if isinstance(value, str):
        return Variant("ok", value)
    return Variant("err", f"summarize returned {type(value).__name__}, expected a string")


def _failure(error: BaseException) -> Variant:
    # wasmtime-py tags a variant only when its cases' Python types overlap: `summary-failure`
    # is untagged (`None` is input-too-long, a string is failed), the result around it is.
    if isinstance(error, InputTooLong):
        return Variant("err", None)
    return Variant("err", str(error) or type(error).__name__)


def _request(wit_request: Any) -> SummaryRequest:
    request: SummaryRequest = json.loads(wit_request.json)
    return request


def _failed(error: Any) -> CompactorError:
    return CompactorError.from_record(error)


def drive(run: RunHandle, summarize: Summarize, on_event: Optional[OnEvent]) -> CompactResult:
    """Drives `run` with a plain function: each request is answered before the next poll
    (one at a time; `acompact` runs a level's requests concurrently)."""
    try:
        while True:
            step = run.poll(on_event)
            if step.tag == "summarize":
                for wit_request in step.payload:
                    answer = _answer_for(run, summarize, wit_request)
                    if answer is None:
                        try:
                            answer = _answer(summarize(_request(wit_request)))
                        except Exception as error:  # noqa: BLE001 - the summarizer's failure
                            answer = _failure(error)
                    run.complete(wit_request.id, answer)
            elif step.tag == "wait":
                # Every request handed out was answered; the engine waits for a deadline
                # (a retry's back-off): sleep until then, and say so.
                pause = (step.payload - now_ms()) / 1000
                if pause > 0:
                    time.sleep(pause)
                run.call("handle-timeout", now_ms())
            elif step.tag == "done":
                return run.finished(step.payload)
            elif step.tag == "failed":
                raise _failed(step.payload)
            else:
                raise CompactorError("INTERNAL", f"unknown step {step.tag!r} from the engine")
    finally:
        run.close()


async def adrive(
    run: RunHandle,
    summarize: Union[AsyncSummarize, Summarize],
    on_event: Optional[OnEvent],
) -> CompactResult:
    """Drives `run` with a coroutine function: the requests the engine hands out (a
    level's, at most `max_concurrency`) are awaited concurrently; a deadline that passes
    fails its request; cancelling the task cancels the run and every summary in flight."""
    in_flight: Dict["asyncio.Future[Any]", Any] = {}
    try:
        while True:
            step = run.poll(on_event)
            if step.tag == "summarize":
                for wit_request in step.payload:
                    answer = _answer_for(run, summarize, wit_request)
                    if answer is not None:
                        run.complete(wit_request.id, answer)
                    else:
                        in_flight[_start(summarize, _request(wit_request))] = wit_request
                continue
            if step.tag == "done":
                return run.finished(step.payload)
            if step.tag == "failed":
                raise _failed(step.payload)
            if step.tag != "wait":
                raise CompactorError("INTERNAL", f"unknown step {step.tag!r} from the engine")
            timeout = max(0.0, (step.payload - now_ms()) / 1000) + 0.001
            if not in_flight:
                await asyncio.sleep(timeout)
                run.call("handle-timeout", now_ms())
                continue
            done, _ = await asyncio.wait(
                list(in_flight), timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if not done:
                run.call("handle-timeout", now_ms())
                _cancel_late(in_flight)
                continue
            for future in done:
                wit_request = in_flight.pop(future)
                error = future.exception()
                answer = _failure(error) if error is not None else _answer(future.result())
                run.complete(wit_request.id, answer)
    except asyncio.CancelledError:
        if run.handle is not None:
            run.call("cancel")
        raise
    finally:
        for future in in_flight:
            future.cancel()
        run.close()


def _start(summarize: Union[AsyncSummarize, Summarize], request: SummaryRequest) -> "asyncio.Future[Any]":
    """Calls `summarize`; a plain function's value (or exception) becomes a settled future."""
    try:
        value = summarize(request)
    except Exception as error:  # noqa: BLE001 - the summarizer's failure, reported to the engine
        future: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        future.set_exception(error)
        return future
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        return asyncio.ensure_future(value)
    future = asyncio.get_running_loop().create_future()
    future.set_result(value)
    return future


def _cancel_late(in_flight: Dict["asyncio.Future[Any]", Any]) -> None:
    """Cancels the summaries whose deadline passed: the engine has failed them."""
    now = now_ms()
    for future, wit_request in list(in_flight.items()):
        deadline = json.loads(wit_request.json).get("deadlineMs")
        if isinstance(deadline, int) and deadline <= now:
            future.cancel()
            del in_flight[future]
