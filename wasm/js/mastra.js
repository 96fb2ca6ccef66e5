// Mastra: a processor that keeps each model call of an agent inside the model's context
// window. Plain JS, no dependency: Mastra takes any object with an `id` and the hooks it
// implements.
//
// At every step of the agent loop (tool-call continuations included), Mastra hands
// `processLLMRequest` the prompt it is about to send, in the AI SDK's language-model
// format, which the engine reads as it is; when it crosses a limit the processor returns
// the compacted prompt. Mastra keeps the thread's messages whole in memory (the hook's
// changes are not written back): each old turn is summarized once, then the summary
// cache answers.

/** Compacts each model call's prompt with `compactor`; see mastra.d.ts. */
export class CompactorProcessor {
  /** `compactor`: a Compactor; `options`: `{ summarize, sessionId?, onResult? }`. */
  constructor(compactor, options) {
    if (!compactor || typeof compactor.compact !== "function") {
      throw new TypeError("CompactorProcessor: the first argument must be a Compactor");
    }
    if (!options || typeof options.summarize !== "function") {
      throw new TypeError("CompactorProcessor: options.summarize must be a function");
    }
    this.id = "compactor";
    this.name = "compactor";
    this.compactor = compactor;
    this.summarize = options.summarize;
    this.sessionId = options.sessionId ?? "mastra";
    this.onResult = options.onResult;
    /** The latest check's result (`status`, `report`); `undefined` before the first. */
    this.lastResult = undefined;
  }

  async processLLMRequest({ prompt, abortSignal }) {
    const result = await this.compactor.compact(prompt, {
      summarize: this.summarize,
      format: "aiSdk",
      sessionId: this.sessionId,
      signal: abortSignal,
    });
    this.lastResult = result;
    this.onResult?.(result);
    return result.status.kind === "compacted" ? { prompt: result.messages.map(asPromptMessage) } : undefined;
  }
}

/** A language-model prompt message's user and assistant content is a list of parts; the
 * engine writes a summary (an AI SDK ModelMessage) with text content. */
function asPromptMessage(message) {
  return (message.role === "user" || message.role === "assistant") && typeof message.content === "string"
    ? { ...message, content: [{ type: "text", text: message.content }] }
    : message;
}
