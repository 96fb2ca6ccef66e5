// LangChain.js 1.x: a middleware for `createAgent` that keeps the agent's messages inside
// the model's context window. Needs `langchain` (its `createMiddleware`, and
// `@langchain/core` and `@langchain/langgraph` it depends on).
//
// Before each model call the state's messages cross as OpenAI Chat messages, each tagged
// with its index; when they cross a limit the state is replaced by the compacted
// conversation: a message the engine did not rewrite is the very object that went in, one
// it rewrote (a cleared tool result, a clipped message) a copy with the new text, a
// summary a HumanMessage. Tool calls stay with their results.
import { createMiddleware } from "langchain";
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES } from "@langchain/langgraph";

const TAG = "x_compactor_index";

/** Content (a string or content blocks) as text. */
const textOf = (content) =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part === "string" ? part : part?.text ?? "")).join("")
      : content == null ? "" : String(content);

/** A LangChain message as an OpenAI Chat message, carrying its index. */
export function toOpenAI(message, index) {
  const type = message.getType?.() ?? message._getType?.() ?? message.type;
  const content = textOf(message.content);
  switch (type) {
    case "system":
      return { role: "system", content, [TAG]: index };
    case "ai": {
      const calls = (message.tool_calls ?? []).map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
      }));
      return calls.length
        ? { role: "assistant", content: content || null, tool_calls: calls, [TAG]: index }
        : { role: "assistant", content, [TAG]: index };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content, [TAG]: index };
    case "human":
      return { role: "user", content, [TAG]: index };
    default:
      // A message the engine has no reading for: kept whole and pinned (lenient reading).
      return { role: `langchain:${type}`, content, [TAG]: index };
  }
}

/** `message` with new text, everything else kept. */
function rewritten(message, content) {
  const fields = { content, id: message.id, name: message.name, additional_kwargs: message.additional_kwargs, response_metadata: message.response_metadata };
  switch (message.getType?.() ?? message._getType?.()) {
    case "ai":
      return new AIMessage({ ...fields, tool_calls: message.tool_calls, usage_metadata: message.usage_metadata });
    case "tool":
      return new ToolMessage({ ...fields, tool_call_id: message.tool_call_id, artifact: message.artifact, status: message.status });
    case "system":
      return new SystemMessage(fields);
    default:
      return new HumanMessage(fields);
  }
}

/** The engine's messages as LangChain messages, traced back to `originals` by their tag. */
export function fromOpenAI(result, originals, sent) {
  return result.map((item) => {
    const index = item[TAG];
    if (!Number.isInteger(index) || index < 0 || index >= originals.length) {
      return new HumanMessage(textOf(item.content));
    }
    return JSON.stringify(item) === JSON.stringify(sent[index]) ? originals[index] : rewritten(originals[index], textOf(item.content));
  });
}

/** A middleware compacting the agent's messages before each model call; see langchain.d.ts. */
export function compactorMiddleware(compactor, options) {
  if (!compactor || typeof compactor.compact !== "function") {
    throw new TypeError("compactorMiddleware: the first argument must be a Compactor");
  }
  if (!options || typeof options.summarize !== "function") {
    throw new TypeError("compactorMiddleware: options.summarize must be a function");
  }
  const { summarize, sessionId = "langchain", onResult } = options;
  const middleware = createMiddleware({
    name: "compactor",
    beforeModel: async (state) => {
      const messages = state.messages;
      const sent = messages.map(toOpenAI);
      const result = await compactor.compact(sent, { summarize, format: "openai", lenient: true, sessionId });
      middleware.lastResult = result;
      onResult?.(result);
      if (result.status.kind !== "compacted") return undefined;
      return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...fromOpenAI(result.messages, messages, sent)] };
    },
  });
  middleware.lastResult = undefined;
  return middleware;
}
