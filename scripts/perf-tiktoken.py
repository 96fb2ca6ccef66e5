"""Python tiktoken's counting, for the performance suite (scripts/perf.sh runs it).

Counts the suite's two corpora with Python tiktoken's o200k_base, built from the rank file
the core embeds (tiktoken would otherwise download it), and writes DIR/python.json in the
shape of the other halves' counting figures. Exits 0 without writing when tiktoken is not
installed (`pip install tiktoken`), so the report says it was skipped.

Usage: python3 scripts/perf-tiktoken.py DIR [--quick]
"""

import base64
import json
import pathlib
import platform
import statistics
import sys
import time

# o200k_base's split pattern, as tiktoken_ext.openai_public writes it.
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
RANKS = pathlib.Path(__file__).resolve().parent.parent / "core" / "vocab" / "o200k_base.tiktoken"


def encoding(tiktoken):
    ranks = {}
    for line in RANKS.read_bytes().splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return tiktoken.Encoding(
        "o200k_base",
        pat_str=O200K_PATTERN,
        mergeable_ranks=ranks,
        special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    )


def counting(enc, texts, runs):
    count = lambda: sum(len(enc.encode_ordinary(t)) for t in texts)
    tokens = count()  # warm-up, and the total
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        if count() != tokens:
            raise SystemExit("Python tiktoken is not deterministic")
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    return {
        "texts": len(texts),
        "bytes": sum(len(t.encode()) for t in texts),
        "tokenizers": {
            "tiktoken (Python)": {
                "tokens": tokens,
                "seconds": seconds,
                "tokensPerSecond": tokens / seconds,
            }
        },
    }


def main():
    out = pathlib.Path(sys.argv[1])
    runs = 3 if "--quick" in sys.argv else 7
    try:
        import tiktoken
    except ImportError:
        print("Python tiktoken is not installed (pip install tiktoken): skipped")
        return
    enc = encoding(tiktoken)
    result = {
        "python": platform.python_version(),
        "tiktoken": getattr(tiktoken, "__version__", "unknown"),
        "counting": {
            name: counting(enc, json.loads((out / f"{name}-texts.json").read_text()), runs)
            for name in ("corpus", "mixed")
        },
    }
    (out / "python.json").write_text(json.dumps(result))
    for name, figures in result["counting"].items():
        t = figures["tokenizers"]["tiktoken (Python)"]
        print(f"{name}: {t['tokens']} tokens, {t['seconds'] * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
