// A summarizer whose Promise never settles cannot hold `compact`: each request is failed
// when its deadline (`requestTimeoutMs`) passes, the ladder moves on, and at MAXIMUM the
// run rejects with SUMMARY_FAILED, its failure a timeout (as the Rust driver does, in
// tests/tests/failures.rs). Against the built package (`wasm/build.sh` first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

const { Compactor } = await import("../../pkg/node.js");

const TIMEOUT_MS = 100;

/** A conversation of long assistant answers, and a compactor only MAXIMUM could bring it under. */
function setup() {
  const sentence = (i) => `Step ${i}: inspected src/module_${i}.rs line ${i * 7} and found value ${i * 13}. `;
  const messages = [{ role: "system", content: "You are a coding agent." }];
  for (let t = 0; t < 6; t++) {
    messages.push({ role: "user", content: `Continue with part ${t}.` });
    messages.push({ role: "assistant", content: Array.from({ length: 20 }, (_, j) => sentence(t * 1000 + j)).join("") });
  }
  const total = new Compactor({ model: "gpt-4o" }).assess(messages).totalTokens;
  const compactor = new Compactor({
    maxContextTokens: Math.round(total / 3),
    outputReserve: 100,
    comfortTokens: 10_000_000,
    maxMessages: null,
    requestTimeoutMs: TIMEOUT_MS,
  });
  return { messages, compactor };
}

/** Never settles, and holds nothing that keeps Node's event loop alive. */
const never = () => new Promise(() => {});

test("a summarizer that never answers: compact rejects with a timeout within the deadlines", { timeout: 10_000 }, async () => {
  const { messages, compactor } = setup();
  const asked = [];
  const started = performance.now();
  await assert.rejects(compactor.compact(messages, { summarize: (request) => (asked.push(request), never()) }), (e) => {
    assert.equal(e.code, "SUMMARY_FAILED");
    assert.equal(e.level, "maximum");
    assert.deepEqual(e.failure, { kind: "timeout" });
    return true;
  });
  const took = performance.now() - started;
  assert.ok(asked.length >= 1, `asked ${asked.length} times`);
  // At most one deadline per level that asks (MODERATE, AGGRESSIVE, MAXIMUM), as in the
  // Rust test; the rest is slack for a busy machine.
  assert.ok(took < 3 * (TIMEOUT_MS + 1) + 2_000, `took ${took} ms`);
  // The requests were given their time: failed at the deadline, not before.
  assert.ok(took >= TIMEOUT_MS, `took ${took} ms`);
});

test("a summarizer that never answers: the Node process still exits once compact rejects", { timeout: 20_000 }, () => {
  // A driver that awaited the Promise without a deadline would leave Node with nothing to
  // run and an unsettled top-level await (exit code 13); one that left a timer behind
  // would keep the process alive until it fired.
  const script = `
    import { Compactor } from ${JSON.stringify(new URL("../../pkg/node.js", import.meta.url).href)};
    const setup = ${setup.toString()};
    const TIMEOUT_MS = ${TIMEOUT_MS};
    const { messages, compactor } = setup();
    try {
      await compactor.compact(messages, { summarize: () => new Promise(() => {}) });
      console.log("resolved");
    } catch (e) {
      console.log(e.code, e.failure?.kind);
    }
  `;
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 15_000 });
  const took = performance.now() - started;
  assert.equal(child.error, undefined, `${child.error}`);
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), "SUMMARY_FAILED timeout");
  assert.ok(took < 10_000, `took ${took} ms`);
});
