"""compactor keeps an LLM agent's conversation inside the model's context window.

The engine is the project's WebAssembly component (WIT world ``compactor:engine``), run
on wasmtime: deterministic, it reads no clock, file or network; your model writes the
summaries, called by the drivers here.

    from compactor import Compactor

    compactor = Compactor(model="gpt-4o")
    result = compactor.compact(messages, summarize=lambda request: my_model(request["prompt"]))
    messages = result.messages
"""

from ._compactor import (
    Compactor,
    Messages,
    Session,
    count_tokens,
    count_tokens_each,
    detect_format,
)
from ._driver import CompactResult, SummaryRequest, offline
from .errors import CompactorError, InputTooLong

__all__ = [
    "CompactResult",
    "Compactor",
    "CompactorError",
    "InputTooLong",
    "Messages",
    "Session",
    "SummaryRequest",
    "count_tokens",
    "count_tokens_each",
    "detect_format",
    "offline",
]
