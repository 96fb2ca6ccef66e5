#!/usr/bin/env bash
# The performance suite: every figure of docs/PERFORMANCE.md, each beside its alternatives
# from the same run, and the chart docs/perf-scaling.svg.
#
#   scripts/perf.sh           the whole suite (rewrites docs/PERFORMANCE.md)
#   scripts/perf.sh --quick   10k and 100k sessions only, fewer repetitions; fails only when
#                             a ratio falls below a third of scripts/perf-baseline.json or
#                             the tokenizers' totals differ (never on an absolute time)
#
# Needs the built npm package (wasm/build.sh) and wasm/node_modules (npm ci --prefix wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
[[ "${1:-}" == "--quick" ]] && quick=true
out="$PWD/target/perf"
$quick && out="$PWD/target/perf-quick" # never mixed with a full run's figures
mkdir -p "$out" docs

[[ -f wasm/pkg/node.js ]] || wasm/build.sh
[[ -d wasm/node_modules/tiktoken ]] || npm ci --prefix wasm

echo "== inputs (wasm/bench/corpora.mjs)"
node wasm/bench/corpora.mjs "$out"

echo "== native (cargo bench -p compactor-tests --bench perf)"
cargo bench --locked -p compactor-tests --bench perf -- "$out" $($quick && echo --quick)

echo "== wasm in Node (wasm/bench/perf.mjs)"
node wasm/bench/perf.mjs "$out" $($quick && echo --quick)

echo "== Python tiktoken (scripts/perf-tiktoken.py)"
python=python3
[[ -x target/pyenv/bin/python ]] && python=target/pyenv/bin/python # scripts/setup.sh puts it there
rm -f "$out/python.json"
"$python" scripts/perf-tiktoken.py "$out" $($quick && echo --quick)

if $quick; then
  echo "== ratios against scripts/perf-baseline.json"
  node scripts/perf-report.mjs "$out" --check
  exit 0
fi

echo "== MODERATE wall time (cargo bench -p compactor-tests --bench moderate)"
cargo bench --locked -p compactor-tests --bench moderate 2>/dev/null | grep '^moderate:' >"$out/moderate.txt"
cat "$out/moderate.txt"

echo "== the component from Python (python/bench/perf.py)"
rm -f "$out/component.json"
if [[ -x target/pyenv-component-test/bin/python ]]; then # scripts/test.sh puts it there
  target/pyenv-component-test/bin/python python/bench/perf.py --json "$out/component.json"
else
  echo "skipped: the Python package is not installed (scripts/test.sh installs it)"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
cat >"$out/machine.json" <<JSON
{ "cpu": "${cpu:-unknown CPU}", "nproc": $(nproc), "rustc": "$(rustc --version)", "date": "$(date -u +%Y-%m-%d)" }
JSON
node scripts/perf-report.mjs "$out"
node -e 'const r = require(process.argv[1]); console.log(JSON.stringify(r, null, 2))' "$out/ratios.json" >scripts/perf-baseline.json
echo "baseline ratios written to scripts/perf-baseline.json"
