#!/usr/bin/env bash
# Builds the WebAssembly component (component/, WIT world compactor:engine) and puts it in
# the Python package (python/src/compactor/compactor.wasm).
#
# Built for wasm32-unknown-unknown and linked into a component by wasm-component-ld (the
# linker rustup ships for wasm32-wasip2), not for wasm32-wasip2 itself: there std imports
# wasi:random for HashMap seeds and wasi:cli/wasi:io for the panic message on stderr, 14
# interfaces in all (component/README.md lists them), and the component must import
# nothing. Built this way it imports nothing at all; python/tests/test_component.py checks
# that, on the file this script writes.
set -euo pipefail
cd "$(dirname "$0")/.."

host="$(rustc -vV | sed -n 's/^host: //p')"
linker="$(rustc --print sysroot)/lib/rustlib/$host/bin/wasm-component-ld"
[[ -x $linker ]] || { echo "component: $linker not found (rustup's wasm-component-ld)" >&2; exit 1; }
cargo build -p compactor-component --target wasm32-unknown-unknown --release --locked \
  --config "target.wasm32-unknown-unknown.linker=\"$linker\""
cp target/wasm32-unknown-unknown/release/compactor_component.wasm python/src/compactor/compactor.wasm
printf 'component: %s bytes, %s gzipped\n' \
  "$(wc -c <python/src/compactor/compactor.wasm)" "$(gzip -9 -c python/src/compactor/compactor.wasm | wc -c)"
