"""The runtime: the compiled component cached on disk, one instance shared by every
compactor of a process, safe across threads and asyncio tasks, a trap kept to what lived in
the instance it broke."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

from compactor import Compactor, CompactorError, _runtime
from test_api import long_conversation, small, summary

PROBE = r"""
import json, time
started = time.perf_counter()
import compactor
compactor.Compactor(model="gpt-4o")
first = time.perf_counter() - started
later = []
for _ in range(20):
    t = time.perf_counter()
    compactor.Compactor(model="gpt-4o")
    later.append(time.perf_counter() - t)
print(json.dumps({"first": first, "later": sorted(later)[10]}))
"""


def probe(cache: Path) -> Dict[str, float]:
    """A fresh process: how long its first and later `Compactor()` took."""
    env = {**os.environ, "COMPACTOR_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    figures: Dict[str, float] = json.loads(out.stdout)
    return figures


def test_the_compiled_component_is_kept_for_the_next_process(tmp_path: Path) -> None:
    cold = probe(tmp_path)
    kept = list(tmp_path.glob("compactor-*.cwasm"))
    assert len(kept) == 1
    # Named by the component's hash, the wasmtime version and the CPU.
    named = _runtime.cache_file(_runtime.WASM.read_bytes())
    assert named is not None and kept[0].name == named.name
    warm = probe(tmp_path)
    # Compiling is most of a cold start; mapping the kept code is a millisecond.
    assert warm["first"] < cold["first"] / 2, (cold, warm)
    # Later compactors are a call into the shared instance, not an instance each.
    assert warm["later"] < 0.02, warm


def test_a_damaged_cache_file_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    probe(tmp_path)
    (kept,) = tmp_path.glob("compactor-*.cwasm")
    kept.write_bytes(b"\0asm not a compiled component")
    probe(tmp_path)
    assert kept.stat().st_size > 1_000_000
    assert not list(tmp_path.glob(".compactor-*"))  # no temporary file left behind


def test_an_unwritable_cache_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache directory would be")
    assert probe(blocked / "cache")["first"] > 0


def test_compactors_share_one_instance() -> None:
    a, b = small(), Compactor(model="claude-sonnet-4-5")
    assert a._start() is b._start()
    # Each keeps its own numbers, memo and breakers in it.
    assert a.budget["maxContextTokens"] == 24_000 != b.budget["maxContextTokens"]
    assert a.counter == "o200k_base" != b.counter


def test_a_collected_compactor_frees_its_handle() -> None:
    kept = small()
    runtime = small()._start()
    gc.collect()
    assert runtime._released, "the handle waits to be dropped"
    kept.assess(long_conversation(2))
    assert not runtime._released


def test_threads_share_the_instance_safely() -> None:
    expected = small().compact(long_conversation(), summarize=summary).messages
    results: List[Any] = []
    errors: List[BaseException] = []

    def work() -> None:
        try:
            for _ in range(3):
                engine = small()
                results.append(engine.compact(long_conversation(), summarize=summary).messages)
                session = engine.session("t", long_conversation(4))
                session.extend(long_conversation(6)[-2:])
                assert len(session) == len(long_conversation(4)) + 2
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert len(results) == 18 and all(r == expected for r in results)


def test_asyncio_tasks_share_the_instance_safely() -> None:
    async def summarize(request: Dict[str, Any]) -> str:
        await asyncio.sleep(0.001)
        return summary(request)

    async def main() -> List[Any]:
        runs = [small().acompact(long_conversation(), summarize=summarize) for _ in range(8)]
        return [r.messages for r in await asyncio.gather(*runs)]

    expected = small().compact(long_conversation(), summarize=summary).messages
    assert all(messages == expected for messages in asyncio.run(main()))


def test_a_trap_breaks_only_what_lived_in_that_instance() -> None:
    # Compactors given one memory limit share an instance; the unlimited ones another.
    limit = 48 * 1024 * 1024
    trapping, neighbour = Compactor(model="gpt-4o", memory_limit=limit), Compactor(
        model="gpt-4o", memory_limit=limit
    )
    elsewhere = Compactor(model="gpt-4o")
    hi = [{"role": "user", "content": "hi"}]
    its_session = neighbour.session("n", hi)
    other_session = elsewhere.session("e", hi)
    with pytest.raises(CompactorError) as error:
        trapping.assess([{"role": "user", "content": "x " * 16_000_000}])
    assert error.value.code == "INTERNAL"
    # The session in the broken instance says so; it does not crash.
    with pytest.raises(CompactorError) as error:
        its_session.assess()
    assert error.value.code == "INTERNAL"
    # Every compactor's next call starts in a fresh instance, with its own config.
    assert trapping.assess(hi)["totalTokens"] > 0
    assert neighbour.assess(hi)["totalTokens"] > 0
    assert trapping._start() is neighbour._start()
    # The other instance never noticed.
    assert other_session.assess()["totalTokens"] > 0
    assert elsewhere._start() is not trapping._start()
