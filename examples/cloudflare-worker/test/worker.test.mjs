// The example worker in workerd (through Miniflare) with real Durable Object storage: 50
// concurrent appends to one session while compactions run. Every message appended is in
// the final conversation exactly once (as itself, or named in exactly one summary), every
// conversation read meanwhile passes the format checker, no request fails, and no
// compaction fails other than by giving up on a write-back that appends kept outrunning. The
// summarizer is an OpenAI-compatible server on loopback, started and stopped here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { startSummarizer, tagCounts } from "../../test-support/summarizer.mjs";

const root = new URL("../../../", import.meta.url);
const pkg = new URL("wasm/pkg/", root);
// Miniflare is a development dependency of the npm package's tests.
const { Miniflare } = createRequire(new URL("wasm/package.json", root))("miniflare");
const { checkFormat } = await import(new URL("node.js", pkg));

const APPENDS = 50;

/** One agent turn: a user message and the assistant's answer, both tagged. */
const turn = (i) => [
  { role: "user", content: `[u${i}] Please handle step ${i}: check the file src/part_${i}.rs for the value ${i * 17}.` },
  { role: "assistant", content: `[a${i}] Step ${i} done: src/part_${i}.rs holds ${i * 17}; the test for part ${i} passes now, and nothing else changed.` },
];

test("50 concurrent appends to one Durable Object session while compactions run", { timeout: 120_000 }, async (t) => {
  const summarizer = await startSummarizer(10);
  const worker = readFileSync(new URL("../src/index.js", import.meta.url), "utf8");
  const mf = new Miniflare({
    modules: [
      // Bare specifiers resolve beside the importing module, as wrangler's bundle would find them.
      { type: "ESModule", path: "index.js", contents: worker },
      { type: "ESModule", path: "@compactor-rs/compactor", contents: readFileSync(new URL("workerd.js", pkg), "utf8").replaceAll('"./', '"./compactor/') },
      { type: "ESModule", path: "@compactor-rs/compactor/stores", contents: readFileSync(new URL("stores.js", pkg), "utf8") },
      { type: "ESModule", path: "@compactor-rs/compactor/compactor.js", contents: readFileSync(new URL("compactor.js", pkg), "utf8") },
      { type: "CompiledWasm", path: "@compactor-rs/compactor/compactor_bg.wasm", contents: readFileSync(new URL("compactor_bg.wasm", pkg)) },
    ],
    compatibilityDate: "2025-06-01",
    durableObjects: { SESSIONS: { className: "Session", useSQLite: true } },
    bindings: {
      SUMMARIZER_URL: summarizer.url,
      SUMMARIZER_MODEL: "loopback",
      MODEL: "gpt-4o",
      MAX_CONTEXT_TOKENS: "1000",
      OUTPUT_RESERVE: "0",
      KEEP_RECENT_TURNS: "2",
      MAX_SUMMARY_TOKENS: "1000",
      MAX_MESSAGES: "off",
    },
  });
  try {
    const call = async (path, body) => {
      const response = await mf.dispatchFetch(`http://worker/sessions/chat-1${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
      const text = await response.text();
      assert.equal(response.status, 200, `${path}: ${text}`);
      return JSON.parse(text);
    };
    await call("/append", { messages: [{ role: "system", content: "You are a coding agent." }] });

    // Readers alongside the writers: every conversation stored meanwhile is well-formed.
    let reads = 0;
    let writing = true;
    const versions = new Set();
    const reader = async () => {
      while (writing) {
        const { messages, version } = await call("");
        assert.deepEqual(checkFormat(messages), [], `version ${version}`);
        versions.add(version);
        reads++;
      }
    };
    const readers = Promise.all([reader(), reader()]);
    const started = performance.now();
    // All 50 in flight within half a second, in a scrambled order: compactions start, wait
    // for the model and write back while the others keep arriving.
    const appends = await Promise.all(
      Array.from({ length: APPENDS }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, ((i * 37) % APPENDS) * 10));
        return call("/append", { messages: turn(i) });
      }),
    );
    writing = false;
    await readers;
    const stats = await call("/compact", {});
    const elapsed = performance.now() - started;
    const { messages, version } = await call("");

    assert.equal(appends.length, APPENDS);
    assert.deepEqual(checkFormat(messages), []);
    const counts = tagCounts(messages);
    for (let i = 0; i < APPENDS; i++) {
      for (const tag of [`[u${i}]`, `[a${i}]`]) assert.equal(counts.get(tag), 1, `${tag} is in ${counts.get(tag) ?? 0} messages`);
    }
    assert.equal(counts.size, 2 * APPENDS, "no tag from nowhere");
    assert.equal(stats.appends, APPENDS + 1);
    assert.ok(stats.compactions >= 1, JSON.stringify(stats));
    // Appends arrived while compactions ran: rebased after a result, or outrunning a
    // write-back until it gave up (CONFLICT, nothing written; a later run compacted them).
    assert.ok(stats.rebased + stats.refused >= 1, `appends arrived while compactions ran: ${JSON.stringify(stats)}`);
    assert.equal(stats.failures, 0, JSON.stringify(stats));
    t.diagnostic(
      `workerd: ${APPENDS} concurrent appends (${2 * APPENDS} messages) in ${elapsed.toFixed(0)} ms; ` +
        `${stats.compactions} compactions, ${stats.skipped} skipped, ${stats.conflicts} conflicts, ${stats.rebased} messages rebased, ` +
        `${stats.refused} refused (CONFLICT), ` +
        `${summarizer.requests} summary requests; ${reads} reads of ${versions.size} versions checked; final: ${messages.length} messages at version ${version}; messages lost: 0`,
    );

    // One append larger than a storage batch (128 keys: 140 messages; the summary naming
    // their tags must fit the window), then a compaction that rewrites it shorter: every
    // key written, every stale one deleted.
    const big = await mf.dispatchFetch("http://worker/sessions/big/append", {
      method: "POST",
      body: JSON.stringify({ messages: Array.from({ length: 70 }, (_, i) => turn(1000 + i)).flat() }),
    });
    assert.equal(big.status, 200, await big.text());
    const bigStats = await (await mf.dispatchFetch("http://worker/sessions/big/compact", { method: "POST" })).json();
    assert.ok(bigStats.compactions >= 1, JSON.stringify(bigStats));
    const after = await (await mf.dispatchFetch("http://worker/sessions/big")).json();
    assert.ok(after.messages.length < 140, `${after.messages.length} messages`);
    assert.deepEqual(checkFormat(after.messages), []);
    const bigCounts = tagCounts(after.messages);
    assert.equal(bigCounts.size, 140);
    assert.ok([...bigCounts.values()].every((n) => n === 1));
  } finally {
    await mf.dispose();
    await summarizer.close();
  }
});
