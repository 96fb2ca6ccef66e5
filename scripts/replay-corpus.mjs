// Replays every corpus trajectory that outgrows the window and prints the mean figures
// of each policy as a Markdown table (the one in docs/PERFORMANCE.md):
//
//   node scripts/replay-corpus.mjs [WINDOW] [OUTPUT_RESERVE] [PRICES]   # 24000 4000 default
//
// PRICES is a preset of `compactor replay --prices` (default, openai, anthropic,
// anthropic-1h).
// Needs `cargo build --release -p compactor-tui` and COMPACTOR_CORPUS (default
// ../shared/corpus). Trajectories that never pass the trigger are left out: every
// policy keeps them whole.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const [window = "24000", reserve = "4000", prices = "default"] = process.argv.slice(2);
const corpus = process.env.COMPACTOR_CORPUS ?? "../shared/corpus";
const bin = "target/release/compactor";
const compare = ["--compare", "target=0.75,0.5,0.3"];
const rows = new Map();
let files = 0;
for (const name of readdirSync(corpus).filter((n) => n.endsWith(".json")).sort()) {
  const args = ["replay", join(corpus, name), "--lenient", "--max-context", window,
    "--output-reserve", reserve, "--max-messages", "off", "--prices", prices, "--json", ...compare];
  const out = JSON.parse(execFileSync(bin, args, { maxBuffer: 1 << 30 }).toString());
  const configured = out.policies.find((p) => p.policy === "configured").totals;
  const keep = out.policies.find((p) => p.policy === "keep everything").totals;
  if (keep.peakPrompt === configured.peakPrompt) continue;
  files += 1;
  for (const p of out.policies) {
    if (!rows.has(p.policy)) rows.set(p.policy, []);
    rows.get(p.policy).push(p.totals);
  }
}
const mean = (list, key) => list.reduce((s, t) => s + t[key], 0) / list.length;
const sum = (list, key) => list.reduce((s, t) => s + t[key], 0);
const name = (p) => (p === "configured" ? "default (cost-aware)" : p === "target 0.75" ? "target 0.75 (the old default)" : p);
console.log(`${files} trajectories, ${window}-token window, ${reserve} kept for the answer, ${prices} prices\n`);
console.log("| policy | cost vs. keeping everything | facts seen | compactions | calls over the window | cache share |");
console.log("|---|---|---|---|---|---|");
for (const [policy, list] of rows) {
  console.log(`| ${name(policy)} | ${mean(list, "relativeCost").toFixed(2)} | ${mean(list, "factsSeen").toFixed(2)} | ${sum(list, "compactions")} | ${sum(list, "overWindow")} | ${(100 * mean(list, "cacheShare")).toFixed(0)}% |`);
}
const kept = rows.get("keep everything") ?? [];
if (kept.length) {
  console.log(`\nWriting each call's new tokens once (no policy pays less): ${mean(kept, "floor").toFixed(2)} on average.`);
}
