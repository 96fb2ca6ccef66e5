//! The TypeScript types of every input and output. Kept by hand next to the serde shapes
//! of the core's types (camelCase fields, `null` for absent values); `tests/ts/api.ts`
//! type-checks a program using all of them.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Stable codes of a `CompactorError`; only ever added to. */
export type ErrorCode =
  | "INVALID_INPUT"
  | "CONTEXT_OVERFLOW"
  | "CIRCUIT_OPEN"
  | "CONFLICT"
  | "ABORTED"
  | "SUMMARY_FAILED";

/** What every method throws: a plain `Error` with a stable `code`. */
export interface CompactorError extends Error {
  name: "CompactorError";
  code: ErrorCode;
  /** Where the bad input is (`messages[3].role`, `config.maxContextTokens`); set for `INVALID_INPUT`. */
  path?: string;
}

/** Tokenizers by name. `estimate` needs no vocabulary and errs high. */
export type EncodingName = "o200k_base" | "cl100k_base" | "estimate";

/** Message formats. `anthropic` and `aiSdk` are refused until their adapters ship. */
export type MessageFormat = "openai" | "anthropic" | "aiSdk";

/** `new Compactor(config)`. Every number left out comes from the model catalog, else a default. */
export interface CompactorConfig {
  /** A catalog model (`gpt-4o`, `claude-sonnet-4-5`, …); unknown models need `maxContextTokens`. */
  model?: string;
  /** The model's hard window. */
  maxContextTokens?: number;
  /** Tokens kept free for the answer (default: the model's max output, else 4096). */
  outputReserve?: number;
  /** Size past which answers degrade (default 128,000). */
  comfortTokens?: number;
  /** Compaction starts above this share of the limit (default 0.92). */
  triggerRatio?: number;
  /** A run stops at or below this share (default 0.75). */
  targetRatio?: number;
  /** The message-count signal (default 50); `null` turns it off. */
  maxMessages?: number | null;
  /** Recent turns kept raw (default 4). */
  keepRecentTurns?: number;
  /** Overrides the model's tokenizer. */
  encoding?: EncodingName;
}

/** How to read the messages of one call. */
export interface ReadOptions {
  /** Default `"openai"`. */
  format?: MessageFormat;
  /** Keep unknown roles and content parts as pinned, opaque messages instead of throwing. */
  lenient?: boolean;
}

/** An OpenAI Chat Completions content part. */
export type OpenAIContentPart =
  | { type: "text"; text: string; [extra: string]: unknown }
  | { type: "refusal"; refusal: string; [extra: string]: unknown }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" }; [extra: string]: unknown }
  | { type: "input_audio"; input_audio: { data: string; format: string }; [extra: string]: unknown }
  | { type: "file"; file: { file_data?: string; file_id?: string; filename?: string }; [extra: string]: unknown };

/** An OpenAI Chat Completions tool call. */
export interface OpenAIToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments?: string };
  [extra: string]: unknown;
}

/** An OpenAI Chat Completions message; unknown fields are carried through untouched. */
export interface OpenAIMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | null | OpenAIContentPart[];
  name?: string;
  refusal?: string | null;
  tool_calls?: OpenAIToolCall[];
  tool_call_id?: string;
  [extra: string]: unknown;
}

/**
 * The caller's conversation in the format the options name: an array of messages, or a
 * request body with `messages`. Checked at run time; bad input throws `INVALID_INPUT`.
 */
export type Conversation = readonly object[] | { readonly messages: readonly object[]; [extra: string]: unknown };

/** The resolved numbers. */
export interface Budget {
  /** The catalog entry's name, or the name given for an unknown model. */
  model: string | null;
  maxContextTokens: number;
  outputReserve: number;
  comfortTokens: number;
  /** `min(comfortTokens, maxContextTokens)`. */
  effectiveLimit: number;
  triggerRatio: number;
  targetRatio: number;
  /** Compaction starts above this many tokens. */
  triggerTokens: number;
  /** A run stops at or below this many tokens. */
  targetTokens: number;
  /** `maxContextTokens − outputReserve`: only exceeding this is an overflow. */
  absoluteLimit: number;
  maxMessages: number | null;
  /** With the message signal on, a run also stops at or below this many messages. */
  targetMessages: number | null;
  encoding: EncodingName;
}

/** Which limits a conversation crosses. */
export interface Signals {
  overTrigger: boolean;
  overMaxMessages: boolean;
  /** The provider would refuse the request. */
  overAbsoluteLimit: boolean;
}

/** Where a run must bring the conversation. */
export interface Target {
  tokens: number;
  /** Set only when the message-count signal fired. */
  messages: number | null;
}

/** One message's tokens, framing included. */
export interface MessageTokens {
  /** Content-derived id: the same message keeps it across turns. */
  id: string;
  tokens: number;
}

/** `compactor.assess(messages)`. Compaction is needed when any signal fired. */
export interface Assessment {
  /** Tokens of the whole request (messages plus reply priming). */
  totalTokens: number;
  messageCount: number;
  budget: Budget;
  signals: Signals;
  target: Target;
  /** Each message's tokens, in order. */
  messages: MessageTokens[];
}

/** Indices `start` (inclusive) to `end` (exclusive). */
export interface IndexRange {
  start: number;
  end: number;
}

export type UnitKind = "single" | "tool_exchange" | "pending_calls";

/** What can never be split: one message, or tool calls with all their results. */
export interface Unit {
  messages: IndexRange;
  kind: UnitKind;
}

export type SegmentKind = "preamble" | "exchange" | "open";

/** The messages between assistant responses. */
export interface Segment {
  index: number;
  messages: IndexRange;
  /** Indices into `Segmentation.units`. */
  units: IndexRange;
  kind: SegmentKind;
  /** How many turns came after it (0 for the newest). */
  age: number;
}

export interface Segmentation {
  units: Unit[];
  segments: Segment[];
}

/** The raw tail the model keeps seeing. */
export interface Tail {
  /** The first message of the tail; the message count when it is empty. */
  start: number;
  firstSegment: number;
  turns: number;
  tokens: number;
  /** Fewer turns than asked for, because of the tail's token cap. */
  capped: boolean;
}

/** `compactor.plan(messages)`. */
export interface Plan {
  assessment: Assessment;
  segmentation: Segmentation;
  tail: Tail;
}

/** The factor learned from provider-reported usage. */
export interface Calibration {
  factor: number;
  observations: number;
}
"#;
