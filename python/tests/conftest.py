"""Shared fixtures: the corpus of agent trajectories and the command line built from the
same repository (the Rust reference the Python results are compared with)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]


def corpus_dir() -> Path:
    """`COMPACTOR_CORPUS` if set, else `../shared/corpus` beside the repository, as the Rust
    and JS tests find it."""
    given = os.environ.get("COMPACTOR_CORPUS")
    return Path(given) if given else REPO.parent / "shared" / "corpus"


def corpus_files() -> List[Path]:
    files = sorted(corpus_dir().glob("*.json"))
    if not files:
        raise RuntimeError(f"no corpus trajectories in {corpus_dir()} (set COMPACTOR_CORPUS)")
    return files


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `compactor` binary: `COMPACTOR_CLI`, else built with cargo."""
    given = os.environ.get("COMPACTOR_CLI")
    if given:
        return Path(given)
    subprocess.run(
        ["cargo", "build", "-q", "--locked", "-p", "compactor-tui"], cwd=REPO, check=True
    )
    return REPO / "target" / "debug" / "compactor"


def readme_example(marker: str, readme: Path = REPO / "python" / "README.md") -> str:
    """The README's ```python block holding `marker`: the example a test runs as written."""
    text = readme.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    found = [block for block in blocks if marker in block]
    assert len(found) == 1, f"{readme.name} has one example with {marker!r}"
    return found[0]
