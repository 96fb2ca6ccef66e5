// The engine's offline summarizer as a function (`extractiveSummarize`), format detection
// (`detectFormat`), and what `plan` says each segment holds (`segmentStates`, `summaries`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { corpusFile } from "../corpus.mjs";

const full = await import("../../pkg/node.js");
const lite = await import("../../pkg-lite/node.js");
const sample = JSON.parse(readFileSync(new URL("../../../samples/sample.json", import.meta.url), "utf8"));
const numbers = { maxContextTokens: 3000, outputReserve: 500 };

test("extractiveSummarize answers the engine's requests: a compaction as the command line makes it", async () => {
  const c = new full.Compactor(numbers);
  const requests = [];
  const { report, status } = await c.compact(sample, {
    summarize: (request) => {
      const text = full.extractiveSummarize(request);
      requests.push({ request, text });
      return text;
    },
  });
  // The same run as `compactor compact samples/sample.json --max-context 3000 --output-reserve 500`,
  // whose report the README shows (a test of the command line holds the README to it).
  const shown = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
  const number = (text) => Number(text.replaceAll(",", ""));
  const [, before, after] = shown.match(/^tokens: ([\d,]+) → ([\d,]+) \(target/m);
  const [, lost, of, paths] = shown.match(/^lost facts: (\d+) of (\d+) \(path (\d+)/m);
  assert.deepEqual(status, { kind: "compacted", targetMet: true });
  assert.deepEqual([report.tokensBefore, report.tokensAfter], [number(before), number(after)]);
  // The loss receipt, as the command line prints it.
  assert.deepEqual([report.lostFacts.before, report.lostFacts.lost], [number(of), number(lost)]);
  const path = report.lostFacts.kinds.find((k) => k.kind === "path");
  assert.equal(path.lost, number(paths));
  // Every lost path is named (the first five of a kind are).
  assert.ok(path.examples.length === Math.min(5, path.lost) && path.examples.every((e) => typeof e === "string"));
  assert.equal(requests.length, 1);
  const [{ request, text }] = requests;
  assert.match(text, /^## /m);
  assert.match(text, /fields\.py/);
  assert.ok(full.countTokens(text) <= request.maxOutputTokens, `${full.countTokens(text)} > ${request.maxOutputTokens}`);
  // Deterministic, and it takes the request as it came or just its prompt and size.
  assert.equal(full.extractiveSummarize({ prompt: request.prompt, maxOutputTokens: request.maxOutputTokens }), text);
  // A smaller size asked for gives a smaller summary.
  assert.ok(full.countTokens(full.extractiveSummarize({ prompt: request.prompt, maxOutputTokens: 40 })) <= 40);
});

test("extractiveSummarize: bad requests throw INVALID_INPUT at their path; the lite package refuses it", () => {
  const invalid = (request, path) =>
    assert.throws(() => full.extractiveSummarize(request), (e) => e.code === "INVALID_INPUT" && e.path === path, JSON.stringify(request));
  invalid({ prompt: [] }, "request.maxOutputTokens");
  invalid({ maxOutputTokens: 100 }, "request.prompt");
  invalid({ prompt: "text", maxOutputTokens: 100 }, "request.prompt");
  invalid({ prompt: [{ role: "bot", content: "x" }], maxOutputTokens: 100 }, "request.prompt[0].role");
  invalid({ prompt: [{ role: "user", content: 3 }], maxOutputTokens: 100 }, "request.prompt[0].content");
  invalid({ prompt: [], maxOutputTokens: -1 }, "request.maxOutputTokens");
  invalid({ prompt: [], maxOutputTokens: 100, extra: 1 }, "request.extra");
  invalid(null, "request.maxOutputTokens");
  // No transcript: nothing to keep (the engine takes an empty answer as one with nothing
  // to add: the summary is the standing instructions and the trail of what it folds).
  assert.equal(full.extractiveSummarize({ prompt: [{ role: "user", content: "hello" }], maxOutputTokens: 100 }), "");
  assert.throws(() => lite.extractiveSummarize({ prompt: [], maxOutputTokens: 100 }), (e) =>
    e.code === "INVALID_INPUT" && e.path === "extractiveSummarize" && /lite package/.test(e.message));
});

test("detectFormat names the format as the engine reads it", () => {
  for (const pkg of [full, lite]) {
    assert.equal(pkg.detectFormat(sample), "openai");
    assert.equal(pkg.detectFormat({ model: "m", messages: sample }), "openai");
    assert.equal(pkg.detectFormat({ system: "be brief", messages: [{ role: "user", content: "hi" }] }), "anthropic");
    assert.equal(pkg.detectFormat([{ role: "user", content: [{ type: "text", text: "hi", providerOptions: {} }] }]), "aiSdk");
    assert.equal(pkg.detectFormat([{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }]), "anthropic");
    assert.equal(pkg.detectFormat({ instructions: "be brief", input: [{ role: "user", content: "hi" }] }), "openaiResponses");
    assert.equal(pkg.detectFormat([{ type: "function_call", call_id: "c", name: "f", arguments: "{}" }]), "openaiResponses");
    assert.equal(pkg.detectFormat([{ role: "model", parts: [{ text: "hi" }] }]), "gemini");
    assert.equal(pkg.detectFormat("not messages"), null);
    assert.equal(pkg.detectFormat(42), null);
    assert.equal(pkg.detectFormat(undefined), null);
  }
});

test("plan: each segment's state, before and after a compaction, and where the summaries stand", async () => {
  const c = new full.Compactor(numbers);
  const before = c.plan(sample);
  const segments = before.segmentation.segments;
  assert.equal(before.segmentStates.length, segments.length);
  assert.equal(before.segmentStates[0], "pinned"); // the system prompt
  segments.forEach((s, i) => {
    if (i > 0) assert.equal(before.segmentStates[i], s.index >= before.tail.firstSegment ? "tail" : "raw", `segment ${i}`);
  });
  assert.deepEqual(before.summaries, []);

  const covers = [];
  const { messages } = await c.compact(sample, {
    summarize: (request) => {
      covers.push(request.covers);
      return full.extractiveSummarize(request);
    },
  });
  const after = c.plan(messages);
  // The task stays verbatim; AGGRESSIVE's summary follows it, the newest turns stay raw.
  assert.deepEqual(after.segmentStates, ["pinned", "summarized", "tail", "tail"]);
  // The summary message stands for the request's messages: their first and last ids.
  assert.equal(after.summaries.length, 1);
  const [summary] = after.summaries;
  assert.equal(summary.level, "aggressive");
  assert.deepEqual(summary.covers, [covers[0][0], covers[0].at(-1)]);
  assert.match(messages[summary.message].content, /^\[compactor summary level=aggressive/);
  const ids = before.assessment.messages.map((m) => m.id);
  assert.ok(ids.indexOf(summary.covers[0]) < ids.indexOf(summary.covers[1]));

  // LIGHT's cleared tool results show as masked: stop the run at LIGHT with a loose target.
  const light = new full.Compactor({ ...numbers, maxContextTokens: 6000, targetRatio: 0.9, triggerRatio: 0.95 });
  const lit = await light.compact(sample, { summarize: full.extractiveSummarize });
  assert.deepEqual(lit.report.levels.map((l) => l.level), ["light"]);
  assert.ok(light.plan(lit.messages).segmentStates.includes("masked"));
});

test("plan on a 228-message corpus trajectory: one state per segment, a summarized run", async () => {
  const conversation = corpusFile("mini-swe-agent--sqlfluff-1517.json");
  const c = new full.Compactor({ maxContextTokens: 12000, outputReserve: 2000 });
  const before = c.plan(conversation, { lenient: true });
  assert.equal(before.segmentStates.length, before.segmentation.segments.length);
  assert.deepEqual(new Set(before.segmentStates), new Set(["pinned", "raw", "tail"]));
  const { messages } = await c.compact(conversation, { lenient: true, summarize: full.extractiveSummarize });
  const after = c.plan(messages, { lenient: true });
  assert.ok(after.segmentStates.includes("summarized"));
  assert.equal(after.summaries.length, after.segmentStates.filter((s) => s === "summarized").length);
});

test("instructions: a focus fenced into every summary prompt, refused when blank or too long", async () => {
  const c = new full.Compactor({ ...numbers, instructions: "Keep the test names." });
  const prompts = [];
  await c.compact(sample, {
    summarize: (request) => {
      prompts.push(request.prompt);
      return full.extractiveSummarize(request);
    },
  });
  assert.ok(prompts.length > 0);
  for (const [instruction, transcript] of prompts) {
    assert.match(instruction.content, /<focus>\nKeep the test names\.\n<\/focus>$/);
    assert.doesNotMatch(transcript.content, /Keep the test names/);
  }
  for (const instructions of ["   ", "x".repeat(2001)]) {
    assert.throws(() => new full.Compactor({ ...numbers, instructions }), /instructions/);
  }
});

test("summarizeOutputs: the running summary reads tool outputs whole only when asked", async () => {
  const read = async (config) => {
    const { report } = await new full.Compactor({ ...numbers, ...config }).compact(sample, {
      summarize: (request) => full.extractiveSummarize(request),
    });
    return { report };
  };
  const masked = await read({});
  const whole = await read({ summarizeOutputs: true });
  assert.ok(
    whole.report.summaryInputTokens > masked.report.summaryInputTokens,
    `${whole.report.summaryInputTokens} !> ${masked.report.summaryInputTokens}`,
  );
  assert.throws(() => new full.Compactor({ summarizeOutputs: "yes" }), (e) => e.code === "INVALID_INPUT" && e.path === "config.summarizeOutputs");
});
