"""Python figures for docs/PERFORMANCE.md: the per-turn check of a 1M-token session
(append one message + assess), a cold assessment of it beside the npm package's, and
counting on the corpus.

    COMPACTOR_CORPUS=... python python/bench/perf.py [--json OUT]
    python python/bench/perf.py --cold [ROUNDS]    (the cold assessments only)

With ``--json OUT`` the figures are also written to OUT, for scripts/perf-report.mjs.

The cold assessment is measured beside the npm package (wasm/pkg, built by wasm/build.sh)
on the same conversation, in the same run: wasm/bench/perf.mjs --cold runs in Node as a
child process, and the rounds alternate between the two (which goes first alternates too),
so that a load on the machine falls on both alike. Each side times what its own benchmark
calls cold, ``assess(messages)`` from the host's list or array on a new compactor, and
apart from it the making of that compactor: a Python ``Compactor`` is a wasmtime instance
of its own, which reads the vocabulary when it is made; the npm package reads it once per
process (here in the warm-up).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
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


# The compactor both sides make, in the npm package's config and in Python's (the message-count
# signal off: null in npm, 0 in Python).
CONFIG = {"model": "gpt-4o", "maxContextTokens": 2_000_000, "maxMessages": None}
PY_CONFIG = {"model": "gpt-4o", "max_context_tokens": 2_000_000, "max_messages": 0}


def cold_beside_npm(messages: List[Dict[str, Any]], rounds: int) -> Dict[str, Any]:
    """Cold assessments of `messages` in Python and in Node (the npm package), interleaved
    round by round: the medians, and Python's over Node's."""
    with tempfile.TemporaryDirectory() as tmp:
        conversation = Path(tmp) / "conversation.json"
        conversation.write_text(json.dumps(messages, ensure_ascii=False))
        node = subprocess.Popen(
            ["node", str(REPO / "wasm/bench/perf.mjs"), str(conversation), "--cold", json.dumps(CONFIG)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert node.stdin is not None and node.stdout is not None
        compactor.Compactor(**PY_CONFIG).assess(messages)  # the component compiled, the vocabulary read

        def npm() -> Dict[str, Any]:
            assert node.stdin is not None and node.stdout is not None
            node.stdin.write("\n")
            node.stdin.flush()
            answer: Dict[str, Any] = json.loads(node.stdout.readline())
            return answer

        def python() -> Dict[str, Any]:
            started = time.perf_counter()
            engine = compactor.Compactor(**PY_CONFIG)
            made = time.perf_counter()
            tokens = engine.assess(messages)["totalTokens"]
            done = time.perf_counter()
            return {"newMs": (made - started) * 1000, "ms": (done - made) * 1000, "tokens": tokens}

        runs: Dict[str, List[Dict[str, Any]]] = {"python": [], "npm": []}
        for round in range(rounds):
            for side in ("python", "npm") if round % 2 == 0 else ("npm", "python"):
                runs[side].append(python() if side == "python" else npm())
            py, js = runs["python"][-1], runs["npm"][-1]
            assert py["tokens"] == js["tokens"], f"Python counted {py['tokens']}, Node {js['tokens']}"
            print(f"  round {round + 1}: Python {py['ms']:.0f} ms (+{py['newMs']:.0f} to make it), npm {js['ms']:.0f} ms (+{js['newMs']:.1f})")
        node.stdin.close()
        node.wait()

    def median(side: str, key: str) -> float:
        return statistics.median(run[key] for run in runs[side])

    def median_total(side: str) -> float:
        return statistics.median(run["newMs"] + run["ms"] for run in runs[side])

    figures = dict(
        coldRounds=rounds,
        coldMs=median("python", "ms"),
        coldNpmMs=median("npm", "ms"),
        coldRatio=median("python", "ms") / median("npm", "ms"),
        coldWithNewMs=median_total("python"),
        coldWithNewNpmMs=median_total("npm"),
        coldWithNewRatio=median_total("python") / median_total("npm"),
        node=subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip(),
    )
    print(
        f"cold assess, {runs['python'][0]['tokens']:,} tokens, {len(messages):,} messages, medians of {rounds} interleaved rounds:\n"
        f"  assess(messages) on a new compactor: Python {figures['coldMs']:.0f} ms, npm {figures['coldNpmMs']:.0f} ms: {figures['coldRatio']:.2f}x\n"
        f"  making the compactor too: Python {figures['coldWithNewMs']:.0f} ms, npm {figures['coldWithNewNpmMs']:.0f} ms: {figures['coldWithNewRatio']:.2f}x"
    )
    return figures


def main() -> None:
    figures: Dict[str, Any] = {"python": sys.version.split()[0]}
    texts = corpus_texts()
    messages = session_of(1_000_000, texts)
    if "--cold" in sys.argv:
        rest = sys.argv[sys.argv.index("--cold") + 1 :]
        cold_beside_npm(messages, int(rest[0]) if rest and rest[0].isdigit() else 7)
        return
    figures.update(cold_beside_npm(messages, 7))
    engine = compactor.Compactor(**PY_CONFIG)
    assessed = engine.assess(messages)
    figures.update(tokens=assessed["totalTokens"], messages=len(messages))

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
