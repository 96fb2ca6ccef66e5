// compact and compactSession against the built package (`wasm/build.sh` first): a real
// corpus trajectory, every error code from a real scenario, events, concurrency, abort.
import { test } from "node:test";
import assert from "node:assert/strict";
import { corpusFile as corpus } from "../corpus.mjs";

const { Compactor, errorCodes } = await import("../../pkg/node.js");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tiny extractive-like summarizer: the first lines of the transcript, within the size asked for. */
async function firstLines(request) {
  await sleep(1);
  const transcript = request.prompt.at(-1).content;
  const budget = request.maxOutputTokens * 3;
  let summary = "";
  for (const line of transcript.split("\n").map((l) => l.trim()).filter((l) => l.length > 0)) {
    const bullet = `- ${line.slice(0, 160)}\n`;
    if (summary.length + bullet.length > budget) break;
    summary += bullet;
  }
  return summary;
}

const failing = async () => {
  await sleep(1);
  throw new Error("model unavailable");
};

/** A conversation of `turns` long assistant answers: one MODERATE request per old turn. */
function longTurns(turns, sentences = 110) {
  const sentence = (i) => `Step ${i}: inspected src/module_${i}.rs line ${i * 7} and found value ${i * 13}. `;
  const messages = [{ role: "system", content: "You are a coding agent." }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: "user", content: `Continue with part ${t}.` });
    messages.push({ role: "assistant", content: Array.from({ length: sentences }, (_, j) => sentence(t * 1000 + j)).join("") });
  }
  return messages;
}

/** A compactor whose window the conversation fills to `fill` (so it must compact). */
function tight(messages, fill, extra = {}, read = {}) {
  const total = new Compactor({ model: "gpt-4o" }).assess(messages, read).totalTokens;
  return new Compactor({ maxContextTokens: Math.round(total / fill), outputReserve: 100, comfortTokens: 10_000_000, maxMessages: null, ...extra });
}

/** Every tool call has its result right after its batch, and every result its call. */
function assertToolPairs(messages) {
  const open = new Set();
  for (const m of messages) {
    if (m.role === "tool") {
      assert.ok(open.delete(m.tool_call_id), `result ${m.tool_call_id} without its call`);
    } else {
      assert.equal(open.size, 0, `calls ${[...open]} without results`);
      for (const call of m.tool_calls ?? []) open.add(call.id);
    }
  }
}

const isSummary = (m) => typeof m.content === "string" && m.content.startsWith("[compactor summary");

test("compacts a corpus trajectory: smaller, tool pairs intact, the caller's format kept", async (t) => {
  // 86 messages with provider extras on each and a last message of the non-standard role `exit`.
  const input = corpus("mini-swe-agent--django-13230.json");
  const c = tight(input, 1.6, { keepRecentTurns: 2 }, { lenient: true });
  const seen = [];
  const result = await c.compact(input, {
    summarize: (request, context) => {
      seen.push({ request, context });
      return firstLines(request);
    },
    lenient: true,
    sessionId: "django",
  });
  assert.equal(result.status.kind, "compacted");
  assert.ok(result.report.tokensAfter < result.report.tokensBefore);
  assert.ok(result.messages.length < input.length);
  assertToolPairs(result.messages.filter((m) => m.role !== "exit"));
  // Untouched messages come back as they went in, provider extras included; rewritten
  // tool results keep every field but their content.
  const byCall = new Map(input.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m]));
  let verbatim = 0;
  for (const m of result.messages) {
    if (isSummary(m)) continue;
    if (input.some((original) => JSON.stringify(original) === JSON.stringify(m))) {
      verbatim++;
      continue;
    }
    assert.equal(m.role, "tool", `rewritten non-tool message: ${JSON.stringify(m).slice(0, 200)}`);
    const { content: _a, ...rest } = m;
    const { content: _b, ...originalRest } = byCall.get(m.tool_call_id);
    assert.deepEqual(rest, originalRest);
  }
  assert.ok(verbatim > 0);
  assert.deepEqual(result.messages.at(-1), input.at(-1));
  assert.deepEqual(result.messages[0], input[0]);
  // Requests are plain data, with the fields the summarizer contract names.
  assert.ok(seen.length > 0);
  const { request, context } = seen[0];
  for (const key of ["id", "level", "prompt", "maxOutputTokens", "covers", "age", "model", "provider", "attempt", "deadlineMs", "inputTokens"]) {
    assert.ok(key in request, key);
  }
  assert.deepEqual(Object.keys(request.prompt[0]), ["role", "content"]);
  assert.equal(request.attempt, 1);
  assert.ok(request.deadlineMs > Date.now());
  assert.deepEqual(context, {});
  assert.equal(c.tokenCountHint("django"), result.report.tokensBefore);
  assert.equal(c.tokenCountHint("elsewhere"), undefined);
  t.diagnostic(`tokens ${result.report.tokensBefore} -> ${result.report.tokensAfter}, messages ${input.length} -> ${result.messages.length}, requests ${result.report.requests}, levels ${result.report.levels.map((l) => l.level)}`);
});

