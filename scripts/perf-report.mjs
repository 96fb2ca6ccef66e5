// Writes docs/PERFORMANCE.md and docs/perf-scaling.svg from one run of the suite
// (DIR/native.json, DIR/wasm.json, DIR/python.json if Python tiktoken ran, DIR/machine.json,
// DIR/moderate.txt), or, with --check, compares the run's ratios with
// scripts/perf-baseline.json and fails on a gross regression (a ratio fallen below a third
// of its baseline) or on counts that differ. Absolute times are never checked.
//
// Usage: node scripts/perf-report.mjs DIR [--check]
import { readFileSync, writeFileSync, existsSync } from "node:fs";

const dir = process.argv[2];
const check = process.argv.includes("--check");
const load = (name) => JSON.parse(readFileSync(`${dir}/${name}`, "utf8"));
const native = load("native.json");
const wasm = load("wasm.json");
// Python tiktoken's counting (scripts/perf-tiktoken.py); absent when it is not installed.
const python = existsSync(`${dir}/python.json`) ? load("python.json") : null;
// The component from Python (python/bench/perf.py); absent when the package was not built.
const component = existsSync(`${dir}/component.json`) ? load("component.json") : null;
const root = new URL("..", import.meta.url);

/** The ratios the quick check guards: each is "how many times faster", machine-independent. */
function ratios() {
  const speed = (side, set, name) => side.counting[set].tokenizers[name].tokensPerSecond;
  const r = {
    "native counting, compactor ÷ tiktoken-rs (corpus)": speed(native, "corpus", "compactor") / speed(native, "corpus", "tiktoken-rs"),
    "wasm counting, compactor ÷ gpt-tokenizer (corpus)": speed(wasm, "corpus", "compactor") / speed(wasm, "corpus", "gpt-tokenizer"),
    "native per turn at 100k, stateless ÷ session": native.sessions["100k"].perTurnStateless / native.sessions["100k"].perTurnSession,
    "wasm per turn at 100k, stateless ÷ session": wasm.sessions["100k"].perTurnStateless / wasm.sessions["100k"].perTurnSession,
  };
  return r;
}

/** Every tokenizer counts what compactor counts, on both corpora. */
function agreement() {
  const problems = [];
  for (const side of [native, wasm]) {
    for (const [set, { tokenizers }] of Object.entries(side.counting)) {
      const ours = tokenizers.compactor.tokens;
      for (const [name, { tokens }] of Object.entries(tokenizers)) {
        if (tokens !== ours) problems.push(`${set}: ${name} counts ${tokens}, compactor ${ours}`);
      }
    }
  }
  for (const [set, { tokenizers }] of Object.entries(python?.counting ?? {})) {
    const ours = wasm.counting[set].tokenizers.compactor.tokens;
    for (const [name, { tokens }] of Object.entries(tokenizers)) {
      if (tokens !== ours) problems.push(`${set}: ${name} counts ${tokens}, compactor ${ours}`);
    }
  }
  return problems;
}

