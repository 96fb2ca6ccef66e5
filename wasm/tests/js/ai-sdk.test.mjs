// A real agent framework: a Vercel AI SDK agent loop (generateText with tools over many
// steps) whose prepareStep compacts the conversation with compactor in the SDK's own
// ModelMessage format. The agent and the summarizer are the SDK's mock language models.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

const { Compactor } = await import("../../pkg/node.js");

const usage = (input, output) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** The text of a language-model prompt message. */
const textOf = (message) =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((part) => part.text ?? JSON.stringify(part.output ?? part.input ?? "")).join("\n");

test("an AI SDK agent loop compacts its messages in prepareStep", { timeout: 60_000 }, async (t) => {
  const steps = 12;
  // The agent: calls `bash` until the last step, then answers. It records every prompt.
  const prompts = [];
  const agent = new MockLanguageModelV3({
    modelId: "mock-agent",
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const n = prompts.length;
      if (n < steps) {
        return {
          content: [
            { type: "text", text: Array.from({ length: 25 }, (_, i) => `Thought ${n}.${i}: test_${n} fails in module_${n}.py at line ${n * 10 + i}; checking fixture db_${i}.`).join(" ") },
            { type: "tool-call", toolCallId: `call-${n}`, toolName: "bash", input: JSON.stringify({ cmd: `pytest tests/test_${n}.py` }) },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: usage(100, 10),
          warnings: [],
        };
      }
      return { content: [{ type: "text", text: "All tests pass now." }], finishReason: { unified: "stop", raw: "stop" }, usage: usage(100, 5), warnings: [] };
    },
  });
  // The summarizer: the first lines of the transcript it is given.
  const summarizer = new MockLanguageModelV3({
    modelId: "mock-summarizer",
    doGenerate: async ({ prompt, maxOutputTokens }) => {
      const transcript = textOf(prompt.at(-1));
      const lines = transcript.split("\n").map((l) => l.trim()).filter(Boolean);
      let text = "";
      for (const line of lines) {
        if (text.length + line.length > (maxOutputTokens ?? 500) * 3) break;
        text += `- ${line.slice(0, 120)}\n`;
      }
      return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage: usage(500, 50), warnings: [] };
    },
  });
  const summarize = async (request, { signal }) => {
    const { text } = await generateText({
      model: summarizer,
      system: request.prompt.filter((m) => m.role === "system").map((m) => m.content).join("\n"),
      messages: request.prompt.filter((m) => m.role !== "system"),
      maxOutputTokens: request.maxOutputTokens,
      abortSignal: signal,
    });
    return text;
  };

  const compactor = new Compactor({ maxContextTokens: 6000, outputReserve: 500, maxMessages: null, keepRecentTurns: 2 });
  const reports = [];
  const result = await generateText({
    model: agent,
    system: "You are a coding agent. Fix the failing tests.",
    prompt: "The test suite fails; make it pass.",
    tools: {
      bash: tool({
        description: "Run a shell command",
        inputSchema: z.object({ cmd: z.string() }),
        execute: async ({ cmd }) =>
          `$ ${cmd}\n` + Array.from({ length: 40 }, (_, i) => `tests/test_case.py::test_${i} PASSED in 0.0${i}s, fixture db_${i} at /tmp/run/${i}`).join("\n"),
      }),
    },
    stopWhen: stepCountIs(steps + 1),
    prepareStep: async ({ messages }) => {
      const { messages: compacted, report, status } = await compactor.compact(messages, { summarize, format: "aiSdk", sessionId: "agent" });
      reports.push({ status: status.kind, before: report.tokensBefore, after: report.tokensAfter, levels: report.levels.map((l) => l.level) });
      return { messages: compacted };
    },
  });

  assert.equal(result.text, "All tests pass now.");
  assert.equal(result.steps.length, steps);
  assert.equal(prompts.length, steps);
  const compacted = reports.filter((r) => r.status === "compacted");
  assert.ok(compacted.length > 0, JSON.stringify(reports));
  for (const r of compacted) assert.ok(r.after < r.before);
  // What the agent model saw at the end is smaller than the full history, every tool call
  // still has its result, and the newest exchange is intact.
  const last = prompts.at(-1);
  const full = result.response.messages.length + 2;
  assert.ok(summarizer.doGenerateCalls.length > 0);
  assert.ok(reports.some((r) => r.levels.includes("moderate") || r.levels.includes("aggressive")), JSON.stringify(reports));
  assert.ok(last.some((m) => textOf(m).includes("[compactor summary")));
  const calls = new Set();
  for (const message of last) {
    for (const part of Array.isArray(message.content) ? message.content : []) {
      if (part.type === "tool-call") calls.add(part.toolCallId);
      if (part.type === "tool-result") assert.ok(calls.delete(part.toolCallId), `result ${part.toolCallId} without its call`);
    }
  }
  assert.equal(calls.size, 0);
  assert.ok(last.some((m) => textOf(m).includes(`call-${steps - 1}`) || JSON.stringify(m).includes(`call-${steps - 1}`)));
  assert.equal(last[0].role, "system");
  t.diagnostic(`prepareStep runs: ${reports.map((r) => `${r.status}${r.levels.length ? `(${r.levels.join("+")}) ${r.before}->${r.after}` : ""}`).join(", ")}`);
  t.diagnostic(`summarizer calls: ${summarizer.doGenerateCalls.length}; last prompt: ${last.length} messages, history ${full}`);
});
