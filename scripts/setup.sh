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
# tmux: the inspector's end-to-end test drives the real binary in a pseudo-terminal.
if ! command -v tmux >/dev/null; then
  if command -v apt-get >/dev/null; then
    (apt-get install -y tmux >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y tmux >/dev/null; }) \
      || { echo "setup: could not install tmux" >&2; exit 1; }
  else
    echo "setup: tmux is required" >&2; exit 1
  fi
fi