if (check) {
  const baseline = JSON.parse(readFileSync(new URL("scripts/perf-baseline.json", root), "utf8"));
  let failed = false;
  for (const [name, value] of Object.entries(ratios())) {
    const base = baseline[name];
    const ok = base === undefined || value >= base / 3;
    failed ||= !ok;
    console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${value.toFixed(2)} (baseline ${base?.toFixed(2) ?? "none"}, fails below ${(base / 3).toFixed(2)})`);
  }
  for (const problem of agreement()) {
    failed = true;
    console.log(`FAIL counts differ: ${problem}`);
  }
  process.exit(failed ? 1 : 0);
}

const machine = load("machine.json");
const moderate = existsSync(`${dir}/moderate.txt`) ? readFileSync(`${dir}/moderate.txt`, "utf8").trim() : "not run";
const ms = (s) => (s * 1e3 < 10 ? (s * 1e3).toFixed(3) : (s * 1e3).toFixed(1));
const n = (x) => Math.round(x).toLocaleString("en-US");
const x = (r) => `${r.toFixed(1)}×`;

function countingTable(set) {
  const rows = [];
  for (const [side, label] of [[native, "native"], [wasm, "Node (wasm)"]]) {
    const { tokenizers, bytes, texts } = side.counting[set];
    const ours = tokenizers.compactor.tokensPerSecond;
    for (const [name, t] of Object.entries(tokenizers)) {
      rows.push(`| ${label} | ${name} | ${n(t.tokens)} | ${ms(t.seconds)} | ${(t.tokensPerSecond / 1e6).toFixed(2)} | ${name === "compactor" ? "1.0×" : x(ours / t.tokensPerSecond)} |`);
    }
    if (label === "native") rows.push(`| | *${texts} texts, ${(bytes / 1e6).toFixed(2)} MB* | | | | |`);
  }
  // Python tiktoken beside both: compactor native, and compactor in wasm.
  const py = python?.counting[set].tokenizers["tiktoken (Python)"];
  if (py) {
    const native_ = native.counting[set].tokenizers.compactor.tokensPerSecond;
    const wasm_ = wasm.counting[set].tokenizers.compactor.tokensPerSecond;
    rows.push(
      `| Python ${python.python} | tiktoken ${python.tiktoken} | ${n(py.tokens)} | ${ms(py.seconds)} | ${(py.tokensPerSecond / 1e6).toFixed(2)} | ${x(native_ / py.tokensPerSecond)} native, ${x(wasm_ / py.tokensPerSecond)} wasm |`,
    );
  } else {
    rows.push("| Python | tiktoken | — | — | — | not measured: Python tiktoken is not installed (`pip install tiktoken`) |");
  }
  return ["| where | tokenizer | tokens | ms (median) | M tokens/s | compactor is |", "|---|---|---|---|---|---|", ...rows].join("\n");
}

/** The mixed corpus kind by kind in Node: compactor beside gpt-tokenizer. */
function kindsTable() {
  const rows = Object.entries(wasm.kinds ?? {}).map(([kind, { bytes, tokenizers: t }]) => {
    const ours = t.compactor;
    const warm = t["gpt-tokenizer"];
    const cold = t["gpt-tokenizer (cache cleared)"];
    return `| ${kind} | ${(bytes / 1e3).toFixed(0)} kB | ${n(ours.tokens)} | ${ms(ours.seconds)} | ${ms(warm.seconds)} | ${x(ours.tokensPerSecond / warm.tokensPerSecond)} | ${ms(cold.seconds)} | ${x(ours.tokensPerSecond / cold.tokensPerSecond)} |`;
  });
  return [
    "| kind | text | tokens | compactor (ms) | gpt-tokenizer (ms) | compactor is | gpt-tokenizer, cache cleared (ms) | compactor is |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

function sessionTable() {
  const rows = [];
  for (const size of Object.keys(native.sessions)) {
    for (const [side, label] of [[native, "native"], [wasm, "wasm"]]) {
      const s = side.sessions[size];
      if (!s) continue;
      rows.push(
        `| ${size} (${n(s.tokens)} tokens, ${n(s.messages)} msgs) | ${label} | ${ms(s.coldSession)} | ${ms(s.coldStateless)} | ${ms(s.perTurnSession)} | ${ms(s.perTurnStateless)} | ${x(s.perTurnStateless / s.perTurnSession)} | ${ms(s.planSession)} | ${ms(s.planStateless)} |`,
      );
    }
  }
  return [
    "| session | where | cold: session (ms) | cold: stateless (ms) | per turn: session (ms) | per turn: stateless (ms) | per turn ratio | plan: session (ms) | plan: stateless (ms) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

function targets() {
  const big = "1m";
  const nat = native.sessions[big];
  const was = wasm.sessions[big];
  const mem = was?.memory;
  const speed = (set, name) => wasm.counting[set].tokenizers[name].tokensPerSecond;
  const pythonSpeed = python?.counting.mixed.tokenizers["tiktoken (Python)"].tokensPerSecond;
  const rows = [
    ["append one + assess, native", "≤ 1 ms", nat && `${ms(nat.perTurnSession)} ms`, nat && nat.perTurnSession <= 0.001],
    ["append one + assess, wasm", "≤ 3 ms", was && `${ms(was.perTurnSession)} ms`, was && was.perTurnSession <= 0.003],
    ["cold assessment, native", "≤ 0.5 s", nat && `${ms(nat.coldSession)} ms`, nat && nat.coldSession <= 0.5],
    ["cold assessment, wasm", "≤ 1 s", was && `${ms(was.coldSession)} ms`, was && was.coldSession <= 1],
    ["planning, native", "≤ 5 ms", nat && `${ms(nat.planSession)} ms`, nat && nat.planSession <= 0.005],
    [
      "peak wasm memory",
      "≤ 3× the JSON",
      mem && `${((mem.wasmPeak - mem.wasmBefore) / mem.jsonBytes).toFixed(2)}× (linear memory ${(mem.wasmBefore / 2 ** 20).toFixed(0)} MiB with the vocabulary read, ${(mem.wasmPeak / 2 ** 20).toFixed(0)} MiB after a session of ${(mem.jsonBytes / 2 ** 20).toFixed(1)} MiB of JSON was read, appended to and assessed)`,
      mem && mem.wasmPeak - mem.wasmBefore <= 3 * mem.jsonBytes,
    ],
    [
      "counting, mixed corpus, wasm ÷ gpt-tokenizer",
      "≥ 2.5×",
      x(speed("mixed", "compactor") / speed("mixed", "gpt-tokenizer")),
      speed("mixed", "compactor") / speed("mixed", "gpt-tokenizer") >= 2.5,
    ],
    [
      "… gpt-tokenizer with its merge cache cleared before each run (text it has not seen)",
      "—",
      x(speed("mixed", "compactor") / speed("mixed", "gpt-tokenizer (cache cleared)")),
      undefined,
    ],
    python
      ? [
          "counting, mixed corpus, wasm ÷ Python tiktoken",
          "≥ 2×",
          x(speed("mixed", "compactor") / pythonSpeed),
          speed("mixed", "compactor") / pythonSpeed >= 2,
        ]
      : ["counting, mixed corpus, wasm ÷ Python tiktoken", "≥ 2×", "not measured (Python tiktoken is not installed)", undefined],
    [
      "counting, mixed corpus, wasm ÷ tiktoken (npm: tiktoken's Rust core in wasm)",
      "≥ 2× (beside the Python row)",
      x(speed("mixed", "compactor") / speed("mixed", "tiktoken")),
      speed("mixed", "compactor") / speed("mixed", "tiktoken") >= 2,
    ],
  ];
  return [
    "| target (1M-token session) | asked | measured | holds |",
    "|---|---|---|---|",
    ...rows.map(([what, asked, got, ok]) => `| ${what} | ${asked} | ${got ?? "not measured"} | ${ok === undefined ? "—" : ok ? "yes" : "**no**"} |`),
  ].join("\n");
}

/** Per-turn time against session size, log-log, one line per way of checking. */
function chart() {
  const sizes = Object.keys(native.sessions);
  const series = [
    ["native, session handle", native, "perTurnSession", "#1b7837"],
    ["native, stateless assess", native, "perTurnStateless", "#a6dba0"],
    ["wasm, session handle", wasm, "perTurnSession", "#2166ac"],
    ["wasm, stateless assess", wasm, "perTurnStateless", "#92c5de"],
  ];
  const points = series.map(([label, side, key, color]) => ({
    label,
    color,
    values: sizes.filter((s) => side.sessions[s]).map((s) => [side.sessions[s].tokens, side.sessions[s][key] * 1e3]),
  }));
  const all = points.flatMap((p) => p.values);
  const [w, h, left, right, top, bottom] = [660, 380, 70, 230, 20, 50];
  const lx = (v) => Math.log10(v);
  // Sessions are "about" 10^k tokens: a little past the last decade stays in that decade.
  const [x0, x1] = [Math.floor(lx(Math.min(...all.map((p) => p[0])))), Math.ceil(lx(Math.max(...all.map((p) => p[0]))) - 0.1)];
  const [y0, y1] = [Math.floor(lx(Math.min(...all.map((p) => p[1])))), Math.ceil(lx(Math.max(...all.map((p) => p[1]))))];
  const px = (v) => left + ((lx(v) - x0) / (x1 - x0 || 1)) * (w - left - right);
  const py = (v) => h - bottom - ((lx(v) - y0) / (y1 - y0 || 1)) * (h - top - bottom);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">`,
    `<rect width="${w}" height="${h}" fill="white"/>`,
  ];
  for (let e = x0; e <= x1; e++) {
    out.push(`<line x1="${px(10 ** e)}" y1="${top}" x2="${px(10 ** e)}" y2="${h - bottom}" stroke="#ddd"/>`);
    out.push(`<text x="${px(10 ** e)}" y="${h - bottom + 16}" text-anchor="middle">${n(10 ** e)}</text>`);
  }
  for (let e = y0; e <= y1; e++) {
    out.push(`<line x1="${left}" y1="${py(10 ** e)}" x2="${w - right}" y2="${py(10 ** e)}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 6}" y="${py(10 ** e) + 4}" text-anchor="end">${10 ** e >= 1 ? 10 ** e : (10 ** e).toPrecision(1)}</text>`);
  }
  out.push(`<text x="${(left + w - right) / 2}" y="${h - 12}" text-anchor="middle">tokens in the session</text>`);
  out.push(`<text x="16" y="${(top + h - bottom) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(top + h - bottom) / 2})">ms per turn (append one, assess)</text>`);
  points.forEach(({ label, color, values }, i) => {
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2.5" points="${values.map(([a, b]) => `${px(a).toFixed(1)},${py(b).toFixed(1)}`).join(" ")}"/>`);
    for (const [a, b] of values) out.push(`<circle cx="${px(a).toFixed(1)}" cy="${py(b).toFixed(1)}" r="3.5" fill="${color}"/>`);
    out.push(`<rect x="${w - right + 14}" y="${top + 10 + i * 20}" width="14" height="4" fill="${color}"/>`);
    out.push(`<text x="${w - right + 34}" y="${top + 16 + i * 20}">${label}</text>`);
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}

const summary = native.summarizerInput;
const packages = wasm.packages;
const size = (p) => (p ? `${n(p.gzip)} bytes gzipped (${n(p.raw)} raw)` : "not built");
const r = ratios();
const doc = `# Performance

Every figure below comes from one run of one command, each beside its alternatives from
the same run:

\`\`\`sh
scripts/perf.sh          # the whole suite, about 10 minutes on 2 cores; rewrites this file
scripts/perf.sh --quick  # the regression check scripts/test.sh runs (ratios only)
\`\`\`

It builds its inputs with \`wasm/bench/corpora.mjs\` (deterministic: the same bytes on
every machine), runs the native half (\`cargo bench -p compactor-tests --bench perf\`), the
wasm half in Node (\`wasm/bench/perf.mjs\`, on the built \`wasm/pkg\`), MODERATE's wall time
(\`cargo bench -p compactor-tests --bench moderate\`), and writes this file and
[the chart](perf-scaling.svg) with \`scripts/perf-report.mjs\`. Times are medians; the
machine was shared with other work while it ran, so read the ratios first.

Machine: ${machine.cpu}, \`nproc\` ${machine.nproc}; ${machine.rustc}; Node ${wasm.node}; ${machine.date}.

## Targets

${targets()}

How the targets are met, and what limits them. **Memory**: a conversation reaches wasm as
UTF-8 bytes of exactly its length (a JS string handed over as a Rust \`String\` is first
given room for three bytes a character, and linear memory never shrinks), and the parsed
messages' JSON values are kept as the originals that untouched messages are written back
from, not copied. Before that, the same session took 4.94×. **Counting**: a 256 kB filter in
front of the token tables answers most look-ups of byte strings that are not tokens
without a cache miss; three-byte characters (CJK, kana, hangul, Devanagari, Thai, …) and
the character classes of the split pattern are read from direct tables; a candidate
token's bytes are one load; and a long piece of multi-byte text (a run of CJK text is one
piece) is cut wherever no token of the vocabulary can lie across a boundary between two
characters, so that most of its parts are one character, found in one look-up (exact: see
\`core/src/tokens/cuts.rs\`). Before that, the mixed corpus counted 1.7× gpt-tokenizer and
1.6× Python tiktoken. gpt-tokenizer keeps the merges of up to 100,000 pieces, so from its
second pass on it re-reads its answers for the very texts it is timed on; compactor merges
every piece each time (a conversation's messages are counted once, through the memo), and
the row with gpt-tokenizer's cache cleared before each run is what it does on text it has
not seen; the kind by kind table below shows where compactor is slowest beside it. Python
tiktoken runs in its own process after the Node half, so on a shared machine its ratio
moves more than the others.

## Counting (\`o200k_base\`)

Agent trajectories (every message text and tool-call argument of the corpus):

${countingTable("corpus")}

A mixed corpus (\`wasm/bench/corpora.mjs\`: prose, code, JSON tool output, logs, CJK and
emoji, about 200 kB each):

${countingTable("mixed")}

The mixed corpus kind by kind, in Node (medians of the same kind of run):

${kindsTable()}

"compactor is" is compactor's tokens per second over the other's. The totals agree where
the token columns show the same number (the quick check fails when they do not).

## Assessing: cold, and per turn

Sessions are corpus trajectories concatenated (each copy marked, so no message repeats and
the memo saves nothing a real session would not). **Cold**: a compactor with an empty memo
reads the whole conversation (native: JSON text parsed; wasm: the JS array handed over)
and assesses it, by \`compactor.session(id, messages)\` or by the stateless
\`compactor.assess(messages)\`. **Per turn**: the last 50 messages arrive one at a time;
each turn appends one and assesses: \`session.append(m); session.assess()\` beside
\`messages.push(m); compactor.assess(messages)\` with the memo warm (the stateless call
still hashes and walks every message, and in wasm the whole array crosses as JSON).
**Plan**: \`session.plan()\` beside \`compactor.plan(messages)\`, memo warm.

${sessionTable()}

![per-turn time against session size](perf-scaling.svg)

## MODERATE wall time

k summary requests at a fixed summarizer latency L, sent together:

\`\`\`text
${moderate}
\`\`\`

## Summarizer input over a long session

${
  summary
    ? `A session grown turn by turn to ${summary.turns} turns (${n(summary.historyTokens)} tokens of history) with a 128,000-token window (16,000 kept for the answer, the message-count signal off), compacted with the extractive summarizer whenever a signal fired: ${summary.compactions} compactions${summary.failed ? ` (and ${summary.failed} runs refused: the pinned messages alone were over the limit)` : ""} sent **${n(summary.compactor)}** tokens to the summarizer in all. Re-summarizing the whole history at each of those compactions would have sent ${n(summary.naive)} (${x(summary.naive / Math.max(summary.compactor, 1))} as many): compactor summarizes each old turn once and folds later summaries into the running one.`
    : "Not measured in this run."
}

## Packages

- \`@compactor-rs/compactor\` (\`wasm/pkg\`): ${size(packages.pkg)}
- \`@compactor-rs/compactor-lite\` (\`wasm/pkg-lite\`): ${size(packages["pkg-lite"])}

## Python (the component on wasmtime)

${componentSection()}

## Ratios the quick check guards

\`scripts/perf.sh --quick\` (run by \`scripts/test.sh\`) measures these on the 10k and 100k
sessions and fails when one falls below a third of its value in
\`scripts/perf-baseline.json\`, or when the tokenizers' totals differ. It never checks an
absolute time.

${Object.entries(r).map(([name, value]) => `- ${name}: ${value.toFixed(2)}`).join("\n")}
`;
/** The Python package's figures: the WebAssembly component, run by wasmtime-py. */
function componentSection() {
  if (!component) return "Not measured in this run (`scripts/test.sh` builds the package first).";
  const c = component;
  return `\`python/bench/perf.py\` (Python ${c.python}, the package installed from the repository):

- per-turn check on a session of ${n(c.tokens)} tokens (${n(c.messages)} messages), \`session.append(m); session.assess()\`: median **${c.perTurnMedianMs.toFixed(3)} ms**, p95 ${c.perTurnP95Ms.toFixed(3)} ms (target ≤ 1 ms)
- cold assessment of that conversation beside the npm package's, on the same conversation, ${c.coldRounds} rounds alternating Python and Node (Node ${c.node}), medians: \`assess(messages)\` on a new compactor (Python: list → JSON → component; npm: the array handed over) Python **${c.coldMs.toFixed(0)} ms**, npm ${c.coldNpmMs.toFixed(0)} ms: **${c.coldRatio.toFixed(2)}×** (target ≤ 1.5×). Counting the making of the compactor too: Python ${c.coldWithNewMs.toFixed(0)} ms, npm ${c.coldWithNewNpmMs.toFixed(0)} ms, ${c.coldWithNewRatio.toFixed(2)}×: each Python \`Compactor\` is its own wasmtime instance and reads the vocabulary again, where the npm package reads it once per process (\`python python/bench/perf.py --cold\` measures this alone)
- counting the corpus's ${n(c.countTexts)} texts (${(c.countBytes / 1e6).toFixed(1)} MB): \`count_tokens_each(texts)\` ${c.countEachMBs.toFixed(1)} MB/s, \`count_tokens(text)\` one call a text ${c.countOneCallEachMBs.toFixed(1)} MB/s (a call into the component costs about 0.1 ms in wasmtime-py)${c.tiktokenMBs ? `; Python tiktoken ${c.tiktoken}: ${c.tiktokenMBs.toFixed(1)} MB/s` : ""}
- the component (\`compactor.wasm\`, \`o200k_base\` embedded): ${n(c.componentGzipped)} bytes gzipped (${n(c.componentBytes)} raw; target ≤ 2.3 MB)`;
}

// The replay section is written by hand from scripts/replay-corpus.mjs: keep it.
const previous = existsSync(new URL("docs/PERFORMANCE.md", root))
  ? readFileSync(new URL("docs/PERFORMANCE.md", root), "utf8")
  : "";
const replay = previous.indexOf("\n## Replay and cost\n");
writeFileSync(new URL("docs/PERFORMANCE.md", root), doc + (replay >= 0 ? previous.slice(replay) : ""));
writeFileSync(new URL("docs/perf-scaling.svg", root), chart());
writeFileSync(`${dir}/ratios.json`, JSON.stringify(r, null, 2));
console.log(`wrote docs/PERFORMANCE.md and docs/perf-scaling.svg`);