test("request bodies, Anthropic and AI SDK messages come back in their own format", async () => {
  const turns = longTurns(8, 60);
  const body = { model: "gpt-4o", temperature: 0, messages: turns };
  const c = tight(turns, 0.95, { keepRecentTurns: 2 });
  const openai = await c.compact(body, { summarize: firstLines });
  assert.equal(openai.messages.model, "gpt-4o");
  assert.equal(openai.messages.temperature, 0);
  assert.equal(openai.status.kind, "compacted");
  assert.ok(openai.messages.messages.some(isSummary));

  const anthropic = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: [{ type: "text", text: "You are a coding agent.", cache_control: { type: "ephemeral" } }],
    messages: turns.slice(1).map((m) => ({ role: m.role, content: [{ type: "text", text: m.content }] })),
  };
  const a = await c.compact(anthropic, { summarize: firstLines, format: "anthropic", trigger: "manual", sessionId: "anthropic" });
  assert.equal(a.status.kind, "compacted");
  assert.deepEqual(a.messages.system, anthropic.system);
  assert.equal(a.messages.max_tokens, 1024);
  assert.deepEqual(a.messages.messages.at(-1), anthropic.messages.at(-1));

  const aiSdk = turns.map((m) => (m.role === "assistant" ? { role: "assistant", content: [{ type: "text", text: m.content }], providerOptions: { x: { y: 1 } } } : m));
  const s = await c.compact(aiSdk, { summarize: firstLines, format: "aiSdk", trigger: "manual", sessionId: "ai" });
  assert.equal(s.status.kind, "compacted");
  assert.deepEqual(s.messages.at(-1), aiSdk.at(-1));
  assert.ok(s.report.tokensAfter < s.report.tokensBefore);
  assert.ok(s.messages.every((m) => typeof m.content === "string" || Array.isArray(m.content)));
});

test("events: assessed first, finished last, every level entered is left", async () => {
  const messages = longTurns(8);
  const events = [];
  await tight(messages, 0.95, { keepRecentTurns: 2 }).compact(messages, { summarize: firstLines, onEvent: (e) => events.push(e) });
  assert.equal(events[0].type, "assessed");
  assert.equal(events.at(-1).type, "finished");
  assert.equal(events.at(-1).status.kind, "compacted");
  let level = null;
  for (const e of events) {
    if (e.type === "levelEntered") {
      assert.equal(level, null, "a level entered inside another");
      level = e.level;
    } else if (e.type === "levelLeft") {
      assert.equal(e.level, level);
      level = null;
    } else if (e.type.startsWith("request")) {
      assert.notEqual(level, null, `${e.type} outside a level`);
    }
  }
  assert.equal(level, null);
  const issued = events.filter((e) => e.type === "requestIssued").map((e) => e.id);
  const answered = events.filter((e) => e.type === "requestAnswered").map((e) => e.id);
  assert.deepEqual([...answered].sort(), [...issued].sort());
  assert.ok(issued.length >= 3);
});

