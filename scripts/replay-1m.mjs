// Times `compactor replay` on a trajectory of over a million tokens, made of the corpus's
// turns one after another (each trajectory's plain user and assistant messages, repeated
// until the text passes 4.2 million characters), under a 24,000-token window with two
// more policies beside the default:
//
//   cargo build --release -p compactor-tui && node scripts/replay-1m.mjs
//
// Writes the trajectory to target/replay-1m.json; needs COMPACTOR_CORPUS (default
// ../shared/corpus). The replay's progress goes to stderr; the table and the wall time to
// stdout.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const corpus = process.env.COMPACTOR_CORPUS ?? "../shared/corpus";
const CHARS = 4_200_000;
const names = readdirSync(corpus).filter((n) => n.endsWith(".json")).sort();
const text = (m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
let out = null;
let chars = 0;
while (chars < CHARS) {
  for (const name of names) {
    const json = JSON.parse(readFileSync(join(corpus, name), "utf8"));
    const messages = Array.isArray(json) ? json : json.messages ?? [];
    out ??= messages.slice(0, 2).map((m) => ({ role: m.role, content: text(m) }));
    for (const m of messages.slice(2)) {
      // Plain turns only, alternating, so that any trajectory follows any other.
      if ((m.role !== "user" && m.role !== "assistant") || m.tool_calls) continue;
      if (out.at(-1).role === m.role) continue;
      out.push({ role: m.role, content: text(m) });
      chars += out.at(-1).content.length;
    }
    if (chars >= CHARS) break;
  }
}
if (out.at(-1).role === "user") out.pop();
const file = "target/replay-1m.json";
writeFileSync(file, JSON.stringify(out));
const args = ["replay", file, "--lenient", "--max-context", "24000", "--output-reserve", "4000",
  "--max-messages", "off", "--compare", "target=0.5,0.3"];
const started = process.hrtime.bigint();
const table = execFileSync("target/release/compactor", args, { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(table);
console.log(`\n${out.length} messages, ${chars.toLocaleString("en")} characters: replayed in ${seconds.toFixed(1)} s`);
