#!/usr/bin/env bash
# The whole test suite: formatting, lints, docs, every test, and the purity check.
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

step "all checks passed"