test("a level's requests run concurrently, bounded by maxConcurrency", async (t) => {
  const latency = 200;
  const messages = longTurns(10);
  let inFlight = 0;
  let peak = 0;
  const slow = async (request) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await sleep(latency);
    inFlight--;
    return `- Part ${request.id}: inspected modules, found values.`;
  };
  const started = performance.now();
  const result = await tight(messages, 0.95, { keepRecentTurns: 2 }).compact(messages, { summarize: slow });
  const elapsed = performance.now() - started;
  const k = result.report.levels.find((l) => l.level === "moderate").requests;
  // MODERATE asks for just enough of the oldest segments to meet the target.
  assert.ok(k >= 3, `only ${k} requests`);
  assert.equal(peak, k);
  // All k were in flight at once (`peak`): run one after the other, the peak would be 1.
  // Their wall time is printed, not asserted: on a loaded 2-core machine the engine's own
  // work beside one latency is not bounded.
  t.diagnostic(`concurrent: ${k} requests x ${latency} ms in ${elapsed.toFixed(0)} ms (serial would be ${k * latency} ms), peak ${peak} in flight`);

  inFlight = 0;
  peak = 0;
  const boundedStart = performance.now();
  const bounded = await tight(messages, 0.95, { keepRecentTurns: 2, maxConcurrency: 2 }).compact(messages, { summarize: slow });
  const boundedElapsed = performance.now() - boundedStart;
  assert.equal(bounded.report.requests, k);
  assert.equal(peak, 2);
  assert.ok(boundedElapsed >= (k / 2) * latency * 0.9, `${boundedElapsed}`);
  t.diagnostic(`maxConcurrency 2: ${k} requests in ${boundedElapsed.toFixed(0)} ms, peak ${peak}`);
});

test("CONTEXT_OVERFLOW: a pinned system prompt larger than the window", async () => {
  const system = { role: "system", content: "Rule: always cite src/lib.rs line numbers. ".repeat(400) };
  const messages = [system, ...longTurns(3, 5).slice(1)];
  const c = new Compactor({ maxContextTokens: 2000, outputReserve: 100, maxMessages: null });
  const systemId = c.assess(messages).messages[0].id;
  await assert.rejects(c.compact(messages, { summarize: firstLines }), (e) => {
    assert.equal(e.name, "CompactorError");
    assert.equal(e.code, "CONTEXT_OVERFLOW");
    assert.equal(e.limit, 1900);
    assert.ok(e.tokens > e.limit);
    assert.equal(e.offenders[0].id, systemId);
    assert.ok(e.offenders[0].tokens > 2000);
    return true;
  });
});

test("SUMMARY_FAILED: a failing summarizer with a window only MAXIMUM could reach", async () => {
  const messages = longTurns(6, 20);
  const c = tight(messages, 3);
  await assert.rejects(c.compact(messages, { summarize: failing }), (e) => {
    assert.equal(e.code, "SUMMARY_FAILED");
    assert.equal(e.level, "maximum");
    assert.deepEqual(e.failure, { kind: "failed", message: "model unavailable" });
    return true;
  });
});

test("CIRCUIT_OPEN after three failed runs, for every clone; resetCircuit closes it", async () => {
  const messages = longTurns(6, 20);
  const c = tight(messages, 3);
  const clone = c.cloneHandle();
  const opened = [];
  for (let run = 0; run < 3; run++) {
    await assert.rejects(c.compact(messages, { summarize: failing, sessionId: "flaky", onEvent: (e) => e.type === "circuitOpened" && opened.push(e) }), { code: "SUMMARY_FAILED" });
  }
  assert.deepEqual(opened, [{ type: "circuitOpened", session: "flaky", failures: 3 }]);
  let asked = 0;
  const counting = (request) => {
    asked++;
    return firstLines(request);
  };
  await assert.rejects(clone.compact(messages, { summarize: counting, sessionId: "flaky" }), (e) => {
    assert.equal(e.code, "CIRCUIT_OPEN");
    assert.equal(e.session, "flaky");
    assert.equal(e.failures, 3);
    return true;
  });
  assert.equal(asked, 0);
  // Other sessions are not affected; a reset on any handle closes it for all.
  await assert.rejects(c.compact(messages, { summarize: failing, sessionId: "other" }), { code: "SUMMARY_FAILED" });
  clone.resetCircuit("flaky");
  clone.free();
  await assert.rejects(c.compact(messages, { summarize: failing, sessionId: "flaky" }), { code: "SUMMARY_FAILED" });
});

