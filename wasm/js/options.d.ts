// Written from the host layer's tables (compactor::wire): do not edit.

/**
 * Message formats: OpenAI Chat Completions, Anthropic Messages (a body with `system`, or
 * an array of messages), Vercel AI SDK `ModelMessage`s (and AI SDK 4 `CoreMessage`s),
 * OpenAI Responses input items (an array, or a body with `input` and `instructions`) and
 * Gemini `contents` (an array, or a body with `contents` and `systemInstruction`).
 */
export type MessageFormat = "openai" | "anthropic" | "aiSdk" | "openaiResponses" | "gemini";

/** `new Compactor(config)`. Every number left out comes from the model catalog, else a default. */
export interface CompactorConfig {
  /** A catalog model (`gpt-4o`, `claude-sonnet-4-5`, …); unknown models need `maxContextTokens`. */
  model?: string;
  /** The model's hard window, more than `outputReserve` (default: the catalog's). */
  maxContextTokens?: number;
  /** Tokens kept free for the answer (default: the model's max output, else 4096). */
  outputReserve?: number;
  /** Size past which answers degrade (default 128,000). */
  comfortTokens?: number;
  /** Compaction starts above this share of the limit, above `targetRatio` and at most 1 (default 0.92). Left unset, a session under its cost-aware policy makes the cuts after its first where they cost least, when that comes earlier. */
  triggerRatio?: number;
  /** A run stops at or below this share of the limit, above 0 and below `triggerRatio` (default 0.75). Left unset, a session cuts as deep as its cost-aware policy finds cheapest. */
  targetRatio?: number;
  /** The message-count signal (default 50; at least 2). 0 or `null` turns it off. */
  maxMessages?: number | null;
  /** LIGHT and MODERATE keep at least this many recent turns raw, and more while they fit in `tailTokens` (default 4; 1 to 1000000). */
  keepRecentTurns?: number;
  /** The raw tail's size: the newest turns up to this many tokens (default: half the run's target). */
  tailTokens?: number;
  /** LIGHT never clears the newest this many tool results (default 3; 0 to 1000000). */
  keepToolResults?: number;
  /** Overrides the model's tokenizer: `o200k_base`, `cl100k_base` or `estimate`. */
  encoding?: EncodingName;
  /** The fewest turns AGGRESSIVE keeps raw; it keeps more while the target leaves room (default 1; 1 to 1000000). */
  minTailTurns?: number;
  /** The largest summary asked for, in tokens: a ceiling, since each request asks for the room its plan leaves it (default 16000; at least 64). */
  maxSummaryTokens?: number;
  /** Handed to the summarizer in every request as `model` (default: `model`). */
  summaryModel?: string;
  /** Handed to the summarizer in every request as `provider`. */
  summaryProvider?: string;
  /** Keep earlier summaries and summarize only what came since (default true). */
  enableIncremental?: boolean;
  /** Failed runs before a session's circuit opens (default 3; at least 1). */
  maxFailures?: number;
  /** An open circuit closes by itself after this long; unset, only resetting the circuit closes it. */
  breakerCooldownMs?: number;
  /** Below this many messages a run is skipped (default 4; 0 to 1000000). */
  minMessages?: number;
  /** LIGHT clears at least this many tokens or nothing (default 1000). */
  clearAtLeast?: number;
  /** MODERATE keeps old user messages verbatim up to this many tokens (default 2000). */
  maxPreservedUserTokens?: number;
  /** The summarizer's input window: larger inputs are map-reduced (default 64000; at least 256). */
  summarizerInputTokens?: number;
  /** A request unanswered this long, in milliseconds, counts as failed (default 360000; at least 1). */
  requestTimeoutMs?: number;
  /** Attempts per request when the summarizer answers that the input is too long (default 3; 1 to 16). */
  maxAttempts?: number;
  /** A run that cannot cut this share of the tokens reports `noProgress` (default 0.05; 0 to 1). */
  minReduction?: number;
  /** Summary requests in flight at once: the summarizer is never asked for more at once (default 8; 1 to 1000000). */
  maxConcurrency?: number;
  /** Summaries the cache keeps (shared by cloned handles); the least recently used go first (default 1024; 0 to 1000000). */
  cacheCapacity?: number;
  /** Sessions whose breaker and latest result the handle remembers; the least recently used go first (default 1024; 1 to 1000000). */
  sessionCapacity?: number;
  /** When a session's circuit is open, or a MAXIMUM summary fails, compact with the built-in offline extractive summarizer instead of failing; the report's `extractiveFallback` and an `extractiveFallback` event say so (default false). */
  extractiveFallback?: boolean;
  /** Hand tool outputs to the running summary's summarizer whole; by default it reads each as its fact-keeping placeholder, and the summary's artifact trail keeps the output's facts. Set it when the outputs are the information (web pages, documents) (default false). */
  summarizeOutputs?: boolean;
  /** What every summary should focus on, added to each summary prompt apart from the transcript; part of the summary cache key (1 to 2000 characters, not blank). */
  instructions?: string;
  /** A cached prompt token's price, relative to uncached input: the session's default policy weighs it (default 0.1; at least 0). */
  cachedPrice?: number;
  /** A prompt token written past the cached prefix, in place of the uncached price (default 1; at least 0). */
  cacheWritePrice?: number;
  /** A summary token's price, relative to uncached input (default 4; at least 0). */
  outputPrice?: number;
}
