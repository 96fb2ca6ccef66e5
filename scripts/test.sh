#!/usr/bin/env bash
# The whole test suite: formatting, lints, docs, every test, the purity check, and the npm
# package (built, then tested in Node, headless Chromium and tsc), the web demo, and the
# WebAssembly component (the Python package on it, and the component in Node).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

step() { printf '\n== %s\n' "$*"; }

step setup
scripts/setup.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "rustdoc -D warnings"
RUSTDOCFLAGS=-Dwarnings cargo doc --workspace --no-deps --locked

step "tests"
cargo test --workspace --locked

step "benchmarks compile"
cargo bench --workspace --no-run --locked

step "purity: the engine builds for wasm32 and imports nothing from its host"
CARGO_TARGET_DIR=target cargo build --manifest-path tests/purity/Cargo.toml \
  --target wasm32-unknown-unknown --release --locked
python3 scripts/wasm_sections.py imports target/wasm32-unknown-unknown/release/compactor_purity_probe.wasm

step "wasm: build the npm packages (pkg: o200k_base embedded, pkg-lite: vocabularies loaded at run time)"
wasm/build.sh

step "wasm: wasm-bindgen tests in Node"
(cd wasm && wasm-pack test --node -- --test node --locked)

step "wasm: wasm-bindgen tests in headless Chromium"
(cd wasm && wasm-pack test --headless --chrome \
  --chromedriver "${CHROMEDRIVER:-/usr/bin/chromedriver}" -- --test browser --locked)

step "wasm: node tests against the built packages"
node --test wasm/tests/js/

step "component: built; the Python package in a fresh virtual environment, its pytest suite (its wheel installed where no Rust is, the framework adapters in their agent loops); the component in Node (jco)"
scripts/component.sh
rm -rf target/pyenv-component-test
python3 -m venv target/pyenv-component-test
target/pyenv-component-test/bin/pip install -q --no-index --find-links target/wheels \
  -r python/requirements-test.txt ./python
(cd python && ../target/pyenv-component-test/bin/python -m mypy --strict --no-incremental src/compactor \
  && ../target/pyenv-component-test/bin/python -m pytest -q -p no:cacheprovider)
(cd component/js && npm run -s transpile >/dev/null && node --test test/)

step "examples: a Cloudflare Worker (workerd, Durable Objects) and Node workers sharing Redis"
# The Node example depends on the package just built (wasm/pkg), and on node-redis and ioredis.
if [[ ! -f examples/node-redis/node_modules/.package-lock.json \
   || examples/node-redis/package-lock.json -nt examples/node-redis/node_modules/.package-lock.json ]]; then
  npm ci --prefix examples/node-redis --no-audit --no-fund
fi
node --test examples/cloudflare-worker/test/ examples/node-redis/test/

step "web demo: the page compacts the sample in headless Chromium"
node --test web-demo/tests/

step "wasm: tsc --noEmit on a program using the whole API"
(cd wasm && npx --no-install tsc -p tests/ts)

step "wasm: counting agrees with gpt-tokenizer and js-tiktoken on the corpus"
node wasm/bench/count.mjs 1

step "performance, quick: fails only when a ratio falls below a third of its baseline (docs/PERFORMANCE.md)"
scripts/perf.sh --quick

step "fuzz: each format adapter, briefly (parse -> write -> parse gives the same messages; untouched text writes back byte for byte)"
if cargo +nightly --version >/dev/null 2>&1 && cargo fuzz --version >/dev/null 2>&1; then
  log="$(mktemp)"
  for target in openai anthropic aisdk responses gemini; do
    mkdir -p "fuzz/corpus/$target"
    if ! (cd fuzz && cargo +nightly fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
      -max_total_time="${FUZZ_SECONDS:-20}" -dict=json.dict -max_len=8192) >"$log" 2>&1; then
      tail -n 60 "$log"
      echo "fuzz target $target failed"
      exit 1
    fi
    echo "$target: $(grep -E '^Done' "$log")"
  done
  rm -f "$log"
else
  echo "skipped: needs cargo +nightly and cargo-fuzz (scripts/setup.sh installs them)"
fi

step "all checks passed"
