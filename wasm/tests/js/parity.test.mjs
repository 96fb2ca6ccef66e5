// The same conversation and config give the same results through the npm package as
// through the command line (the Rust engine): stateless compactions byte for byte, and
// sessions call by call under the default, cost-aware policy, on every corpus file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { corpusDir, corpusFile } from "../corpus.mjs";
import { cli, replayCalls, replaySession } from "../cli.mjs";

const { Compactor, extractiveSummarize } = await import("../../pkg/node.js");

const files = readdirSync(corpusDir).filter((f) => f.endsWith(".json")).sort();
const path = (file) => fileURLToPath(new URL(file, corpusDir));
// mini-swe-agent's runs end with a message of role `exit`: read leniently, as opaque.
const read = { lenient: true };

test("a session with no target follows the core's default policy: every corpus file replayed call by call as `compactor replay` replays it", async () => {
  assert.ok(files.length >= 20, "expected the shared corpus");
  let compactions = 0;
  for (const [window, reserve] of [[24_000, 4_000], [8_000, 1_000]]) {
    for (const file of files) {
      // No targetRatio: the session's cost-aware policy decides how deep each cut goes.
      const config = { maxContextTokens: window, outputReserve: reserve, maxMessages: null };
      const mine = await replaySession(new Compactor(config), extractiveSummarize, corpusFile(file), read);
      const args = ["replay", path(file), "--lenient", "--max-context", `${window}`,
        "--output-reserve", `${reserve}`, "--max-messages", "off", "--json"];
      const expected = JSON.parse(cli(args)).policies.find((p) => p.policy === "configured");
      assert.deepEqual(mine.calls, replayCalls(expected.calls), `${file} in ${window} tokens`);
      compactions += expected.totals.compactions;
    }
  }
  // Not vacuous: the corpus compacts under these windows.
  assert.ok(compactions >= 20, `only ${compactions} compactions`);
});

test("a stateless compaction gives the command line's messages and report, on every corpus file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "compactor-parity-"));
  try {
    for (const file of files) {
      const [out, report] = [join(dir, "out.json"), join(dir, "report.json")];
      cli(["compact", path(file), "--lenient", "--max-context", "20000", "--summarizer", "extractive",
        "--reason", "manual", "--session", "cli", "-o", out, "--report", report]);
      const expected = JSON.parse(readFileSync(report, "utf8"));
      const compactor = new Compactor({ model: "gpt-4o", maxContextTokens: 20_000 });
      const result = await compactor.compact(corpusFile(file), {
        summarize: extractiveSummarize, trigger: "manual", sessionId: "cli", ...read,
      });
      assert.equal(JSON.stringify(result.messages), JSON.stringify(JSON.parse(readFileSync(out, "utf8"))), file);
      assert.deepEqual(result.status, expected.status, file);
      assert.deepEqual(result.report, expected.report, file);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
