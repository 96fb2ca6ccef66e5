// The component, transpiled by jco, runs in Node: the same .wasm the Python package ships
// compacts a corpus trajectory to the same bytes as the `compactor compact` command line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { engine } from "../build/compactor.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const corpus = process.env.COMPACTOR_CORPUS ?? join(repo, "../shared/corpus");
const cli = process.env.COMPACTOR_CLI ?? join(repo, "target/debug/compactor");

/** Drives a run to its outcome, answering with the engine's offline summaries: one call a
 * step (its events come with it). */
function drive(run) {
  for (;;) {
    const { step, events } = run.poll();
    assert.ok(Array.isArray(JSON.parse(events)));
    if (step.tag === "summarize") {
      for (const request of step.val) {
        run.complete(request.id, { tag: "ok", val: run.offlineSummary(request.id) }, BigInt(Date.now()));
      }
    } else if (step.tag === "wait") {
      run.handleTimeout(BigInt(Date.now()));
    } else if (step.tag === "done") {
      return step.val;
    } else {
      throw new Error(`run failed: ${step.val.message}`);
    }
  }
}

test("a corpus trajectory compacts to the command line's bytes", (t) => {
  const file = readdirSync(corpus).filter((f) => f.endsWith(".json")).sort()[0];
  const path = join(corpus, file);
  const dir = mkdtempSync(join(tmpdir(), "compactor-jco-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, "out.json");
  execFileSync(cli, ["compact", path, "--max-context", "20000", "--summarizer", "extractive",
    "--reason", "manual", "--session", "cli", "-o", out], { stdio: "ignore" });

  const compactor = engine.Compactor.create({ model: "gpt-4o", maxContextTokens: 20000n });
  const run = compactor.begin(readFileSync(path, "utf8"), { lenient: false }, "cli", "manual", BigInt(Date.now()));
  const outcome = drive(run);
  assert.equal(outcome.status, "compacted");
  assert.equal(`${outcome.messages}\n`, readFileSync(out, "utf8"));
  const report = JSON.parse(outcome.report);
  assert.ok(report.tokensAfter < report.tokensBefore);
});

test("bad input is an error with a code and a path", () => {
  const compactor = engine.Compactor.create({ model: "gpt-4o" });
  assert.throws(
    () => compactor.assess('[{"role":"bot","content":"x"}]', { lenient: false }),
    (error) => error.payload?.code === "invalid-input" && error.payload?.path === "messages[0].role",
  );
  assert.equal(engine.countTokens("hello world", undefined), 2n);
});
