"""Google ADK: a ``before_model_callback`` that keeps each model request inside the
model's context window with compactor.

    from google.adk.agents import LlmAgent
    from compactor.adk import CompactorCallback

    compaction = CompactorCallback(summarize, model="gemini-2.5-flash")
    agent = LlmAgent(name="coder", model=model, tools=[read_file], before_model_callback=compaction)

Before each model call, the request's ``contents`` (Gemini contents, which the engine reads
as they are) are compacted when they, with the system instruction counted beside them,
cross a limit: old function responses cleared, old turns folded into summaries written by
``summarize``, every ``functionCall`` kept with its ``functionResponse`` and every
``thoughtSignature`` on its part. A call whose response has not come yet (a long-running
tool) is the newest turn and stays as it is. Contents the engine did not rewrite are the
objects that went in. The session's events are left whole (ADK builds each request from
them): each old turn is summarized once, then the summary cache answers.
``compaction.last_result`` holds the latest check's report.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from google.genai import types

from ._adapt import Adapter, tagged, traced

__all__ = ["CompactorCallback"]


def _dump(content: types.Content) -> Dict[str, Any]:
    dumped: Dict[str, Any] = content.model_dump(mode="json", exclude_none=True, by_alias=True)
    return dumped


def _system(instruction: Any) -> Optional[Dict[str, Any]]:
    if instruction is None:
        return None
    if isinstance(instruction, str):
        return {"parts": [{"text": instruction}]} if instruction else None
    if isinstance(instruction, types.Content):
        return _dump(instruction)
    return None  # Parts or files: not counted.


class CompactorCallback(Adapter):
    """``LlmAgent(..., before_model_callback=CompactorCallback(summarize, model=...))``, or
    one of a list of callbacks. It changes the request in place and returns ``None``, so
    the model is called as usual."""

    async def __call__(self, callback_context: Any, llm_request: Any) -> None:
        contents: List[types.Content] = list(llm_request.contents or [])
        sent = tagged([_dump(content) for content in contents])
        body: Dict[str, Any] = {"contents": sent}
        system = _system(getattr(llm_request.config, "system_instruction", None))
        if system is not None:
            body["systemInstruction"] = system
        result = await self.acompact(body, "gemini")
        if not result.compacted:
            return None
        compacted: List[types.Content] = []
        for back in traced(result.messages["contents"], sent):
            if back.index is not None and not back.changed:
                compacted.append(contents[back.index])
            else:
                compacted.append(types.Content.model_validate(back.message))
        llm_request.contents = compacted
        return None
