import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";
const A = await import("/tmp/pkg-old/node.js");
const B = await import("/work/main/wasm/pkg/node.js");
const { countTokens: gpt } = await import("gpt-tokenizer/encoding/o200k_base");
const texts = JSON.parse(readFileSync("/work/main/target/perf/mixed-texts.json"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fs = { old: (t) => A.countTokens(t, "o200k_base"), new: (t) => B.countTokens(t, "o200k_base"), gpt };
const times = { old: [], new: [], gpt: [] };
for (const f of Object.values(fs)) texts.forEach(f);
for (let r = 0; r < 21; r++) for (const [name, f] of Object.entries(fs)) { const s = performance.now(); texts.reduce((n, t) => n + f(t), 0); times[name].push(performance.now() - s); }
const m = Object.fromEntries(Object.entries(times).map(([n, ts]) => [n, median(ts)]));
console.log(Object.entries(m).map(([k, v]) => `${k} ${v.toFixed(1)}`).join("  "), ` gpt/new ${(m.gpt / m.new).toFixed(2)}x gpt/old ${(m.gpt / m.old).toFixed(2)}x`);
