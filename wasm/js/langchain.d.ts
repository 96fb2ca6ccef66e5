import type { CompactResult, Compactor, SummarizeFn } from "./compactor.js";

/** Options of `compactorMiddleware`. */
export interface CompactorMiddlewareOptions {
    /** Writes a summary with your model (`request.prompt`: the messages to send it). */
    summarize: SummarizeFn;
    /** Keys the circuit breaker and the summary cache (default `"langchain"`). */
    sessionId?: string;
    /** Called with each check's result. */
    onResult?: (result: CompactResult) => void;
}

/**
 * A LangChain.js 1.x middleware (`createAgent({ model, tools, middleware: [m] })`) that
 * compacts the agent's messages before each model call when they cross a limit, and
 * replaces the state's messages with the result; tool calls stay with their results.
 * `lastResult` holds the latest check's result.
 */
export declare function compactorMiddleware(
    compactor: Compactor,
    options: CompactorMiddlewareOptions,
): { name: "compactor"; lastResult: CompactResult | undefined; [hook: string]: unknown };
