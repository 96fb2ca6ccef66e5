// A real agent framework: a LangChain.js 1.x createAgent loop whose messages the package's
// middleware compacts before each model call. The model is a scripted chat model (a
// BaseChatModel of our own); the README's example is what runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent, tool } from "langchain";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { z } from "zod";
import { runReadmeExample } from "./readme.mjs";

const { Compactor } = await import("../../pkg/node.js");
const { compactorMiddleware, fromOpenAI, toOpenAI } = await import("../../pkg/langchain.js");

const TURNS = 40;
const TASK = "Find where the config is parsed.";
const ANSWER = "It is parsed in src/config.rs.";
const SUMMARY = "Read src/m0.rs onwards; no config parsing there.";

/** Calls readFile `TURNS` times, then answers; records the messages of every call. */
class ScriptedModel extends BaseChatModel {
  constructor() {
    super({});
    this.seen = [];
  }
  _llmType() {
    return "scripted";
  }
  bindTools() {
    return this;
  }
  async _generate(messages) {
    this.seen.push(messages);
    const n = this.seen.length - 1;
    const message = n < TURNS
      ? new AIMessage({ content: "", tool_calls: [{ id: `call_${n}`, name: "readFile", args: { path: `src/m${n}.rs` } }] })
      : new AIMessage(ANSWER);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

const readFile = tool(
  async ({ path }) => Array.from({ length: 40 }, (_, n) => `${path}:${n}: let value_${n} = compute(${n});`).join("\n"),
  { name: "readFile", description: "Reads a file of the repository.", schema: z.object({ path: z.string() }) },
);

function check(model, state) {
  assert.equal(state.messages.at(-1).content, ANSWER);
  assert.equal(model.seen.length, TURNS + 1);
  for (const shown of model.seen) {
    const calls = new Set(shown.filter((m) => AIMessage.isInstance(m)).flatMap((m) => m.tool_calls.map((c) => c.id)));
    const results = new Set(shown.filter((m) => ToolMessage.isInstance(m)).map((m) => m.tool_call_id));
    assert.deepEqual(calls, results, "every tool call beside its result");
    assert.ok(shown.some((m) => HumanMessage.isInstance(m) && m.content === TASK), "the task in every call");
  }
  assert.ok(model.seen.at(-1).some((m) => String(m.content).includes(SUMMARY)), "the summary in the last call");
  assert.ok(state.messages.length < 2 * TURNS, "the state holds the compacted conversation");
}

test("the README's LangChain.js example compacts the agent's state", { timeout: 120_000 }, async () => {
  const model = new ScriptedModel();
  const requests = [];
  const summarize = async (request) => {
    requests.push(request);
    return SUMMARY;
  };
  const { compaction, state } = await runReadmeExample(
    "@compactor-rs/compactor/langchain",
    { model, summarize, readFile, task: TASK },
    ["compaction", "state"],
  );
  check(model, state);
  assert.ok(requests.length > 0);
  assert.ok(compaction.lastResult.report.messagesAfter <= 50);
});

test("a small window: tokens fire, cleared tool results keep their ids", { timeout: 120_000 }, async () => {
  const model = new ScriptedModel();
  const compactor = new Compactor({ model: "gpt-4o", maxContextTokens: 6000, outputReserve: 1000 });
  const compaction = compactorMiddleware(compactor, { summarize: async () => SUMMARY });
  const agent = createAgent({ model, tools: [readFile], middleware: [compaction] });
  const state = await agent.invoke({ messages: [new HumanMessage(TASK)] }, { recursionLimit: 200 });
  check(model, state);
  for (const shown of model.seen) {
    assert.ok(compactor.assess(shown.map((m, i) => toOpenAI(m, i)), { lenient: true }).totalTokens <= 5000);
  }
});

test("messages the engine left alone come back as the same objects", () => {
  const messages = [
    new HumanMessage({ content: "hi", id: "h1" }),
    new AIMessage({ content: "", id: "a1", tool_calls: [{ id: "c1", name: "readFile", args: { path: "x" } }] }),
    new ToolMessage({ content: "out", tool_call_id: "c1", id: "t1" }),
  ];
  const sent = messages.map(toOpenAI);
  const back = fromOpenAI(sent, messages, sent);
  assert.ok(back.every((m, i) => m === messages[i]));
  const changed = sent.map((m, i) => (i === 2 ? { ...m, content: "[cleared]" } : m));
  const rewritten = fromOpenAI(changed, messages, sent);
  assert.ok(ToolMessage.isInstance(rewritten[2]) && rewritten[2].content === "[cleared]");
  assert.equal(rewritten[2].tool_call_id, "c1");
  assert.equal(rewritten[2].id, "t1");
});
