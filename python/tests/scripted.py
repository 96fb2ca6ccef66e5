"""What the framework adapters' tests share: the task a scripted model is given, the answer
it ends with, the summary a scripted summarizer writes, and the tool it calls turn after
turn (each framework wraps it as its own tool)."""

from __future__ import annotations

TASK = "Find where the config is parsed."
ANSWER = "It is parsed in src/config.rs."
SUMMARY = "Read src/m0.rs onwards; no config parsing there."


def file_text(path: str, lines: int = 40) -> str:
    """A file of the repository, `lines` lines long, each naming the path it is in."""
    return "".join(f"{path}:{n}: let value_{n} = compute({n});\n" for n in range(lines))


def read_file(path: str) -> str:
    """Reads a file of the repository."""
    return file_text(path)
