// Never wrong, never stuck, through the built package (`wasm/build.sh` first): reactive
// runs always come back smaller or reject, and random configs, options and summarizer
// behaviours never crash the module, never leave a call unsettled, and never return a
// conversation over the absolute limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { corpusFile } from "../corpus.mjs";

const { Compactor, errorCodes, extractiveSummarize } = await import("../../pkg/node.js");

const sample = JSON.parse(readFileSync(new URL("../../../samples/sample.json", import.meta.url), "utf8"));
const summarize = (request) => extractiveSummarize(request);
const tokensOf = (messages) => new Compactor({ model: "gpt-4o" }).assess(messages, { lenient: true }).totalTokens;

test("reactive: a cut under minReduction comes back smaller, where a manual run answers noProgress", async () => {
  const before = tokensOf(sample);
  // A window twice the conversation: the count says it fits; the provider said it did not.
  const c = new Compactor({ maxContextTokens: 2 * before, outputReserve: 0, maxMessages: null, minReduction: 0.9 });
  const manual = await c.compact(sample, { summarize, trigger: "manual" });
  assert.deepEqual(manual.status, { kind: "noProgress" });
  const reactive = await c.compact(sample, { summarize, trigger: "reactive", sessionId: "other" });
  assert.equal(reactive.status.kind, "compacted");
  assert.ok(reactive.report.tokensAfter < before, `${reactive.report.tokensAfter} !< ${before}`);
  assert.ok(tokensOf(reactive.messages) < before);
});

test("reactive: nothing left to cut is CONTEXT_OVERFLOW naming what remains, never the same messages back", async () => {
  const messages = [
    { role: "system", content: "Rule: always cite src/lib.rs line numbers. ".repeat(200) },
    { role: "user", content: "Fix it." },
    { role: "assistant", content: "Done." },
    { role: "user", content: "Thanks." },
  ];
  const c = new Compactor({ maxContextTokens: 2 * tokensOf(messages), outputReserve: 0, maxMessages: null });
  const systemId = c.assess(messages).messages[0].id;
  await assert.rejects(c.compact(messages, { summarize, trigger: "reactive" }), (e) => {
    assert.equal(e.code, "CONTEXT_OVERFLOW");
    assert.equal(e.offenders[0].id, systemId);
    return true;
  });
});

/** mulberry32: a small seeded generator, so a failing case can be run again. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (items) => items[int(items.length)];
  return { next, int, pick, chance: (p) => next() < p };
}

/** Values no field expects, and extremes of the ones it does. */
const ODD = [undefined, null, 0, 1, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 32, 2 ** 53, Number.MAX_VALUE, 1e9, "", "12", true, [], {}, () => 1, 10n];

const INTEGER_FIELDS = [
  "keepRecentTurns", "tailTokens", "keepToolResults", "minTailTurns", "maxSummaryTokens", "maxFailures",
  "breakerCooldownMs", "minMessages", "clearAtLeast", "maxPreservedUserTokens", "summarizerInputTokens",
  "requestTimeoutMs", "maxAttempts", "maxConcurrency", "cacheCapacity", "sessionCapacity", "maxMessages",
];

