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

# The npm package: wasm-bindgen's CLI at the version wasm/Cargo.toml pins (its test runner
# too), wasm-pack, Chromium and its driver for the browser tests, and the JS test tools.
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen 0.2.130" ]]; then
  # Not --locked: the CLI's own lockfile no longer builds with this toolchain.
  cargo install wasm-bindgen-cli --version 0.2.130
fi
command -v wasm-pack >/dev/null || cargo install wasm-pack --locked
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
fi
command -v node >/dev/null || { echo "setup: node (20 or later) is required" >&2; exit 1; }
# The npm test tools: wasm/'s, and web-demo/'s (playwright-core, driving the Chromium above).
for dir in wasm web-demo; do
  if [[ ! -f $dir/node_modules/.package-lock.json \
     || $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]]; then
    npm ci --prefix "$dir" --no-audit --no-fund
  fi
done

# Python tiktoken, which the performance suite counts beside (scripts/perf-tiktoken.py), in
# a virtual environment under target/; without it the suite skips that row.
if ! target/pyenv/bin/python -c 'import tiktoken' 2>/dev/null; then
  (python3 -m venv target/pyenv && target/pyenv/bin/pip install -q tiktoken) \
    || echo "setup: could not install Python tiktoken; the performance suite will skip it" >&2
fi

# The Python package's dependencies (python/requirements-test.txt: wasmtime, pytest, the
# agent frameworks its adapters are tested in, build), as wheels under target/: test.sh installs the package into a fresh virtual
# environment from them, offline. And jco, which transpiles the component for Node.
if [[ ! -f target/wheels/.complete || python/requirements-test.txt -nt target/wheels/.complete ]]; then
  python3 -m pip download -q -d target/wheels -r python/requirements-test.txt
  touch target/wheels/.complete
fi
if [[ ! -f component/js/node_modules/.package-lock.json \
   || component/js/package-lock.json -nt component/js/node_modules/.package-lock.json ]]; then
  npm ci --prefix component/js --no-audit --no-fund
fi

# redis-server, for the Node + Redis example's test (Debian's; the test starts its own on a
# free loopback port with a temporary directory, and stops it; a system service the package
# may start is not used).
if ! command -v redis-server >/dev/null; then
  if command -v apt-get >/dev/null; then
    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null 2>&1 \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null; }) \
      || { echo "setup: could not install redis-server" >&2; exit 1; }
  else
    echo "setup: redis-server is required" >&2; exit 1
  fi
fi

# cargo-fuzz, for the bounded fuzz run in test.sh (it needs a nightly toolchain too).
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
if ! cargo +nightly --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal || echo "setup: no nightly toolchain; the fuzz step will be skipped" >&2
fi

# tmux: the inspector's end-to-end test drives the real binary in a pseudo-terminal.
if ! command -v tmux >/dev/null; then
  if command -v apt-get >/dev/null; then
    (apt-get install -y tmux >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y tmux >/dev/null; }) \
      || { echo "setup: could not install tmux" >&2; exit 1; }
  else
    echo "setup: tmux is required" >&2; exit 1
  fi
fi
