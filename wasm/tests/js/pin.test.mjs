// Pinning against the built package (`wasm/build.sh` first): the AI SDK marker, `pin`
// indices in the OpenAI format, the session handle's pins, and `compactable: false`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { corpusFile as corpus } from "../corpus.mjs";

const { Compactor, extractiveSummarize } = await import("../../pkg/node.js");

const summarize = (request) => extractiveSummarize(request);

/** A compactor whose window the conversation fills to `fill` (so it must compact). */
function tight(messages, fill, read = {}) {
  const total = new Compactor({ model: "gpt-4o" }).assess(messages, read).totalTokens;
  return new Compactor({ maxContextTokens: Math.round(total / fill), outputReserve: 0, comfortTokens: 10_000_000, maxMessages: null });
}

/** An AI SDK agent conversation: `turns` tool calls with long results. */
function aiSdkSession(turns) {
  const messages = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Fix the failing test in src/lib.rs." },
  ];
  for (let i = 0; i < turns; i++) {
    const output = Array.from({ length: 60 }, (_, w) => `line ${w} of output for src/module_${i}.py`).join("\n");
    messages.push({ role: "assistant", content: [{ type: "text", text: `Step ${i}: running the tests.` }, { type: "tool-call", toolCallId: `c${i}`, toolName: "bash", input: { command: `pytest tests/test_${i}.py` } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: `c${i}`, toolName: "bash", output: { type: "text", value: output } }] });
  }
  messages.push({ role: "assistant", content: "Done." });
  return messages;
}

const has = (messages, message) => messages.some((m) => JSON.stringify(m) === JSON.stringify(message));

test("the AI SDK marker pins a message, which comes back with its marker", async () => {
  const messages = aiSdkSession(12);
  const marked = 7;
  messages[marked] = { ...messages[marked], providerOptions: { compactor: { pin: true } } };
  const read = { format: "aiSdk" };
  const compactor = tight(messages, 5, read);
  const plan = compactor.plan(messages, read);
  const segment = plan.segmentation.segments.findIndex((s) => s.messages.start <= marked && marked < s.messages.end);
  assert.equal(plan.segmentStates[segment], "raw", "a segment is pinned only when all of it is");
  const { messages: out, status } = await compactor.compact(messages, { summarize, format: "aiSdk", trigger: "manual" });
  assert.equal(status.kind, "compacted");
  assert.ok(has(out, messages[marked]), "the marked message, marker included, is verbatim");
  assert.ok(!has(out, messages[marked + 2]), "its unmarked neighbour was compacted");
  await assert.rejects(
    compactor.compact([{ role: "user", content: "hi", providerOptions: { compactor: { pin: 1 } } }], { summarize, format: "aiSdk" }),
    { code: "INVALID_INPUT", path: "messages[0].providerOptions.compactor.pin" },
  );
});

test("pin indices keep OpenAI messages verbatim, and a bad index names the option", async () => {
  const messages = corpus("mini-swe-agent--django-13230.json");
  const read = { lenient: true };
  const deep = messages.findIndex((m, i) => i > messages.length / 3 && m.role === "assistant");
  const compactor = tight(messages, 4, read);
  const unpinned = await compactor.compact(messages, { summarize, lenient: true, trigger: "manual" });
  assert.ok(!has(unpinned.messages, messages[deep]), "unpinned, the run compacts it");
  const pinned = await compactor.compact(messages, { summarize, lenient: true, trigger: "manual", pin: [deep] });
  assert.equal(pinned.status.kind, "compacted");
  assert.ok(has(pinned.messages, messages[deep]), "pinned, it is verbatim");
  assert.ok(pinned.messages.length < messages.length);
  // plan shows a pinned segment when every message of it is pinned.
  const plan = compactor.plan(messages, { ...read, pin: [1, 2, 3] });
  const before = compactor.plan(messages, read).segmentStates.filter((s) => s === "pinned").length;
  assert.ok(plan.segmentStates.filter((s) => s === "pinned").length > before);
  await assert.rejects(compactor.compact(messages, { summarize, lenient: true, pin: [messages.length] }), (e) => {
    assert.equal(e.code, "INVALID_INPUT");
    assert.equal(e.path, "options.pin");
    assert.match(e.message, new RegExp(`index ${messages.length} is out of range: the conversation has ${messages.length} messages`));
    return true;
  });
  assert.throws(() => compactor.plan(messages, { ...read, pin: [-1] }), { code: "INVALID_INPUT", path: "options.pin[0]" });
  assert.throws(() => compactor.plan(messages, { ...read, pin: "3" }), { code: "INVALID_INPUT", path: "options.pin" });
});

test("compactable: false is assessed, never rewritten", async () => {
  const messages = corpus("mini-swe-agent--django-13230.json");
  const read = { lenient: true };
  const total = new Compactor({ model: "gpt-4o" }).assess(messages, read).totalTokens;
  // Within the absolute limit: skipped, with the messages as they came.
  const roomy = new Compactor({ maxContextTokens: Math.round(total * 1.2), outputReserve: 0, maxMessages: null });
  const skipped = await roomy.compact(messages, { summarize, lenient: true, trigger: "manual", compactable: false });
  assert.deepEqual(skipped.status, { kind: "skipped", reason: "notCompactable" });
  assert.deepEqual(skipped.messages, messages);
  const control = await roomy.compact(messages, { summarize, lenient: true, trigger: "manual" });
  assert.equal(control.status.kind, "compacted", "the same run without the opt-out compacts");
  // Over it: CONTEXT_OVERFLOW naming the largest messages.
  const small = tight(messages, 2, read);
  await assert.rejects(small.compact(messages, { summarize, lenient: true, compactable: false }), (e) => {
    assert.equal(e.code, "CONTEXT_OVERFLOW");
    assert.ok(e.offenders.length > 0);
    assert.ok(e.offenders.every((o, i) => i === 0 || e.offenders[i - 1].tokens >= o.tokens), "largest first");
    return true;
  });
  assert.throws(() => small.plan(messages, { ...read, compactable: "no" }), { code: "INVALID_INPUT", path: "options.compactable" });
});

test("a session's pin follows its message through compactions", async () => {
  const messages = aiSdkSession(16);
  const read = { format: "aiSdk" };
  const compactor = tight(messages, 5, read);
  const session = compactor.session("pinned", messages, read);
  const pinned = 9;
  session.pin([pinned]);
  const first = await session.compact({ summarize, trigger: "manual" });
  assert.equal(first.status.kind, "compacted");
  const moved = session.messages.findIndex((m) => JSON.stringify(m) === JSON.stringify(messages[pinned]));
  assert.ok(moved >= 0 && moved < pinned, `kept, and moved (${moved})`);
  // More turns, another compaction: the message is still there, though its index changed.
  session.appendAll(aiSdkSession(16).slice(2).map((m) => JSON.parse(JSON.stringify(m).replace(/"c(\d+)"/g, '"late-c$1"'))));
  await session.compact({ summarize, trigger: "manual" });
  assert.ok(has(session.messages, messages[pinned]));
  assert.throws(() => session.pin([session.length]), { code: "INVALID_INPUT", path: "session.pin" });
  await assert.rejects(session.compact({ summarize, pin: [0] }), { code: "INVALID_INPUT", path: "options.pin" });
  // A session that opts out pins what is appended later too.
  const out = new Compactor({ model: "gpt-4o" }).session("out", messages, { ...read, compactable: false });
  out.append({ role: "user", content: "one more thing" });
  const skipped = await out.compact({ summarize, trigger: "manual" });
  assert.deepEqual(skipped.status, { kind: "skipped", reason: "notCompactable" });
});