/** A config: sensible numbers with now and then an extreme, a wrong type or an unknown field. */
function randomConfig(g, conversationTokens) {
  const room = Math.max(1, Math.round(conversationTokens * (0.05 + 2 * g.next())));
  const config = { maxContextTokens: room + 500, outputReserve: 500, maxMessages: null };
  if (g.chance(0.5)) config.model = g.pick(["gpt-4o", "claude-sonnet-4-5", "no-such-model"]);
  const typical = {
    keepRecentTurns: () => 1 + g.int(8), tailTokens: () => g.int(4000), keepToolResults: () => g.int(5),
    minTailTurns: () => 1 + g.int(3), maxSummaryTokens: () => 64 + g.int(2000), maxFailures: () => 1 + g.int(5),
    breakerCooldownMs: () => g.int(10_000), minMessages: () => g.int(10), clearAtLeast: () => g.int(3000),
    maxPreservedUserTokens: () => g.int(4000), summarizerInputTokens: () => 256 + g.int(64_000),
    requestTimeoutMs: () => 20 + g.int(200), maxAttempts: () => 1 + g.int(16), maxConcurrency: () => 1 + g.int(8),
    cacheCapacity: () => g.int(100), sessionCapacity: () => 1 + g.int(100), maxMessages: () => 2 + g.int(100),
  };
  for (const field of INTEGER_FIELDS) {
    if (g.chance(0.3)) config[field] = typical[field]();
    else if (g.chance(0.03)) config[field] = g.pick([...ODD, 1000, 1e6, 1e6 + 1, 2 ** 31, 1e12]);
  }
  if (g.chance(0.2)) config.minReduction = g.chance(0.8) ? g.next() : g.pick(ODD);
  if (g.chance(0.1)) [config.triggerRatio, config.targetRatio] = g.chance(0.6) ? [0.9, 0.5] : [g.pick(ODD), g.pick(ODD)];
  if (g.chance(0.1)) config.encoding = g.pick(["o200k_base", "cl100k_base", "estimate", "bogus", 3]);
  if (g.chance(0.2)) config.extractiveFallback = g.chance(0.8) ? g.chance(0.5) : g.pick(ODD);
  if (g.chance(0.03)) config.comfortTokens = g.pick(ODD);
  if (g.chance(0.03)) config.noSuchField = 1;
  if (g.chance(0.02)) config.maxContextTokens = g.pick(ODD);
  return config;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const NEVER = () => new Promise(() => {});

/** What the summarizer does: answers well, or one of the ways a model fails. */
const BEHAVIOURS = {
  extract: (r) => extractiveSummarize(r),
  async: async (r) => (await sleep(1), extractiveSummarize(r)),
  throws: () => { throw new Error("model unavailable"); },
  rejects: async () => { throw new Error("rate limited"); },
  empty: () => "",
  number: () => 42,
  object: () => ({ text: "summary" }),
  undefined: () => undefined,
  farTooLong: () => "word ".repeat(50_000),
  dropsRefs: (r) => extractiveSummarize(r).replace(/«artifact:[^»]*»/g, ""),
  late: async (r) => (await sleep(300), extractiveSummarize(r)),
  neverSettles: NEVER,
  inputTooLong: () => { const e = new Error("input too long"); e.code = "INPUT_TOO_LONG"; throw e; },
  saysInputTooLong: () => ({ inputTooLong: true }),
};

function randomOptions(g, behaviour) {
  const options = { summarize: BEHAVIOURS[behaviour], lenient: true };
  if (g.chance(0.7)) options.trigger = g.pick(["proactive", "reactive", "manual"]);
  else if (g.chance(0.1)) options.trigger = g.pick(ODD);
  if (g.chance(0.5)) options.sessionId = g.chance(0.9) ? `s${g.int(5)}` : g.pick(ODD);
  if (g.chance(0.1)) options.format = g.pick(["openai", "anthropic", "aiSdk", "bogus"]);
  if (g.chance(0.15)) options.signal = AbortSignal.timeout(g.int(200));
  if (g.chance(0.05)) options.onEvent = () => { throw new Error("listener failed"); };
  if (g.chance(0.02)) options.unknownOption = true;
  if (g.chance(0.02)) options.summarize = g.pick(ODD);
  return options;
}

/** Settles within `ms`, or fails the test naming the case. */
async function settles(promise, ms, name) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: not settled within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error) => ({ error })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

test("random configs, options and summarizers: a typed error or a result within the absolute limit, never a crash or a hang", async (t) => {
  const codes = new Set(errorCodes());
  const conversations = [sample, corpusFile("ctf-eps.json"), corpusFile("function_calling_simple--demonstrations.json")];
  const sizes = conversations.map(tokensOf);
  const g = generator(20261130);
  const tally = { cases: 0, refusedConfigs: 0, compacted: 0, unchanged: 0, errors: {} };
  const CASES = 300;
  for (let i = 0; i < CASES; i++) {
    const which = g.int(conversations.length);
    const config = randomConfig(g, sizes[which]);
    const behaviour = g.pick(Object.keys(BEHAVIOURS));
    const name = `case ${i} (${behaviour}, ${JSON.stringify(config, (_, v) => (typeof v === "bigint" ? `${v}n` : v))})`;
    tally.cases++;
    let compactor;
    try {
      compactor = new Compactor(config);
    } catch (e) {
      assert.equal(e.code, "INVALID_INPUT", `${name}: ${e.stack}`);
      assert.ok(typeof e.path === "string" && e.path.startsWith("config"), `${name}: path ${e.path}`);
      tally.refusedConfigs++;
      continue;
    }
    const options = randomOptions(g, behaviour);
    // A summarizer that never settles is failed by the engine's deadline (requestTimeoutMs,
    // default 6 minutes: here at most a second) or by the signal.
    if (behaviour === "neverSettles" && !(options.signal || (Number.isInteger(config.requestTimeoutMs) && config.requestTimeoutMs <= 1000))) {
      options.signal = AbortSignal.timeout(500);
    }
    const outcome = await settles(compactor.compact(conversations[which], options), 30_000, name);
    if (outcome.error) {
      const e = outcome.error;
      assert.ok(codes.has(e.code) || e.message === "listener failed", `${name}: ${e.stack}`);
      assert.notEqual(e.code, "INTERNAL", `${name}: a bug: ${e.message}`);
      tally.errors[e.code ?? "listener"] = (tally.errors[e.code ?? "listener"] ?? 0) + 1;
      continue;
    }
    const { messages, status } = outcome.value;
    assert.ok(Array.isArray(messages) && messages.length > 0, name);
    const assessment = compactor.assess(messages, { lenient: true, format: options.format ?? "openai" });
    assert.ok(
      assessment.totalTokens <= assessment.budget.absoluteLimit,
      `${name}: ${status.kind} with ${assessment.totalTokens} tokens over ${assessment.budget.absoluteLimit}`,
    );
    if (status.kind === "compacted") tally.compacted++;
    else tally.unchanged++;
  }
  // The module survived every case: it still compacts.
  const after = await new Compactor({ maxContextTokens: 3000, outputReserve: 500 }).compact(sample, { summarize });
  assert.deepEqual(after.status, { kind: "compacted", targetMet: true });
  t.diagnostic(`random configs (seed 20261130): ${JSON.stringify(tally)}`);
});
