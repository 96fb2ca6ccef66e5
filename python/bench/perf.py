"""Python figures for docs/PERFORMANCE.md: the per-turn check of a 1M-token session
(append one message + assess), a cold assessment of it, and counting on the corpus.

    COMPACTOR_CORPUS=... python python/bench/perf.py [--json OUT]

With ``--json OUT`` the figures are also written to OUT, for scripts/perf-report.mjs.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import compactor

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("COMPACTOR_CORPUS", REPO.parent / "shared" / "corpus"))


def corpus_texts() -> List[str]:
    texts = []
    for path in sorted(CORPUS.glob("*.json")):
        for message in json.loads(path.read_text()):
            content = message.get("content")
            if isinstance(content, str) and content:
                texts.append(content)
    return texts


def session_of(tokens: int, texts: List[str]) -> List[Dict[str, Any]]:
    """User and assistant turns made of corpus texts, about `tokens` in all."""
    messages: List[Dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    total, i = 0, 0
    while total < tokens:
        text = texts[i % len(texts)] + f" [{i}]"
        messages.append({"role": "user" if i % 2 == 0 else "assistant", "content": text})
        total += len(text) // 4
        i += 1
    return messages


def main() -> None:
    figures: Dict[str, Any] = {"python": sys.version.split()[0]}
    texts = corpus_texts()
    messages = session_of(1_000_000, texts)
    engine = compactor.Compactor(model="gpt-4o", max_context_tokens=2_000_000, max_messages=0)

    started = time.perf_counter()
    assessed = engine.assess(messages)
    cold = time.perf_counter() - started
    figures.update(tokens=assessed["totalTokens"], messages=len(messages), coldMs=cold * 1000)
    print(f"cold assess, {assessed['totalTokens']:,} tokens, {len(messages):,} messages: {cold * 1000:.0f} ms")

    session = engine.session("bench", messages)
    session.assess()
    turns = []
    for n in range(200):
        message = {"role": "user", "content": f"turn {n}: " + texts[n % len(texts)][:400]}
        started = time.perf_counter()
        session.append(message)
        session.assess()
        turns.append(time.perf_counter() - started)
    figures.update(perTurnMedianMs=statistics.median(turns) * 1000, perTurnP95Ms=sorted(turns)[189] * 1000)
    print(f"per-turn check (append one message + assess) on that session: median {statistics.median(turns) * 1000:.3f} ms, p95 {sorted(turns)[189] * 1000:.3f} ms")

    total_bytes = sum(len(t.encode()) for t in texts)
    started = time.perf_counter()
    counted = sum(compactor.count_tokens(t) for t in texts)
    took = time.perf_counter() - started
    figures.update(countBytes=total_bytes, countTexts=len(texts), countOneCallEachMBs=total_bytes / took / 1e6)
    print(f"count_tokens, one call a text ({len(texts):,} texts, {total_bytes / 1e6:.1f} MB, {counted:,} tokens): {total_bytes / took / 1e6:.1f} MB/s")
    started = time.perf_counter()
    counted_each = sum(compactor.count_tokens_each(texts))
    took = time.perf_counter() - started
    assert counted_each == counted
    figures.update(countEachMBs=total_bytes / took / 1e6)
    print(f"count_tokens_each, one call for all: {total_bytes / took / 1e6:.1f} MB/s")
    try:
        import importlib.util

        import tiktoken

        # o200k_base from the rank file the core embeds (tiktoken would download it).
        spec = importlib.util.spec_from_file_location("perf_tiktoken", REPO / "scripts/perf-tiktoken.py")
        assert spec is not None and spec.loader is not None
        helper = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(helper)
        encoding = helper.encoding(tiktoken)
        started = time.perf_counter()
        reference = sum(len(encoding.encode_ordinary(t)) for t in texts)
        took = time.perf_counter() - started
        figures.update(tiktokenMBs=total_bytes / took / 1e6, tiktoken=tiktoken.__version__)
        print(f"Python tiktoken on the same texts ({reference:,} tokens): {total_bytes / took / 1e6:.1f} MB/s")
    except Exception as error:  # noqa: BLE001 - the comparison is optional
        print(f"Python tiktoken: not measured ({type(error).__name__})")
    wasm = Path(compactor.__file__).with_name("compactor.wasm").read_bytes()
    import gzip

    figures.update(componentBytes=len(wasm), componentGzipped=len(gzip.compress(wasm, 9)))
    print(f"component: {len(wasm):,} bytes, {figures['componentGzipped']:,} gzipped")
    if "--json" in sys.argv:
        Path(sys.argv[sys.argv.index("--json") + 1]).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
