// The package inside a real edge runtime: a Cloudflare module worker (workerd, through
// Miniflare) imports the package's `workerd` entry and compacts a corpus trajectory with
// an async summarizer. Bounded: the test times out, and the runtime is always disposed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { corpusDir } from "../corpus.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const corpus = new URL("mini-swe-agent--django-13230.json", corpusDir);

const worker = `
import { Compactor } from "./pkg/workerd.js";

// An async summarizer: the first lines of the transcript, after a timer tick.
async function summarize(request) {
  await new Promise((resolve) => setTimeout(resolve, 5));
  const lines = request.prompt.at(-1).content.split("\\n").map((l) => l.trim()).filter(Boolean);
  let text = "";
  for (const line of lines) {
    if (text.length + line.length > request.maxOutputTokens * 3) break;
    text += "- " + line.slice(0, 160) + "\\n";
  }
  return text;
}

export default {
  async fetch(request) {
    const messages = await request.json();
    const probe = new Compactor({ model: "gpt-4o" });
    const total = probe.assess(messages, { lenient: true }).totalTokens;
    const compactor = new Compactor({
      maxContextTokens: Math.round(total / 1.6),
      outputReserve: 100,
      maxMessages: null,
      keepRecentTurns: 2,
    });
    const events = [];
    try {
      const result = await compactor.compact(messages, {
        summarize,
        lenient: true,
        onEvent: (event) => events.push(event.type),
      });
      return Response.json({
        runtime: navigator.userAgent,
        counter: compactor.counter,
        status: result.status,
        report: result.report,
        first: result.messages[0],
        last: result.messages.at(-1),
        count: result.messages.length,
        events,
      });
    } catch (error) {
      return Response.json({ error: String(error), code: error.code }, { status: 500 });
    }
  },
};
`;

test("a Cloudflare worker (workerd) imports the package and compacts with an async summarizer", { timeout: 60_000 }, async (t) => {
  const mf = new Miniflare({
    modules: [
      { type: "ESModule", path: "worker.js", contents: worker },
      { type: "ESModule", path: "pkg/workerd.js", contents: readFileSync(new URL("workerd.js", pkg), "utf8") },
      { type: "ESModule", path: "pkg/compactor.js", contents: readFileSync(new URL("compactor.js", pkg), "utf8") },
      { type: "CompiledWasm", path: "pkg/compactor_bg.wasm", contents: readFileSync(new URL("compactor_bg.wasm", pkg)) },
    ],
    compatibilityDate: "2025-06-01",
  });
  try {
    const started = performance.now();
    const input = readFileSync(corpus, "utf8");
    const response = await mf.dispatchFetch("http://worker/", { method: "POST", body: input });
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    const messages = JSON.parse(input);
    assert.equal(body.runtime, "Cloudflare-Workers");
    assert.equal(body.counter, "o200k_base");
    assert.equal(body.status.kind, "compacted");
    assert.ok(body.report.tokensAfter < body.report.tokensBefore);
    assert.ok(body.report.requests > 0);
    assert.ok(body.count < messages.length);
    assert.deepEqual(body.first, messages[0]);
    assert.deepEqual(body.last, messages.at(-1));
    assert.equal(body.events[0], "assessed");
    assert.equal(body.events.at(-1), "finished");
    t.diagnostic(`workerd: ${body.report.tokensBefore} -> ${body.report.tokensAfter} tokens, ${body.report.requests} requests, ${(performance.now() - started).toFixed(0)} ms`);
  } finally {
    await mf.dispose();
  }
});