test("extractiveFallback: an open circuit compacts with the built-in summarizer instead", async () => {
  const messages = longTurns(6, 20);
  const c = tight(messages, 3, { extractiveFallback: true });
  for (let run = 0; run < 3; run++) {
    // MAXIMUM's failure falls back to the built-in summarizer; the failure still counts.
    const fallen = await c.compact(messages, { summarize: failing, sessionId: "flaky" });
    assert.equal(fallen.status.kind, "compacted");
    assert.equal(fallen.report.extractiveFallback, true);
  }
  let asked = 0;
  const events = [];
  const counting = (request) => {
    asked++;
    return firstLines(request);
  };
  const { messages: compacted, report } = await c.compact(messages, { summarize: counting, sessionId: "flaky", onEvent: (e) => events.push(e.type) });
  assert.equal(asked, 0, "the caller's summarizer is not asked while the circuit is open");
  assert.equal(report.extractiveFallback, true);
  assert.ok(report.requests > 0 && report.tokensAfter <= report.targetTokens, JSON.stringify(report));
  assert.ok(compacted.length < messages.length);
  assert.equal(events.at(-1), "finished");
  // Closed again, the caller's summarizer answers and the report says so.
  c.resetCircuit("flaky");
  const again = await c.compact(messages, { summarize: counting, sessionId: "flaky" });
  assert.ok(asked > 0);
  assert.equal(again.report.extractiveFallback, false);
});

test("ABORTED: the signal stops the run at once and pending summaries are ignored", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const controller = new AbortController();
  const signals = [];
  const events = [];
  const hanging = (request, { signal }) => {
    signals.push(signal);
    return new Promise((resolve) => setTimeout(() => resolve("- late"), 30_000).unref());
  };
  setTimeout(() => controller.abort(new Error("user pressed stop")), 50);
  const started = performance.now();
  await assert.rejects(c.compact(messages, { summarize: hanging, signal: controller.signal, onEvent: (e) => events.push(e.type) }), (e) => {
    assert.equal(e.code, "ABORTED");
    assert.equal(e.cause.message, "user pressed stop");
    return true;
  });
  // Far sooner than the summaries would answer (30 s), with room for a loaded machine.
  assert.ok(performance.now() - started < 10_000);
  assert.ok(signals.length >= 3 && signals.every((s) => s === controller.signal));
  assert.ok(!events.includes("finished"));
  // Already aborted: nothing starts.
  let asked = 0;
  await assert.rejects(c.compact(messages, { summarize: () => asked++, signal: AbortSignal.abort() }), { code: "ABORTED" });
  assert.equal(asked, 0);
  // Aborting from inside the summarizer.
  const inner = new AbortController();
  await assert.rejects(c.compact(messages, { summarize: () => { inner.abort(); return "- x"; }, signal: inner.signal }), { code: "ABORTED" });
});

/** An in-memory session store with compare-and-set, and hooks for the tests. */
function memoryStore(sessions, hooks = {}) {
  return {
    writes: 0,
    async load(id) {
      await sleep(1);
      const session = sessions.get(id);
      if (!session) return null;
      const loaded = { messages: structuredClone(session.messages), version: session.version };
      hooks.afterLoad?.(session);
      return loaded;
    },
    async save(id, messages, expected) {
      await sleep(1);
      const session = sessions.get(id);
      if (session.version !== expected) return { conflict: session.version };
      this.writes++;
      sessions.set(id, { messages, version: expected + 1 });
      return true;
    },
  };
}

test("compactSession reads, compacts and writes back with the version read", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const sessions = new Map([["s1", { messages, version: 7 }]]);
  const store = memoryStore(sessions);
  const result = await c.compactSession(store, "s1", { summarize: firstLines });
  assert.equal(result.status.kind, "compacted");
  assert.equal(store.writes, 1);
  assert.equal(sessions.get("s1").version, 8);
  assert.deepEqual(sessions.get("s1").messages, result.messages);
  // The stored result, read back, is recognized as this session's latest: a no-op,
  // nothing written.
  const again = await c.compactSession(store, "s1", { summarize: firstLines });
  assert.deepEqual(again.status, { kind: "noOp" });
  assert.equal(store.writes, 1);
  // Synchronous stores work too; an unknown session is bad input.
  const sync = { load: () => null, save: () => true };
  await assert.rejects(c.compactSession(sync, "nope", { summarize: firstLines }), { code: "INVALID_INPUT", path: "sessionId" });
});

