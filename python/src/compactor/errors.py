"""`CompactorError`: what every call raises, with a stable code and, for bad input, a path."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional


class CompactorError(Exception):
    """A failure of compactor. Whatever the code, the caller's conversation is unchanged.

    Codes (stable, only ever added to): ``INVALID_INPUT`` (``path`` says where),
    ``CONTEXT_OVERFLOW``, ``CIRCUIT_OPEN``, ``CONFLICT``, ``ABORTED``, ``SUMMARY_FAILED``,
    ``INTERNAL``. ``details`` holds more (the offenders of an overflow, the level of a
    failed summary).
    """

    def __init__(
        self,
        code: str,
        message: str,
        path: Optional[str] = None,
        details: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        self.details: Dict[str, Any] = details or {}

    @classmethod
    def from_record(cls, record: Any) -> "CompactorError":
        """The error the component's `error` record describes."""
        try:
            details = json.loads(record.details)
        except (TypeError, ValueError):
            details = {}
        code = str(record.code).replace("-", "_").upper()
        return cls(code, record.message, record.path, details)

    def __repr__(self) -> str:
        where = f", path={self.path!r}" if self.path else ""
        return f"CompactorError({self.code!r}, {self.message!r}{where})"


class InputTooLong(Exception):
    """Raise it from a summarizer whose model refused the input as too long: the engine
    retries the request with less."""
