"""How long a `Compactor()` takes to make, beside npm's `new Compactor()`.

    python python/bench/handle.py [ROUNDS] [--json OUT]

Each round starts fresh processes, so that "first" means first in a process:

- Python, first on the machine: the compiled-component cache empty (a temporary
  ``COMPACTOR_CACHE_DIR``), so wasmtime compiles the component;
- Python, first in a process once the package has run on the machine (the cache kept);
- Python, each later one in that process (the median of 50);
- npm (wasm/pkg, built by wasm/build.sh), the first `new Compactor()` after the import
  (which instantiated the module) and each later one.

`import` is timed apart: both packages load their module when imported.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List

REPO = Path(__file__).resolve().parents[2]

PYTHON = r"""
import json, statistics, time
started = time.perf_counter()
import compactor
imported = time.perf_counter()
compactor.Compactor(model="gpt-4o")
first = time.perf_counter()
later = []
for _ in range(50):
    t = time.perf_counter()
    compactor.Compactor(model="gpt-4o")
    later.append(time.perf_counter() - t)
print(json.dumps({"importMs": (imported - started) * 1e3, "firstMs": (first - imported) * 1e3,
                  "laterMs": statistics.median(later) * 1e3}))
"""

NODE = r"""
const started = performance.now();
const { Compactor } = await import(process.argv[1]);
const imported = performance.now();
new Compactor({ model: "gpt-4o" });
const first = performance.now();
const later = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  new Compactor({ model: "gpt-4o" });
  later.push(performance.now() - t);
}
later.sort((a, b) => a - b);
console.log(JSON.stringify({ importMs: imported - started, firstMs: first - imported, laterMs: later[25] }));
"""


def python_round(cache: str) -> Dict[str, float]:
    env = {**__import__("os").environ, "COMPACTOR_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", PYTHON], env=env, capture_output=True, text=True, check=True)
    figures: Dict[str, float] = json.loads(out.stdout)
    return figures


def node_round() -> Dict[str, float]:
    module = (REPO / "wasm/pkg/node.js").as_uri()
    out = subprocess.run(
        ["node", "--input-type=module", "-e", NODE, module], capture_output=True, text=True, check=True
    )
    figures: Dict[str, float] = json.loads(out.stdout)
    return figures


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = int(args[0]) if args and args[0].isdigit() else 5
    runs: Dict[str, List[Dict[str, float]]] = {"cold": [], "warm": [], "npm": []}
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as cache:
            runs["cold"].append(python_round(cache))
            runs["warm"].append(python_round(cache))
        if (REPO / "wasm/pkg/node.js").exists():
            runs["npm"].append(node_round())

    def median(side: str, key: str) -> float:
        return statistics.median(run[key] for run in runs[side])

    figures: Dict[str, Any] = {
        "rounds": rounds,
        "pythonImportMs": median("warm", "importMs"),
        "pythonFirstOnMachineMs": median("cold", "firstMs"),
        "pythonFirstMs": median("warm", "firstMs"),
        "pythonLaterMs": median("warm", "laterMs"),
    }
    print(f"Compactor(), medians of {rounds} rounds, each in fresh processes:")
    print(f"  Python: import {figures['pythonImportMs']:.0f} ms; first on the machine (compiling) "
          f"{figures['pythonFirstOnMachineMs']:.0f} ms; first in a process {figures['pythonFirstMs']:.0f} ms; "
          f"each later {figures['pythonLaterMs']:.2f} ms")
    if runs["npm"]:
        figures.update(npmImportMs=median("npm", "importMs"), npmFirstMs=median("npm", "firstMs"),
                       npmLaterMs=median("npm", "laterMs"))
        print(f"  npm:    import {figures['npmImportMs']:.0f} ms; first in a process {figures['npmFirstMs']:.0f} ms; "
              f"each later {figures['npmLaterMs']:.2f} ms")
    if "--json" in sys.argv:
        Path(sys.argv[sys.argv.index("--json") + 1]).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