test("CONFLICT: a loaded message changed between load and save, and nothing is written", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const sessions = new Map([["s1", { messages, version: 1 }]]);
  // An edit of a message the run read (with an append after it): not rebased.
  const edited = [...messages.slice(0, 1), { role: "user", content: "Reworded." }, ...messages.slice(2), { role: "user", content: "new" }];
  let edits = 1;
  const store = memoryStore(sessions, { afterLoad: (session) => edits-- > 0 && Object.assign(session, { messages: edited, version: 2 }) });
  await assert.rejects(c.compactSession(store, "s1", { summarize: firstLines }), (e) => {
    assert.equal(e.code, "CONFLICT");
    assert.equal(e.expected, 1);
    assert.equal(e.found, 2);
    return true;
  });
  assert.equal(store.writes, 0);
  assert.equal(sessions.get("s1").messages, edited);
});

/** Calls `meanwhile` on the first request (the agent appending while the model works), then summarizes. */
function appendingOnce(meanwhile) {
  let done = false;
  return async (request) => {
    if (!done) {
      done = true;
      meanwhile();
    }
    return firstLines(request);
  };
}

test("compactSession writes messages appended while it ran after its result, verbatim", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const sessions = new Map([["s1", { messages, version: 1 }]]);
  const store = memoryStore(sessions);
  const appended = [
    { role: "user", content: "Also run the linter.", metadata: { turn: 9 } },
    { role: "assistant", content: "Running it now.", extra: [1.50, "kept"] },
  ];
  const summarize = appendingOnce(() => sessions.set("s1", { messages: [...messages, ...appended], version: 2 }));
  const result = await c.compactSession(store, "s1", { summarize });
  assert.equal(result.status.kind, "compacted");
  assert.equal(result.rebased, 2);
  assert.equal(result.conflicts, 1);
  const stored = sessions.get("s1");
  assert.equal(stored.version, 3);
  assert.deepEqual(stored.messages, result.messages);
  assert.ok(c.assess(stored.messages).totalTokens < c.assess([...messages, ...appended]).totalTokens, "compacted");
  assert.deepEqual(stored.messages.slice(-2), appended, "appended last, unknown fields kept");
  assert.equal(stored.messages.filter((m) => m.content === "Also run the linter.").length, 1);
  // A result that changed nothing is written by nobody, and reports no rebase.
  const quiet = await new Compactor({ model: "gpt-4o" }).compactSession(store, "s1", { summarize: firstLines });
  assert.equal(quiet.status.kind, "skipped");
  assert.equal(quiet.rebased, 0);
});

test("appends that push the result over the absolute limit are compacted again, never written over it", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const big = longTurns(7).slice(1); // most of the window, appended mid-run
  const sessions = new Map([["s1", { messages, version: 1 }]]);
  const store = memoryStore(sessions);
  const summarize = appendingOnce(() => sessions.set("s1", { messages: [...messages, ...big], version: 2 }));
  const result = await c.compactSession(store, "s1", { summarize });
  assert.equal(result.rebased, big.length);
  const stored = sessions.get("s1").messages;
  const first = await tight(messages, 0.95, { keepRecentTurns: 2 }).compact(messages, { summarize: firstLines });
  const naive = c.assess(first.messages.concat(big));
  assert.ok(naive.signals.overAbsoluteLimit, `the first result with the appends: ${naive.totalTokens} tokens`);
  assert.ok(c.assess(stored).totalTokens <= c.budget.absoluteLimit, `${c.assess(stored).totalTokens} > ${c.budget.absoluteLimit}`);
  assert.deepEqual(stored.at(-1), big.at(-1), "the newest message is kept as it is");
});

