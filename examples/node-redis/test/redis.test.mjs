// The example against a real Redis server (Debian's redis-server, started here on a free
// loopback port with a temporary directory, and stopped at the end): 4 worker processes,
// two on node-redis and two on ioredis, share 20 sessions, appending and compacting for a
// bounded time (COMPACTOR_REDIS_SECONDS, default 20). Every turn appended is in its
// session's final conversation exactly once, every conversation any worker read or wrote
// passes the format checker, and no worker fails. Then the engine's state travels: a
// breaker opened in one worker is open in another, a summary cached in one is a hit in
// another.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compactor, checkFormat } from "@compactor-rs/compactor";
import { redisStore } from "@compactor-rs/compactor/stores";
import { startSummarizer, tagCounts } from "../../test-support/summarizer.mjs";
import { connect, turn } from "../worker.mjs";

const WORKERS = 4;
const SESSIONS = 20;
const SECONDS = Number(process.env.COMPACTOR_REDIS_SECONDS ?? 20);
const workerPath = new URL("../worker.mjs", import.meta.url).pathname;

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** redis-server on 127.0.0.1, no persistence, its files in a temporary directory. */
async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), "compactor-redis-"));
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${log}`)), 10_000);
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`redis-server exited with ${code}:\n${log}`)));
    child.stdout.on("data", (data) => {
      log += data;
      if (log.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs one worker process to its end: its JSON report. */
function runWorker(index, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerPath], {
      env: { ...process.env, ...env, WORKER: String(index), CLIENT: index % 2 === 0 ? "redis" : "ioredis" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), (SECONDS + 60) * 1000);
    child.stdout.on("data", (data) => (out += data));
    child.stderr.on("data", (data) => (err += data));
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`worker ${index} exited with ${code}: ${err}`));
    });
  });
}

// Small numbers, so that sessions cross the trigger often within the run.
const numbers = { MAX_CONTEXT_TOKENS: "2000", OUTPUT_RESERVE: "0", KEEP_RECENT_TURNS: "2", MAX_SUMMARY_TOKENS: "1500", PAUSE_MS: "40" };
const compactorConfig = { model: "gpt-4o", maxContextTokens: 2000, outputReserve: 0, keepRecentTurns: 2, maxSummaryTokens: 1500, maxMessages: null };

let redis;
let summarizer;
before(async () => {
  redis = await startRedis();
  summarizer = await startSummarizer(20);
});
after(async () => {
  await summarizer?.close();
  await redis?.stop();
});

test(`${WORKERS} worker processes share ${SESSIONS} sessions for ${SECONDS} s: no message lost`, { timeout: (SECONDS + 90) * 1000 }, async (t) => {
  const env = { ...numbers, REDIS_URL: redis.url, SUMMARIZER_URL: summarizer.url, SESSIONS: String(SESSIONS), DURATION_MS: String(SECONDS * 1000) };
  const reports = await Promise.all(Array.from({ length: WORKERS }, (_, i) => runWorker(i, { ...env, PREFIX: "" })));
  const total = {};
  for (const { counts } of reports) for (const [key, value] of Object.entries(counts)) total[key] = (total[key] ?? 0) + value;
  assert.deepEqual(reports.flatMap((r) => r.errors), []);
  assert.equal(total.failed, 0);
  assert.equal(total.malformed, 0, "every conversation read or written is well-formed");
  assert.ok(total.compactions > 0, JSON.stringify(total));

  // Read back with a fresh client: every turn once, in its session.
  const { client, close } = await connect("redis", redis.url);
  try {
    const store = redisStore(client);
    const found = new Map();
    let messages = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const stored = await store.load(`s${s}`);
      assert.ok(stored, `session s${s}`);
      assert.deepEqual(checkFormat(stored.messages), [], `s${s}`);
      messages += stored.messages.length;
      for (const [tag, count] of tagCounts(stored.messages)) found.set(tag, (found.get(tag) ?? 0) + count);
    }
    const appended = reports.flatMap((r) => r.appended);
    for (const tag of appended) {
      for (const side of ["u", "a"]) assert.equal(found.get(`[${side}:${tag}]`), 1, `[${side}:${tag}] is in ${found.get(`[${side}:${tag}]`) ?? 0} messages`);
    }
    assert.equal(found.size, 2 * appended.length, "no tag from nowhere");
    t.diagnostic(
      `redis: ${WORKERS} workers (node-redis ×2, ioredis ×2), ${SESSIONS} sessions, ${SECONDS} s: ` +
        `${total.appends} appends (${2 * total.appends} messages), ${total.compactions} compactions, ${total.skipped} skipped, ` +
        `${total.conflicts} conflicts rebased (${total.rebased} messages), ${total.refused} compactions refused (CONFLICT), ` +
        `${total.loads} loads checked, ${summarizer.requests} summary requests; final: ${messages} messages; messages lost: 0`,
    );
  } finally {
    await close();
  }
});

test("the store writes the state with every save and hands it over on every load, on both clients", async () => {
  const [one, two] = [await connect("redis", redis.url), await connect("ioredis", redis.url)];
  try {
    // Stand-ins for two workers' engines: what one exports, the other imports.
    // The engine's state names every session it knows: a row keeps its own session's.
    const engineState = {
      version: 1,
      sessions: [{ id: "state-json", failures: 3 }, { id: "other", failures: 1 }],
      cache: [{ key: "00ff", summary: "- é ✓" }],
    };
    const cases = [
      ["state-json", engineState, { ...engineState, sessions: [engineState.sessions[0]] }],
      ["state-bytes", new Uint8Array([0, 1, 2, 255, 128])],
    ];
    for (const [id, exported, state = exported] of cases) {
      const imported = [];
      const writer = { exportState: () => exported };
      const reader = { importState: (s) => imported.push(s) };
      const inA = redisStore(one.client, { compactor: writer, prefix: "slot:" });
      const inB = redisStore(two.client, { compactor: reader, prefix: "slot:" });
      const version = await inA.append(id, [{ role: "user", content: "hi" }]);
      assert.equal(await inA.save(id, [{ role: "user", content: "hello" }], version), true);
      const loaded = await inB.load(id);
      assert.deepEqual(loaded.messages, [{ role: "user", content: "hello" }]);
      assert.equal(loaded.version, version + 1);
      assert.deepEqual(imported, [state]);
      assert.deepEqual(await inB.save(id, [], version), { conflict: version + 1 }, "a stale version writes nothing");
      await inA.saveState(id);
      assert.deepEqual((await inB.load(id)).state, state);
    }
    // A state the engine refuses (another version's) does not make the session unreadable.
    const refusing = redisStore(two.client, { compactor: { importState: () => { throw new Error("unsupported state version"); } }, prefix: "slot:" });
    assert.deepEqual((await refusing.load("state-json")).messages, [{ role: "user", content: "hello" }]);
  } finally {
    await one.close();
    await two.close();
  }
});

const hasState = typeof Compactor.prototype.exportState === "function";

test("the engine's state travels through Redis: breaker and summary cache", { skip: !hasState && "needs Compactor.exportState/importState" }, async () => {
  const [one, two] = [await connect("redis", redis.url), await connect("ioredis", redis.url)];
  try {
    const a = new Compactor({ ...compactorConfig, maxFailures: 2 });
    const b = new Compactor({ ...compactorConfig, maxFailures: 2 });
    const inA = redisStore(one.client, { compactor: a, prefix: "state-test:" });
    const inB = redisStore(two.client, { compactor: b, prefix: "state-test:" });
    const conversation = Array.from({ length: 60 }, (_, n) => turn(`x${n}`, n)).flat();
    const summarize = (await import("../worker.mjs")).openAiSummarizer(summarizer.url);

    // Breaker: worker A fails twice with the model down; its state goes to Redis.
    await inA.append("breaker", conversation);
    summarizer.fail();
    try {
      for (let i = 0; i < 2; i++) {
        // A failed run: rejected (SUMMARY_FAILED) or, with every summary failed below
        // MAXIMUM, nothing cut (noProgress). Either counts towards the breaker.
        const failed = await a.compactSession(inA, "breaker", { summarize }).then((r) => r.status.kind, (e) => e.code);
        assert.ok(["SUMMARY_FAILED", "noProgress"].includes(failed), failed);
        await inA.saveState("breaker");
      }
      await assert.rejects(a.compactSession(inA, "breaker", { summarize }), { code: "CIRCUIT_OPEN" });
      // Worker B never failed: loading the session gives it A's open breaker.
      await assert.rejects(b.compactSession(inB, "breaker", { summarize }), { code: "CIRCUIT_OPEN" });
    } finally {
      summarizer.recover();
    }

    // Cache: A compacts a session; B, having loaded it, summarizes the same messages from the cache.
    await inA.append("cache", conversation);
    const first = await a.compactSession(inA, "cache", { summarize });
    assert.equal(first.status.kind, "compacted");
    assert.ok(first.report.requests > 0);
    await inB.load("cache");
    const requests = summarizer.requests;
    const again = await b.compact(conversation, { summarize, sessionId: "cache" });
    assert.ok(again.report.cacheHits > 0, JSON.stringify(again.report));
    assert.equal(summarizer.requests, requests, "no request reached the model");
  } finally {
    await one.close();
    await two.close();
  }
});
