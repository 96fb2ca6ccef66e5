"""The wheel a Python user installs: built from this package (the component inside), it is
``py3-none-any``, installs into a fresh virtual environment with no Rust toolchain on PATH,
and runs the README's Python example there."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from conftest import REPO

WHEELS = Path(os.environ.get("COMPACTOR_WHEELS", REPO / "target" / "wheels"))

# What the README's example leaves to the reader, scripted: a model that reads a file a
# turn for 40 turns then answers, the tools it calls, a cheap model for the summaries.
PRELUDE = '''
import json

task = "Find where the config is parsed."
turns = iter(range(40))

def model(messages):
    n = next(turns, None)
    if n is None:
        return {"role": "assistant", "content": "It is parsed in src/config.rs."}
    call = {"id": f"call_{n}", "type": "function",
            "function": {"name": "cat", "arguments": json.dumps({"path": f"src/m{n}.rs"})}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}

def run_tools(calls):
    return [{"role": "tool", "tool_call_id": c["id"], "content": f"fn f() {{}} // {c['id']}\\n" * 50}
            for c in calls]

def cheap_model(prompt):
    assert prompt and prompt[-1]["content"]
    return "Read src/m0.rs onwards; the config is not parsed there."
'''

EPILOGUE = '''
messages = session.messages
assert messages[-1]["content"] == "It is parsed in src/config.rs.", messages[-1]
assert session.changes is not None, "the example compacted"
calls = {c["id"] for m in messages for c in m.get("tool_calls") or []}
assert calls == {m["tool_call_id"] for m in messages if m["role"] == "tool"}
print("compacted to", len(messages), "messages")
'''


def readme_example() -> str:
    """The first Python block of the README's Python section."""
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("### Python") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's Python section has an example"
    return match.group(1)


def without_rust(path: str) -> str:
    """PATH without the directories holding cargo, rustc or rustup."""
    kept = [
        d for d in path.split(os.pathsep)
        if d and not any((Path(d) / tool).exists() for tool in ("cargo", "rustc", "rustup"))
    ]
    return os.pathsep.join(kept)


def test_the_wheel_installs_and_runs_without_rust(tmp_path: Path) -> None:
    if not list(WHEELS.glob("wasmtime-*.whl")):
        pytest.skip(f"no wasmtime wheel in {WHEELS} (scripts/setup.sh downloads it)")
    # Built from a copy, so that the build leaves nothing in the repository.
    source = tmp_path / "source"
    shutil.copytree(
        REPO / "python", source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*")
    )
    assert (source / "src/compactor/compactor.wasm").exists(), "scripts/component.sh builds it"
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(source)],
        check=True, capture_output=True,
    )
    (wheel,) = dist.glob("*.whl")
    assert wheel.name == "compactor-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        assert "compactor/compactor.wasm" in archive.namelist()
    assert wheel.stat().st_size < 2_500_000

    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARGO", "RUSTUP", "COMPACTOR_"))}
    env["PATH"] = without_rust(os.environ["PATH"])
    env["COMPACTOR_CACHE_DIR"] = str(tmp_path / "cache")
    assert shutil.which("cargo", path=env["PATH"]) is None
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-index", "--find-links", str(WHEELS), str(wheel)],
        check=True, env=env,
    )
    script = tmp_path / "example.py"
    script.write_text(PRELUDE + textwrap.dedent(readme_example()) + EPILOGUE)
    run = subprocess.run([str(python), str(script)], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("compacted to")
    # It ran from the installed wheel, not from the repository.
    where = subprocess.run(
        [str(python), "-c", "import compactor; print(compactor.__file__)"],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=True,
    )
    assert str(venv) in where.stdout
