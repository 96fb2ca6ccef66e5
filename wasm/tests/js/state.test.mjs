// The engine's state travels: exported by the native engine (the `compactor` command's
// `--state` file) and imported by the npm package, and back. The same no-op, the same cache
// hits, the same breaker on both sides; a damaged state is INVALID_INPUT with a path.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const { Compactor } = await import("../../pkg/node.js");

const root = fileURLToPath(new URL("../../../", import.meta.url));
const sample = join(root, "samples/sample.json");
const messages = JSON.parse(readFileSync(sample, "utf8"));

/** The native command, built once (cargo skips the work when it is up to date). */
function native(args) {
  const build = spawnSync("cargo", ["build", "--quiet", "-p", "compactor-tui"], { cwd: root, encoding: "utf8" });
  assert.equal(build.status, 0, build.stderr);
  return spawnSync(join(root, "target/debug/compactor"), args, { cwd: root, encoding: "utf8", timeout: 120_000 });
}

const numbers = (window) => ["--max-context", String(window), "--output-reserve", "500"];
const config = (window) => ({ model: "gpt-4o", maxContextTokens: window, outputReserve: 500 });
const refuse = () => Promise.reject(new Error("the summarizer must not be asked"));

test("native → wasm: a result is a no-op and its summaries are cache hits", async () => {
  const dir = mkdtempSync(join(tmpdir(), "compactor-state-"));
  try {
    const state = join(dir, "state.json");
    const out = join(dir, "out.json");
    const report = join(dir, "report.json");
    const run = native(["compact", sample, ...numbers(3000), "--state", state, "-o", out, "--report", report]);
    assert.equal(run.status, 0, run.stderr);
    const nativeReport = JSON.parse(readFileSync(report, "utf8")).report;
    assert.ok(nativeReport.requests > 0, "the native run asked for summaries");

    const c = new Compactor(config(3000));
    c.importState(JSON.parse(readFileSync(state, "utf8")));
    assert.equal(c.cacheSize, nativeReport.requests);
    const compacted = JSON.parse(readFileSync(out, "utf8"));
    const again = await c.compact(compacted, { sessionId: "cli", summarize: refuse });
    assert.deepEqual(again.status, { kind: "noOp" });
    const repeat = await c.compact(messages, { sessionId: "cli", summarize: refuse });
    assert.equal(repeat.report.cacheHits, nativeReport.requests);
    assert.equal(repeat.report.requests, 0);
    assert.deepEqual(repeat.messages, compacted, "the same result as the native run");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("wasm → native: a breaker opened in the package is open for the command", async () => {
  const dir = mkdtempSync(join(tmpdir(), "compactor-state-"));
  try {
    // Under a 2,300-token limit nothing fits without a summary: failed summaries fail runs.
    const c = new Compactor(config(2800));
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        c.compact(messages, { sessionId: "cli", summarize: () => Promise.reject(new Error("down")) }),
        { code: "SUMMARY_FAILED" },
      );
    }
    const state = join(dir, "state.json");
    writeFileSync(state, JSON.stringify(c.exportState()));
    const run = native(["compact", sample, ...numbers(2800), "--state", state]);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /circuit open for session "cli" after 3 failed runs/);
    // And back: the state the command wrote keeps the circuit open in a fresh handle.
    const fresh = new Compactor(config(2800));
    fresh.importState(JSON.parse(readFileSync(state, "utf8")));
    await assert.rejects(fresh.compact(messages, { sessionId: "cli", summarize: refuse }), { code: "CIRCUIT_OPEN" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("importState: a newer or damaged state is INVALID_INPUT with its path, and nothing is imported", () => {
  const c = new Compactor(config(3000));
  const good = { version: 1, sessions: [{ id: "s", failures: 3, openedAtMs: 1, lastTokens: null, latest: null }], cache: [] };
  assert.throws(() => c.importState({ ...good, version: 2 }), { code: "INVALID_INPUT", path: "state.version" });
  assert.throws(() => c.importState(null), { code: "INVALID_INPUT", path: "state.version" });
  const damaged = { ...good, sessions: [{ ...good.sessions[0], failures: "3" }] };
  assert.throws(() => c.importState(damaged), { code: "INVALID_INPUT", path: "state.sessions[0].failures" });
  const badHash = { ...good, sessions: [{ ...good.sessions[0], latest: { key: "k", hashes: ["xyz"] } }] };
  assert.throws(() => c.importState(badHash), { code: "INVALID_INPUT", path: "state.sessions[0].latest.hashes[0]" });
  assert.equal(c.exportState().sessions.length, 0, "nothing imported");
  c.importState(good);
  assert.equal(c.exportState().sessions[0].failures, 3);
});