test("two compactions of one session at once: one result is written, the other is CONFLICT", async () => {
  const messages = longTurns(8);
  const [a, b] = [tight(messages, 0.95, { keepRecentTurns: 2 }), tight(messages, 0.95, { keepRecentTurns: 2 })];
  const sessions = new Map([["s1", { messages, version: 1 }]]);
  const store = memoryStore(sessions);
  const slow = async (request) => (await sleep(20), firstLines(request));
  const settled = await Promise.allSettled([a.compactSession(store, "s1", { summarize: slow }), b.compactSession(store, "s1", { summarize: slow })]);
  const won = settled.filter((s) => s.status === "fulfilled");
  const lost = settled.filter((s) => s.status === "rejected");
  assert.equal(won.length, 1);
  assert.equal(lost.length, 1);
  assert.equal(lost[0].reason.code, "CONFLICT");
  assert.equal(store.writes, 1);
  assert.deepEqual(sessions.get("s1"), { messages: won[0].value.messages, version: 2 });
});

test("PERSIST_FAILED and INVALID_INPUT from stores", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const boom = new Error("kv down");
  await assert.rejects(c.compactSession({ load: async () => { throw boom; }, save: () => true }, "s", { summarize: firstLines }), (e) => {
    assert.equal(e.code, "PERSIST_FAILED");
    assert.equal(e.cause, boom);
    return true;
  });
  await assert.rejects(c.compactSession({ load: () => ({ messages, version: 1 }), save: () => Promise.reject(boom) }, "s", { summarize: firstLines }), { code: "PERSIST_FAILED" });
  await assert.rejects(c.compactSession({ load: () => ({ messages, version: 1 }), save: () => "ok" }, "s", { summarize: firstLines }), { code: "INVALID_INPUT", path: "store.save()" });
  await assert.rejects(c.compactSession({ load: () => ({ messages }) , save: () => true }, "s", { summarize: firstLines }), { code: "INVALID_INPUT", path: "store.load()" });
  await assert.rejects(c.compactSession({ load: () => ({ messages: [{ role: "bot" }], version: 1 }), save: () => true }, "s", { summarize: firstLines }), {
    code: "INVALID_INPUT",
    path: "store.load().messages[0].role",
  });
  await assert.rejects(c.compactSession({ load: () => null }, "s", { summarize: firstLines }), { code: "INVALID_INPUT", path: "store.save" });
});

test("summarizer answers: input too long is retried smaller, an empty one compacts, other answers are failures", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  for (const refuse of [() => ({ inputTooLong: true }), () => Promise.reject(Object.assign(new Error("too long"), { code: "INPUT_TOO_LONG" }))]) {
    const attempts = new Map();
    const result = await c.compact(messages, {
      sessionId: `retry-${attempts.size}`,
      summarize: (request) => {
        const covers = request.covers.join();
        attempts.set(covers, [...(attempts.get(covers) ?? []), request.attempt]);
        return request.attempt === 1 ? refuse() : firstLines(request);
      },
    });
    assert.equal(result.status.kind, "compacted");
    assert.ok([...attempts.values()].every((a) => a.join() === "1,2"), JSON.stringify([...attempts.values()]));
    c.clearCache();
  }
  const reasons = [];
  const odd = [42, null, { text: "x" }];
  let i = 0;
  // Every level fails: the best-effort ones keep the messages; MAXIMUM's failure keeps
  // the best result that fits, here the input itself (it fits the window): no progress.
  const kept = await c.compact(messages, {
    sessionId: "odd",
    summarize: () => odd[i++ % odd.length],
    onEvent: (e) => e.type === "requestFailed" && reasons.push(e.reason),
  });
  assert.deepEqual(kept.status, { kind: "noProgress" });
  assert.deepEqual(kept.messages, messages);
  assert.ok(reasons.includes("summarize resolved to number, expected a string"), reasons.join("; "));
  // An empty answer is an answer with nothing to add, not a failure: the summary is the
  // standing instructions and the trail of what it folds, and the run compacts.
  const empty = [];
  const failed = [];
  const blank = await c.compact(messages, {
    sessionId: "empty",
    summarize: () => "",
    onEvent: (e) => (e.type === "emptyAnswer" ? empty.push(e.id) : e.type === "requestFailed" && failed.push(e.reason)),
  });
  assert.equal(blank.status.kind, "compacted");
  assert.ok(blank.report.tokensAfter < blank.report.tokensBefore);
  assert.ok(empty.length > 0 && empty.length === blank.report.requests, `${empty.length} empty answers of ${blank.report.requests}`);
  assert.deepEqual(failed, []);
  assert.ok(blank.messages.some((m) => m.content.startsWith("[compactor summary ")));
});

