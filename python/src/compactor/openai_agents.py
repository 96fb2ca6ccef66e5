"""The OpenAI Agents SDK: an input filter that compacts what each model call is sent, and
a session that keeps its stored history compacted.

    from agents import RunConfig, Runner
    from compactor.openai_agents import CompactorInputFilter

    compaction = CompactorInputFilter(summarize, model="gpt-4o")
    result = await Runner.run(agent, task, run_config=RunConfig(call_model_input_filter=compaction))

The SDK's history is OpenAI Responses items, a format the engine reads as it is: calls and
their outputs stay together (by ``call_id``), a reasoning item travels with the item after
it, built-in tool items and server-side compaction items are kept, and summaries are user
``message`` items. Items the engine did not rewrite come back equal to the ones sent.

The filter compacts the input of every model call and leaves the run's own history
whole: repeated checks cost little (each old turn is summarized once, then the summary
cache answers). `CompactingSession` wraps a session (``SQLiteSession``, ...) and rewrites
what it stores when a turn's items take it over a limit, so the next run starts from the
compacted history.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from agents.memory import Session
from agents.run_config import CallModelData, ModelInputData

from ._adapt import Adapter, Summarizer
from ._compactor import Compactor

__all__ = ["CompactingSession", "CompactorInputFilter"]

FORMAT = "openai-responses"


class CompactorInputFilter(Adapter):
    """``RunConfig(call_model_input_filter=CompactorInputFilter(summarize, model=...))``:
    before each model call, the input items are compacted when they cross a limit (with
    the agent's instructions counted beside them, unchanged). ``last_result`` holds the
    latest check's `CompactResult`."""

    async def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        model_data = data.model_data
        body: Dict[str, Any] = {"input": list(model_data.input)}
        if model_data.instructions:
            body["instructions"] = model_data.instructions
        result = await self.acompact(body, FORMAT)
        if not result.compacted:
            return model_data
        return ModelInputData(input=result.messages["input"], instructions=model_data.instructions)


class CompactingSession:
    """A session that compacts (the SDK's `Session` protocol): items go to `session` (any
    Agents SDK session), and when a
    turn's items take the stored history over a limit, the store is rewritten with the
    compacted history (cleared, then written again: a store shared by concurrent runs
    needs its own lock around a run). ``last_result`` holds the latest check's
    `CompactResult`; a failed compaction raises ``CompactorError`` after the items were
    stored, and the store keeps them all."""

    def __init__(
        self,
        session: Session,
        summarize: Summarizer,
        *,
        compactor: Optional[Compactor] = None,
        **config: Any,
    ) -> None:
        self.session = session
        self.session_id = session.session_id
        self.session_settings = getattr(session, "session_settings", None)
        self._adapter = Adapter(summarize, compactor=compactor, session_id=session.session_id, **config)

    @property
    def compactor(self) -> Compactor:
        """The compactor that checks the history."""
        return self._adapter.compactor

    @property
    def last_result(self) -> Any:
        """The latest check's `CompactResult` (``None`` before the first)."""
        return self._adapter.last_result

    async def get_items(self, limit: Optional[int] = None) -> List[Any]:
        return await self.session.get_items(limit)

    async def add_items(self, items: List[Any]) -> None:
        await self.session.add_items(items)
        stored = await self.session.get_items()
        result = await self._adapter.acompact({"input": stored}, FORMAT)
        if result.compacted:
            await self.session.clear_session()
            await self.session.add_items(result.messages["input"])

    async def pop_item(self) -> Any:
        return await self.session.pop_item()

    async def clear_session(self) -> None:
        await self.session.clear_session()
