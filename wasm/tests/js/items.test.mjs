// The item formats in agent loops: an Agents-SDK-style loop over OpenAI Responses items and
// a `@google/genai`-style loop over Gemini contents, each compacting its own history before
// every model call. The models are scripted: each step reasons, calls `bash`, and the last
// one answers.
import { test } from "node:test";
import assert from "node:assert/strict";

const { Compactor, checkFormat, detectFormat } = await import("../../pkg/node.js");

const steps = 14;

/** Long tool output, so the history outgrows the window. */
const output = (n) =>
  Array.from({ length: 40 }, (_, i) => `tests/test_${n}.py::test_${i} PASSED in 0.0${i}s, fixture db_${i} at /tmp/run/${n}/${i}`).join("\n");

/** A summarizer: the first lines of the transcript, within the size asked for. */
const summarize = async (request) => {
  const transcript = request.prompt.at(-1).content;
  let text = "";
  for (const line of transcript.split("\n").map((l) => l.trim()).filter(Boolean)) {
    if (text.length + line.length > request.maxOutputTokens * 3) break;
    text += `- ${line.slice(0, 120)}\n`;
  }
  return text;
};

test("an Agents-SDK-style loop keeps its Responses input inside the window", { timeout: 60_000 }, async (t) => {
  // The scripted model: what `client.responses.create({ input })` would answer.
  const requests = [];
  const create = async ({ input }) => {
    requests.push(structuredClone(input));
    const n = requests.length;
    if (n < steps) {
      return {
        output: [
          { type: "reasoning", id: `rs_${n}`, summary: [], encrypted_content: `gAAAA${"x".repeat(40)}${n}` },
          { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "bash", arguments: JSON.stringify({ cmd: `pytest tests/test_${n}.py` }), status: "completed" },
        ],
      };
    }
    return { output: [{ type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: "All tests pass now.", annotations: [] }] }] };
  };

  const compactor = new Compactor({ maxContextTokens: 6000, outputReserve: 500, maxMessages: null, keepRecentTurns: 2 });
  let input = [{ role: "user", content: "The test suite fails; make it pass." }];
  const statuses = [];
  for (;;) {
    const { messages, status } = await compactor.compact(
      { model: "o4-mini", instructions: "You are a coding agent.", input },
      { summarize, format: "openaiResponses", sessionId: "responses" },
    );
    statuses.push(status.kind);
    assert.equal(messages.instructions, "You are a coding agent.");
    input = messages.input;
    const response = await create({ input });
    input.push(...response.output);
    const calls = response.output.filter((item) => item.type === "function_call");
    if (calls.length === 0) break;
    for (const call of calls) input.push({ type: "function_call_output", call_id: call.call_id, output: output(requests.length) });
  }

  assert.equal(requests.length, steps);
  assert.ok(statuses.includes("compacted"), statuses.join());
  assert.equal(detectFormat({ input: requests.at(-1) }), "openaiResponses");
  for (const sent of requests) {
    assert.deepEqual(checkFormat(sent, { format: "openaiResponses" }), []);
    // Every reasoning item went with the call after it.
    sent.forEach((item, i) => item.type === "reasoning" && assert.equal(sent[i + 1]?.type, "function_call"));
  }
  const last = requests.at(-1);
  assert.ok(last.some((item) => item.role === "user" && String(item.content).includes("[compactor summary")), JSON.stringify(last).slice(0, 400));
  assert.ok(last.length < requests.length * 3);
  t.diagnostic(`runs: ${statuses.join(", ")}; last input ${last.length} items`);
});

test("a @google/genai-style loop keeps its contents inside the window", { timeout: 60_000 }, async (t) => {
  // The scripted model: what `ai.models.generateContent({ contents })` would answer.
  const requests = [];
  const generateContent = async ({ contents }) => {
    requests.push(structuredClone(contents));
    const n = requests.length;
    const parts =
      n < steps
        ? [
            { text: `Checking module ${n}.`, thought: true },
            { functionCall: { name: "bash", args: { cmd: `pytest tests/test_${n}.py` } }, thoughtSignature: `c2ln${n}` },
          ]
        : [{ text: "All tests pass now.", thoughtSignature: `c2ln${n}` }];
    return { candidates: [{ content: { role: "model", parts } }] };
  };

  const compactor = new Compactor({ maxContextTokens: 6000, outputReserve: 500, maxMessages: null, keepRecentTurns: 2 });
  let contents = [{ role: "user", parts: [{ text: "The test suite fails; make it pass." }] }];
  const statuses = [];
  for (;;) {
    const { messages, status } = await compactor.compact(
      { systemInstruction: { parts: [{ text: "You are a coding agent." }] }, contents },
      { summarize, format: "gemini", sessionId: "gemini" },
    );
    statuses.push(status.kind);
    contents = messages.contents;
    const response = await generateContent({ contents });
    const turn = response.candidates[0].content;
    contents.push(turn);
    const calls = turn.parts.filter((part) => part.functionCall);
    if (calls.length === 0) break;
    contents.push({
      role: "user",
      parts: calls.map(({ functionCall }) => ({ functionResponse: { name: functionCall.name, response: { output: output(requests.length) } } })),
    });
  }

  assert.equal(requests.length, steps);
  assert.ok(statuses.includes("compacted"), statuses.join());
  for (const sent of requests) {
    assert.deepEqual(checkFormat(sent, { format: "gemini" }), []);
    // Each signature is still on its call.
    for (const content of sent) {
      for (const part of content.parts) if (part.thoughtSignature && !part.text) assert.ok(part.functionCall, JSON.stringify(part));
    }
  }
  const last = requests.at(-1);
  assert.equal(detectFormat(last), "gemini");
  assert.ok(last.some((c) => c.role === "user" && c.parts.some((p) => p.text?.includes("[compactor summary"))), JSON.stringify(last).slice(0, 400));
  t.diagnostic(`runs: ${statuses.join(", ")}; last request ${last.length} contents`);
});

