#!/usr/bin/env bash
# Builds the npm packages:
#   wasm/pkg       @compactor-rs/compactor       exact o200k_base counting (vocabulary embedded)
#   wasm/pkg-lite  @compactor-rs/compactor-lite  no vocabularies: counts with the estimator,
#                                                or exactly with ranks loaded at run time
#
# Both are `wasm-pack build --target web` output (ES modules with an `init` that takes a
# URL, a Response, bytes or a compiled WebAssembly.Module), plus a `node` entry that
# instantiates synchronously from the file next to it, so `import` alone works in Node.
# Browsers and workers call `await init()` (or `initSync({ module })` where the bundler or
# the platform hands over a compiled module, as Cloudflare Workers do).
#
# Usage: wasm/build.sh [--dev]   (prints the gzipped size of each .wasm)
set -euo pipefail
cd "$(dirname "$0")"

# Profiles (root Cargo.toml): `wasm-full` optimizes the full package for speed,
# `wasm-release` the lite one for size; both with fat LTO.
dev=false
[[ "${1:-}" == "--dev" ]] && dev=true

# Panic locations name source files: keep the builder's folders out of the package
# (`serde_json-1.0.154/src/de.rs`, not the registry path it was compiled from).
for registry in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$registry="
done
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$(cd .. && pwd)/="

version=$(sed -n 's/^version = "\(.*\)"/\1/p' ../Cargo.toml | head -1)

build() { # out-dir profile npm-name description [cargo args...]
  local out=$1 profile=(--profile "$2") name=$3 description=$4
  shift 4
  $dev && profile=(--dev)
  rm -rf "$out"
  wasm-pack --quiet build "${profile[@]}" --target web --out-dir "$out" --out-name compactor \
    --no-pack . -- "$@"
  rm -f "$out/.gitignore"
  # wasm-opt stays off (Debian's breaks modules, and on this code it does not pay):
  # Binaryen 132 (npm `binaryen`) on the lite module, gzipped: -Oz and -Os grow it by
  # 11 and 10 kB (inlining: the smaller code compresses worse), -Oz without inlining
  # saves 2.9 kB (1.5%) for 72 s of build time, -O1 2.1 kB; on the full one -O2 saves
  # 1.7 kB of 1.98 MB. Dropping the debug-only sections is what pays.
  $dev || python3 ../scripts/wasm_sections.py strip "$out/compactor_bg.wasm"

  # `session.append(...messages)`: exported Rust methods take a fixed list of arguments,
  # so the rest parameter is this one line over `appendAll(messages)`.
  cat >>"$out/compactor.js" <<'JS'

Session.prototype.append = function append(...messages) { this.appendAll(messages); };
JS

  # Node: read the module next to this file and instantiate it synchronously, so the
  # package is ready as soon as it is imported. `init()` stays callable (a no-op).
  cat >"$out/node.js" <<'JS'
import { readFileSync } from "node:fs";
import { initSync } from "./compactor.js";

initSync({ module: readFileSync(new URL("./compactor_bg.wasm", import.meta.url)) });

export * from "./compactor.js";
export { default } from "./compactor.js";
JS

  # Cloudflare Workers (workerd) import .wasm files as compiled modules.
  cat >"$out/workerd.js" <<'JS'
import module from "./compactor_bg.wasm";
import { initSync } from "./compactor.js";

initSync({ module });

export * from "./compactor.js";
export { default } from "./compactor.js";
JS

  # Session stores (Durable Objects, Redis) as the `stores` subpath: plain JS, no dependencies.
  # The agent frameworks' adapters as `mastra` (no dependency) and `langchain` (needs the
  # `langchain` package, an optional peer).
  cp js/stores.js js/stores.d.ts js/mastra.js js/mastra.d.ts js/langchain.js js/langchain.d.ts "$out/"

  cat >"$out/package.json" <<JSON
{
  "name": "$name",
  "version": "$version",
  "description": "$description",
  "license": "MIT OR Apache-2.0",
  "repository": { "type": "git", "url": "https://github.com/compactor-rs/compactor" },
  "type": "module",
  "main": "./node.js",
  "module": "./compactor.js",
  "types": "./compactor.d.ts",
  "exports": {
    ".": {
      "types": "./compactor.d.ts",
      "workerd": "./workerd.js",
      "node": "./node.js",
      "default": "./compactor.js"
    },
    "./stores": {
      "types": "./stores.d.ts",
      "default": "./stores.js"
    },
    "./mastra": {
      "types": "./mastra.d.ts",
      "default": "./mastra.js"
    },
    "./langchain": {
      "types": "./langchain.d.ts",
      "default": "./langchain.js"
    },
    "./compactor_bg.wasm": "./compactor_bg.wasm",
    "./package.json": "./package.json"
  },
  "files": [
    "compactor.js",
    "compactor.d.ts",
    "compactor_bg.wasm",
    "compactor_bg.wasm.d.ts",
    "node.js",
    "workerd.js",
    "stores.js",
    "stores.d.ts",
    "mastra.js",
    "mastra.d.ts",
    "langchain.js",
    "langchain.d.ts",
    "README.md"
  ],
  "peerDependencies": { "langchain": ">=1.0.0" },
  "peerDependenciesMeta": { "langchain": { "optional": true } },
  "sideEffects": ["./node.js", "./workerd.js"],
  "engines": { "node": ">=20" },
  "keywords": ["llm", "agent", "context-window", "compaction", "tokenizer", "wasm"]
}
JSON
  cp README.md "$out/README.md"
  # Gzipped by Node's zlib at level 9, as the size test measures (`gzip -9` writes about
  # 4 kB less for the lite module).
  printf '%-10s %s: %s bytes gzipped (%s raw)\n' "$out" compactor_bg.wasm \
    "$(node -e 'process.stdout.write(String(require("zlib").gzipSync(require("fs").readFileSync(process.argv[1]), { level: 9 }).length))' "$out/compactor_bg.wasm")" \
    "$(wc -c <"$out/compactor_bg.wasm")"
}

build pkg wasm-full @compactor-rs/compactor \
  "Keeps an LLM agent's conversation inside the model's context window (exact o200k_base counting)"
build pkg-lite wasm-release @compactor-rs/compactor-lite \
  "Keeps an LLM agent's conversation inside the model's context window (small: vocabularies loaded at run time)" \
  --no-default-features
