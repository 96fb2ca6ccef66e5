// The wasm half of the performance suite (`scripts/perf.sh` runs it): counting beside
// gpt-tokenizer, js-tiktoken and npm tiktoken; assessment cold and per turn with a session
// handle beside the stateless call; planning; peak wasm memory; package sizes. Inputs come
// from wasm/bench/corpora.mjs, as for the native half.
//
// Usage: node wasm/bench/perf.mjs DIR [--quick]        (writes DIR/wasm.json)
//        node wasm/bench/perf.mjs DIR --memory SIZE    (one session in a fresh process)
//        node wasm/bench/perf.mjs FILE --cold CONFIG   (cold assessments of FILE on demand)
import { performance } from "node:perf_hooks";
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { Compactor, countTokens, initSync } from "../pkg/node.js";
import { counting } from "./count.mjs";
import { mixedKinds } from "./corpora.mjs";

const dir = process.argv[2];
const quick = process.argv.includes("--quick");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const read = (name) => readFileSync(`${dir}/${name}`, "utf8");
const config = { model: "gpt-4o" };

/** Seconds `f` takes. */
function time(f) {
  const start = performance.now();
  const value = f();
  return [(performance.now() - start) / 1e3, value];
}

// Peak memory of one session: the module's linear memory never shrinks, so its size after
// reading and assessing the session is the peak. A fresh process per size.
if (process.argv.includes("--memory")) {
  const size = process.argv[process.argv.indexOf("--memory") + 1];
  const wasm = initSync({ module: readFileSync(new URL("../pkg/compactor_bg.wasm", import.meta.url)) });
  countTokens("warm"); // the vocabulary is read at the first count: "before" includes it
  const before = wasm.memory.buffer.byteLength;
  const text = read(`session-${size}.json`);
  const session = new Compactor(config).session("m", JSON.parse(text));
  session.append({ role: "user", content: "one more" });
  session.assess();
  console.log(JSON.stringify({ jsonBytes: Buffer.byteLength(text), wasmBefore: before, wasmPeak: wasm.memory.buffer.byteLength }));
  process.exit(0);
}

// Cold assessments of the conversation in FILE (a JSON array) with CONFIG (JSON), one for
// each line read on stdin, each answered by a line {"newMs", "ms", "tokens"}:
// python/bench/perf.py drives it, interleaving these with its own on the same conversation.
// `ms` is sessionFigures' coldStateless, `assess(messages)` on a new Compactor; making that
// Compactor is `newMs`.
if (process.argv.includes("--cold")) {
  const coldConfig = JSON.parse(process.argv[process.argv.indexOf("--cold") + 1]);
  const messages = JSON.parse(readFileSync(dir, "utf8"));
  new Compactor(coldConfig).assess(messages); // the module instantiated, the vocabulary read
  for await (const _ of createInterface({ input: process.stdin })) {
    const [made, c] = time(() => new Compactor(coldConfig));
    const [seconds, tokens] = time(() => c.assess(messages).totalTokens);
    c.free();
    console.log(JSON.stringify({ newMs: made * 1e3, ms: seconds * 1e3, tokens }));
  }
  process.exit(0);
}

function sessionFigures(size, turns, reps) {
  const text = read(`session-${size}.json`);
  const messages = JSON.parse(text);
  const tokens = new Compactor(config).assess(messages).totalTokens;
  // Cold: a compactor whose memo is empty reads and assesses the whole conversation.
  const coldStateless = median(
    Array.from({ length: reps }, () => {
      const c = new Compactor(config);
      const seconds = time(() => c.assess(messages).totalTokens)[0];
      c.free();
      return seconds;
    }),
  );
  const coldSession = median(
    Array.from({ length: reps }, () => {
      const c = new Compactor(config);
      const [seconds, session] = time(() => {
        const session = c.session("s", messages);
        session.assess();
        return session;
      });
      session.free();
      c.free();
      return seconds;
    }),
  );
  // Per turn: the last `turns` messages arrive one by one; append one, assess.
  const head = messages.slice(0, messages.length - turns);
  const tail = messages.slice(messages.length - turns);
  const c = new Compactor(config);
  const session = c.session("s", head);
  const perTurnSession = median(tail.map((m) => time(() => (session.append(m), session.assess().totalTokens))[0]));
  const held = [...head];
  const stateless = new Compactor(config);
  stateless.assess(held); // the memo knows the head, as it would turn after turn
  const perTurnStateless = median(tail.map((m) => time(() => (held.push(m), stateless.assess(held).totalTokens))[0]));
  const planSession = median(Array.from({ length: reps }, () => time(() => session.plan())[0]));
  const planStateless = median(Array.from({ length: reps }, () => time(() => stateless.plan(held))[0]));
  const memory = JSON.parse(
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), dir, "--memory", size], { encoding: "utf8" }),
  );
  session.free();
  return {
    messages: messages.length,
    tokens,
    jsonBytes: Buffer.byteLength(text),
    coldStateless,
    coldSession,
    perTurnSession,
    perTurnStateless,
    planSession,
    planStateless,
    memory,
  };
}

function packageSizes() {
  const sizes = {};
  for (const pkg of ["pkg", "pkg-lite"]) {
    try {
      const wasm = readFileSync(new URL(`../${pkg}/compactor_bg.wasm`, import.meta.url));
      sizes[pkg] = { raw: wasm.length, gzip: gzipSync(wasm, { level: 9 }).length };
    } catch {
      sizes[pkg] = null;
    }
  }
  return sizes;
}

const sessions = {};
for (const size of quick ? ["10k", "100k"] : ["10k", "100k", "1m"]) {
  sessions[size] = sessionFigures(size, quick ? 20 : 50, quick ? 3 : 5);
  console.error(`wasm session ${size}: ${JSON.stringify(sessions[size])}`);
}
const runs = quick ? 3 : 11;
// The mixed corpus kind by kind, beside gpt-tokenizer (the slow others add nothing).
const kinds = {};
for (const [kind, texts] of Object.entries(quick ? {} : mixedKinds())) {
  kinds[kind] = await counting(texts, runs, ["compactor", "gpt-tokenizer", "gpt-tokenizer (cache cleared)"]);
}
const result = {
  node: process.version,
  counting: {
    corpus: await counting(JSON.parse(read("corpus-texts.json")), runs),
    mixed: await counting(JSON.parse(read("mixed-texts.json")), runs),
  },
  kinds,
  sessions,
  packages: packageSizes(),
};
writeFileSync(`${dir}/wasm.json`, JSON.stringify(result, null, 2));
