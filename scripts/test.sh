#!/usr/bin/env bash
# The whole test suite: formatting, lints, docs, every test, the purity check, and the npm
# package (built, then tested in Node, headless Chromium and tsc).
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
python3 scripts/check-wasm-imports.py target/wasm32-unknown-unknown/release/compactor_purity_probe.wasm

step "wasm: build the npm packages (pkg: o200k_base embedded, pkg-lite: none)"
wasm/build.sh

step "wasm: wasm-bindgen tests in Node"
(cd wasm && wasm-pack test --node -- --test node --locked)

step "wasm: wasm-bindgen tests in headless Chromium"
(cd wasm && wasm-pack test --headless --chrome \
  --chromedriver "${CHROMEDRIVER:-/usr/bin/chromedriver}" -- --test browser --locked)

step "wasm: node tests against the built packages"
node --test wasm/tests/js/

step "wasm: tsc --noEmit on a program using the whole API"
(cd wasm && npx --no-install tsc -p tests/ts)

step "wasm: counting agrees with gpt-tokenizer and js-tiktoken on the corpus"
node wasm/bench/count.mjs 1

step "all checks passed"
