// A real agent framework: a Mastra Agent's loop (generate with tools over many steps)
// whose prompt is compacted at every step by the package's CompactorProcessor. The model
// is the AI SDK's mock language model, scripted; the README's example is what runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { runReadmeExample } from "./readme.mjs";

const { Compactor } = await import("../../pkg/node.js");
const { CompactorProcessor } = await import("../../pkg/mastra.js");

const TURNS = 40;
const TASK = "Find where the config is parsed.";
const ANSWER = "It is parsed in src/config.rs.";
const SUMMARY = "Read src/m0.rs onwards; no config parsing there.";
const usage = { inputTokens: { total: 100, noCache: 100 }, outputTokens: { total: 10, text: 10 } };

/** Calls readFile `TURNS` times, then answers; records every prompt it is sent. */
function scripted() {
  const prompts = [];
  const model = new MockLanguageModelV3({
    modelId: "scripted",
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const n = prompts.length - 1;
      if (n < TURNS) {
        return {
          content: [{ type: "tool-call", toolCallId: `call-${n}`, toolName: "readFile", input: JSON.stringify({ path: `src/m${n}.rs` }) }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [],
        };
      }
      return { content: [{ type: "text", text: ANSWER }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  return { model, prompts };
}

const readFile = createTool({
  id: "readFile",
  description: "Reads a file of the repository.",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => Array.from({ length: 40 }, (_, n) => `${path}:${n}: let value_${n} = compute(${n});`).join("\n"),
});

const parts = (prompt, type) => prompt.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === type);

function check(prompts) {
  assert.equal(prompts.length, TURNS + 1);
  for (const prompt of prompts) {
    const calls = new Set(parts(prompt, "tool-call").map((p) => p.toolCallId));
    const results = new Set(parts(prompt, "tool-result").map((p) => p.toolCallId));
    assert.deepEqual(calls, results, "every tool call beside its result");
    assert.ok(parts(prompt, "text").some((p) => p.text === TASK), "the task in every call");
  }
  const last = prompts.at(-1);
  assert.ok(parts(last, "text").some((p) => p.text.includes(SUMMARY)), "the summary in the last call");
  assert.ok(last.length < 2 * TURNS);
}

test("the README's Mastra example compacts every step of the agent loop", { timeout: 120_000 }, async () => {
  const { model, prompts } = scripted();
  const requests = [];
  const summarize = async (request) => {
    requests.push(request);
    return SUMMARY;
  };
  const { compaction, result } = await runReadmeExample(
    "@compactor-rs/compactor/mastra",
    { model, summarize, readFile, task: TASK, instructions: "You are a coding agent." },
    ["compaction", "result"],
  );
  assert.equal(result.text, ANSWER);
  check(prompts);
  assert.ok(requests.length > 0);
  assert.ok(compaction.lastResult.report.messagesAfter <= 50);
});

test("a small window: tokens fire, every prompt stays under it", { timeout: 120_000 }, async () => {
  const { model, prompts } = scripted();
  const compactor = new Compactor({ model: "gpt-4o", maxContextTokens: 6000, outputReserve: 1000 });
  const results = [];
  const compaction = new CompactorProcessor(compactor, { summarize: async () => SUMMARY, onResult: (r) => results.push(r) });
  const agent = new Agent({ id: "coder", name: "coder", instructions: "You are a coding agent.", model, tools: { readFile }, inputProcessors: [compaction] });
  const result = await agent.generate(TASK, { maxSteps: 50 });
  assert.equal(result.text, ANSWER);
  check(prompts);
  for (const prompt of prompts) assert.ok(compactor.assess(prompt, { format: "aiSdk" }).totalTokens <= 5000);
  assert.equal(results.length, TURNS + 1);
});

test("bad arguments are a clear error", () => {
  assert.throws(() => new CompactorProcessor({}, { summarize: async () => "" }), /must be a Compactor/);
  assert.throws(() => new CompactorProcessor(new Compactor({ model: "gpt-4o" }), {}), /summarize must be a function/);
});