/** A Responses history of `n` steps: a task, then reasoning, a call and its output each. */
const history = (n) => [
  { role: "user", content: "The test suite fails; make it pass." },
  ...Array.from({ length: n }, (_, i) => [
    { type: "reasoning", id: `rs_${i}`, summary: [], encrypted_content: `gAAAA${i}` },
    { type: "function_call", call_id: `call_${i}`, name: "bash", arguments: JSON.stringify({ cmd: `pytest tests/test_${i}.py` }) },
    { type: "function_call_output", call_id: `call_${i}`, output: output(i) },
  ]).flat(),
];

test("a session handle holds Responses items: pins by input index, compacts as compact() does", async () => {
  const numbers = { maxContextTokens: 5000, outputReserve: 500, maxMessages: null, keepRecentTurns: 2 };
  const body = { model: "o4-mini", instructions: "You are a coding agent.", input: history(12) };
  const read = { format: "openaiResponses", pin: [1] };
  const expected = await new Compactor(numbers).compact(body, { summarize, trigger: "manual", sessionId: "s", ...read });
  const session = new Compactor(numbers).session("s", body, read);
  const outcome = await session.compact({ summarize, trigger: "manual" });
  assert.equal(expected.status.kind, "compacted");
  assert.deepEqual(outcome.status, expected.status);
  assert.equal(JSON.stringify(session.messages), JSON.stringify(expected.messages));
  // The pinned reasoning item (input[1]) is still there, with the call it leads to.
  const input = expected.messages.input;
  const at = input.findIndex((item) => item.id === "rs_0");
  assert.ok(at >= 0, JSON.stringify(input).slice(0, 300));
  assert.equal(input[at + 1].call_id, "call_0");
  assert.deepEqual(checkFormat(expected.messages, { format: "openaiResponses" }), []);
  // The changes splice the caller's own input array into the compacted one.
  const mine = structuredClone(body.input);
  const { start, deleteCount, insert } = session.changes;
  mine.splice(start, deleteCount, ...insert);
  assert.equal(JSON.stringify(mine), JSON.stringify(input));
  // A bad item is refused by its path in the appended list.
  assert.throws(
    () => session.append({ type: "function_call_output", output: "x" }),
    (e) => e.code === "INVALID_INPUT" && /call_id/.test(e.path),
  );
});

test("compactSession keeps a Gemini body in a store and writes it back in its format", async () => {
  const contents = [{ role: "user", parts: [{ text: "The test suite fails; make it pass." }] }];
  for (let i = 0; i < 12; i++) {
    contents.push({ role: "model", parts: [{ functionCall: { name: "bash", args: { cmd: `pytest tests/test_${i}.py` } }, thoughtSignature: `c2ln${i}` }] });
    contents.push({ role: "user", parts: [{ functionResponse: { name: "bash", response: { output: output(i) } } }] });
  }
  const rows = new Map([["g", { messages: { systemInstruction: { parts: [{ text: "You are a coding agent." }] }, contents }, version: 1 }]]);
  const store = {
    load: (id) => rows.get(id) ?? null,
    save: (id, messages, expected) => {
      if (rows.get(id).version !== expected) return { conflict: rows.get(id).version };
      rows.set(id, { messages, version: expected + 1 });
      return true;
    },
  };
  const compactor = new Compactor({ maxContextTokens: 5000, outputReserve: 500, maxMessages: null, keepRecentTurns: 2 });
  const { status, messages } = await compactor.compactSession(store, "g", { summarize, format: "gemini" });
  assert.equal(status.kind, "compacted");
  const saved = rows.get("g");
  assert.equal(saved.version, 2);
  assert.deepEqual(saved.messages, messages);
  assert.deepEqual(messages.systemInstruction, { parts: [{ text: "You are a coding agent." }] });
  assert.deepEqual(checkFormat(messages, { format: "gemini" }), []);
  // The newest turn's signed call is written back as it was.
  assert.deepEqual(messages.contents.at(-2), contents.at(-2));
});