test("clones share the summary cache; clearCache empties it for all", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const clone = c.cloneHandle();
  const first = await c.compact(messages, { summarize: firstLines, sessionId: "cached" });
  assert.ok(c.cacheSize > 0);
  let asked = 0;
  const second = await clone.compact(messages, { summarize: (r) => (asked++, firstLines(r)), sessionId: "cached" });
  assert.equal(asked, 0);
  assert.equal(second.report.cacheHits, first.report.requests);
  assert.deepEqual(second.messages, first.messages);
  clone.clearCache();
  assert.equal(c.cacheSize, 0);
});

test("a throwing onEvent rejects with what it threw; nothing is applied", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  const thrown = new TypeError("renderer crashed");
  await assert.rejects(c.compact(messages, { summarize: firstLines, onEvent: () => { throw thrown; } }), (e) => e === thrown);
});

test("garbage in compact and compactSession, then a normal call", async () => {
  const c = new Compactor({ model: "gpt-4o" });
  const cyclic = [];
  cyclic.push(cyclic);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const junk = [undefined, null, 0, "text", 10n, Symbol("s"), () => 1, [], {}, [null], cyclic, new Map(), { toJSON() { throw new Error("boom"); } }, [{ role: "bot" }], { messages: "no" }, revoked.proxy];
  const optionJunk = [undefined, null, 1, "x", {}, revoked.proxy, { summarize: firstLines, signal: revoked.proxy }, { summarize: 1 }, { summarize: firstLines, format: "yaml" }, { summarize: firstLines, signal: {} }, { summarize: firstLines, onEvent: "no" }, { summarize: firstLines, trigger: "now" }, { summarize: firstLines, sessionId: 5 }, { summarize: firstLines, lenient: "yes" }, { summarize: firstLines, extra: 1 }];
  const calls = [];
  for (const value of junk) {
    calls.push(() => c.compact(value, { summarize: firstLines }));
    calls.push(() => c.compactSession(value, "s", { summarize: firstLines }));
    calls.push(() => c.compactSession({ load: () => value, save: () => true }, "s", { summarize: firstLines }));
    calls.push(() => c.compactSession({ load: () => ({ messages: value, version: value }), save: () => value }, "s", { summarize: firstLines, trigger: "manual" }));
    calls.push(() => c.compactSession({ load: () => ({ messages: longTurns(4, 2), version: 1 }), save: () => true }, value, { summarize: firstLines }));
  }
  for (const options of optionJunk) calls.push(() => c.compact(longTurns(4, 2), options));
  for (const call of calls) {
    try {
      await call();
    } catch (e) {
      assert.ok(["INVALID_INPUT", "PERSIST_FAILED"].includes(e.code), `${e.code}: ${e.message}`);
    }
  }
  assert.throws(() => c.resetCircuit(1), { code: "INVALID_INPUT", path: "sessionId" });
  assert.throws(() => c.tokenCountHint(null), { code: "INVALID_INPUT", path: "sessionId" });
  const messages = longTurns(8);
  const result = await tight(messages, 0.95, { keepRecentTurns: 2 }).compact(messages, { summarize: firstLines });
  assert.equal(result.status.kind, "compacted");
  assert.equal(new Compactor({ model: "gpt-4o" }).assess(messages).messageCount, messages.length);
  assert.deepEqual(errorCodes(), ["INVALID_INPUT", "CONTEXT_OVERFLOW", "CIRCUIT_OPEN", "CONFLICT", "ABORTED", "SUMMARY_FAILED", "PERSIST_FAILED", "INTERNAL"]);
  c.free(); // throws if a failed call left the handle borrowed
});

test("sessionId: null is the default session, as undefined is", async () => {
  const messages = longTurns(8);
  const c = tight(messages, 0.95, { keepRecentTurns: 2 });
  await c.compact(messages, { summarize: firstLines, sessionId: null });
  assert.equal(typeof c.tokenCountHint("default"), "number");
});
