import type { CompactResult, Compactor, SummarizeFn } from "./compactor.js";

/** Options of a `CompactorProcessor`. */
export interface CompactorProcessorOptions {
    /** Writes a summary with your model (`request.prompt`: the messages to send it). */
    summarize: SummarizeFn;
    /** Keys the circuit breaker and the summary cache (default `"mastra"`). */
    sessionId?: string;
    /** Called with each check's result. */
    onResult?: (result: CompactResult) => void;
}

/**
 * A Mastra processor (`new Agent({ inputProcessors: [processor] })`) compacting the prompt
 * of every model call, tool-call continuations included, when it crosses a limit; tool
 * calls stay with their results. Mastra's memory keeps the thread whole.
 */
export declare class CompactorProcessor {
    constructor(compactor: Compactor, options: CompactorProcessorOptions);
    readonly id: "compactor";
    readonly name: "compactor";
    readonly compactor: Compactor;
    /** The latest check's result; `undefined` before the first. */
    lastResult: CompactResult | undefined;
    processLLMRequest(args: { prompt: unknown[]; abortSignal?: AbortSignal }): Promise<{ prompt: unknown[] } | undefined>;
}
