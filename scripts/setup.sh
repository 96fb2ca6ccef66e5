#!/usr/bin/env bash
# Installs what the test suite needs, skipping whatever is already there. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

# The toolchain pinned in rust-toolchain.toml, with its components and the wasm target.
rustup show active-toolchain >/dev/null
rustup component add rustfmt clippy >/dev/null 2>&1 || true
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
command -v python3 >/dev/null || { echo "setup: python3 is required" >&2; exit 1; }

# cargo-fuzz, for the bounded fuzz run in test.sh (it needs a nightly toolchain too).
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
if ! cargo +nightly --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal || echo "setup: no nightly toolchain; the fuzz step will be skipped" >&2
fi
