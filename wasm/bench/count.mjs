// Counting beside the other o200k_base tokenizers JS agents use: this package against
// gpt-tokenizer (warm, and with its merge cache cleared), js-tiktoken and npm tiktoken,
// timed round by round in one process. `scripts/perf.sh` reports it for the corpus and the
// mixed corpus (wasm/bench/perf.mjs); run alone, it counts the corpus and prints a table.
//
// Usage: node wasm/bench/count.mjs [runs]   (after wasm/build.sh and npm ci in wasm/)
import { performance } from "node:perf_hooks";
import { countTokens } from "../pkg/node.js";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Seconds `f` takes. */
function seconds(f) {
  const start = performance.now();
  f();
  return (performance.now() - start) / 1e3;
}

/** Each tokenizer's total tokens and median seconds over `runs` passes of `texts` (the
 * tokenizers named in `only`, when given); throws when the totals differ. */
export async function counting(texts, runs, only) {
  const { countTokens: gptCount, clearMergeCache } = await import("gpt-tokenizer/encoding/o200k_base");
  const { Tiktoken } = await import("js-tiktoken/lite");
  const { default: o200k } = await import("js-tiktoken/ranks/o200k_base");
  const { get_encoding } = await import("tiktoken");
  const jsTiktoken = new Tiktoken(o200k);
  const tiktoken = get_encoding("o200k_base");
  const counters = {
    compactor: (t) => countTokens(t, "o200k_base"),
    "gpt-tokenizer": gptCount,
    // gpt-tokenizer keeps the pieces it merged (100,000 by default), so from the second
    // run on it re-reads its answers for these very texts; this row starts each run with
    // that cache empty, as text the process has not counted before.
    "gpt-tokenizer (cache cleared)": gptCount,
    "js-tiktoken": (t) => jsTiktoken.encode(t).length,
    tiktoken: (t) => tiktoken.encode_ordinary(t).length,
  };
  for (const name of Object.keys(counters)) if (only && !only.includes(name)) delete counters[name];
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const totals = {};
  for (const [name, count] of Object.entries(counters)) {
    totals[name] = texts.reduce((n, t) => n + count(t), 0); // warm-up, and the total
  }
  // Round by round, each tokenizer once a round: on a shared machine the load changes
  // from second to second, and tokenizers timed in turns see the same load. The cache
  // cleared row runs after the plain gpt-tokenizer row, and its pass fills the cache
  // again for the next round's.
  const passes = Object.fromEntries(Object.keys(counters).map((name) => [name, []]));
  for (let round = 0; round < runs; round++) {
    for (const [name, count] of Object.entries(counters)) {
      if (name.endsWith("(cache cleared)")) clearMergeCache();
      passes[name].push(seconds(() => texts.reduce((n, t) => n + count(t), 0)));
    }
  }
  const tokenizers = {};
  for (const [name, tokens] of Object.entries(totals)) {
    const time = median(passes[name]);
    tokenizers[name] = { tokens, seconds: time, tokensPerSecond: tokens / time };
  }
  tiktoken.free();
  if (new Set(Object.values(totals)).size !== 1) {
    throw new Error(`the tokenizers disagree: ${JSON.stringify(totals)}`);
  }
  return { texts: texts.length, bytes, tokenizers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { corpusTexts } = await import("../tests/corpus.mjs");
  const runs = Number(process.argv[2] ?? 7);
  const { texts, bytes, tokenizers } = await counting(corpusTexts(), runs);
  console.log(`corpus: ${texts} texts, ${(bytes / 1e6).toFixed(2)} MB; median of ${runs} runs`);
  const ours = tokenizers.compactor.seconds;
  for (const [name, { seconds: time, tokens }] of Object.entries(tokenizers)) {
    const speed = (bytes / 1e6 / time).toFixed(1);
    console.log(`${name.padEnd(30)} ${(time * 1e3).toFixed(1).padStart(8)} ms  ${speed.padStart(6)} MB/s  ${tokens} tokens  ${(time / ours).toFixed(2)}x compactor's time`);
  }
}
