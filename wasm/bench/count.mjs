// Counts every message text of the corpus with o200k_base: this package against
// gpt-tokenizer and js-tiktoken, in one run. Prints medians of several runs.
// Usage: node wasm/bench/count.mjs [runs]   (after wasm/build.sh and npm ci in wasm/)
import { performance } from "node:perf_hooks";
import { countTokens } from "../pkg/node.js";
import { encode as gptEncode, countTokens as gptCount } from "gpt-tokenizer/encoding/o200k_base";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { corpusTexts } from "../tests/corpus.mjs";

const runs = Number(process.argv[2] ?? 7);
const texts = corpusTexts();
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

const jsTiktoken = new Tiktoken(o200k);
const counters = {
  "compactor (wasm)": (t) => countTokens(t, "o200k_base"),
  "gpt-tokenizer": gptCount ?? ((t) => gptEncode(t).length),
  "js-tiktoken": (t) => jsTiktoken.encode(t).length,
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
for (const [name, count] of Object.entries(counters)) {
  let total = 0;
  for (const t of texts) total += count(t); // warm-up: vocabulary load, JIT
  const times = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    let sum = 0;
    for (const t of texts) sum += count(t);
    times.push(performance.now() - start);
    if (sum !== total) throw new Error(`${name} is not deterministic`);
  }
  results[name] = { ms: median(times), tokens: total };
}

const counts = new Set(Object.values(results).map((r) => r.tokens));
if (counts.size !== 1) throw new Error(`the tokenizers disagree: ${JSON.stringify(results)}`);

console.log(`corpus: ${texts.length} texts, ${(bytes / 1e6).toFixed(2)} MB; median of ${runs} runs`);
const ours = results["compactor (wasm)"].ms;
for (const [name, { ms, tokens }] of Object.entries(results)) {
  const speed = (bytes / 1e6 / (ms / 1e3)).toFixed(1);
  console.log(`${name.padEnd(18)} ${ms.toFixed(1).padStart(8)} ms  ${speed.padStart(6)} MB/s  ${tokens} tokens  ${(ms / ours).toFixed(2)}x compactor's time`);
}
