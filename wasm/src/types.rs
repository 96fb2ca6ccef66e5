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
  | "SUMMARY_FAILED"
  | "PERSIST_FAILED"
  | "INTERNAL";

/**
 * What every method throws, and every Promise rejects with: a plain `Error` with a stable
 * `code`. Whatever the code, the caller's conversation and store are unchanged.
 */
export interface CompactorError extends Error {
  name: "CompactorError";
  code: ErrorCode;
  /** Where the bad input is (`messages[3].role`, `config.maxContextTokens`); set for `INVALID_INPUT`. */
  path?: string;
  /** `CONTEXT_OVERFLOW`: tokens left after compacting everything compactable. */
  tokens?: number;
  /** `CONTEXT_OVERFLOW`: the absolute limit. */
  limit?: number;
  /** `CONTEXT_OVERFLOW`: the messages that remain, largest first: remove or shorten them. */
  offenders?: Offender[];
  /** `CIRCUIT_OPEN`: the session. */
  session?: string;
  /** `CIRCUIT_OPEN`: failed runs counted. */
  failures?: number;
  /** `SUMMARY_FAILED`: the level whose summary failed. */
  level?: Level;
  /** `SUMMARY_FAILED`: why. */
  failure?: SummaryFailure;
  /** `CONFLICT`: the version read. */
  expected?: unknown;
  /** `CONFLICT`: the version the store holds now. */
  found?: unknown;
  /** `ABORTED`: the signal's reason; `PERSIST_FAILED`: what the store threw. */
  cause?: unknown;
}

/** A message left over an overflow, with its tokens. */
export interface Offender {
  id: string;
  tokens: number;
}

/** Tokenizers by name. `estimate` needs no vocabulary and errs high. */
export type EncodingName = "o200k_base" | "cl100k_base" | "estimate";

/** The encodings with a vocabulary, which `loadEncoding` can load from a `.tiktoken` file. */
export type VocabularyName = Exclude<EncodingName, "estimate">;

/** How to read the messages of one call. */
export interface ReadOptions {
  /** Default: the format `detectFormat` names (OpenAI Chat when nothing decides it). */
  format?: MessageFormat;
  /** Keep unknown roles and content parts as pinned, opaque messages instead of throwing. */
  lenient?: boolean;
}

/** What the caller keeps out of compaction, for messages it cannot mark itself. */
export interface Pins {
  /**
   * Indices of messages (in the messages array as given) kept verbatim at every level. An
   * index past the end throws (or rejects) `INVALID_INPUT` at `options.pin`.
   */
  pin?: readonly number[];
  /**
   * `false`: the whole conversation opts out. It is assessed, never rewritten: a run is
   * skipped (`notCompactable`) within the absolute limit and rejects with
   * `CONTEXT_OVERFLOW`, naming the largest messages, over it. Default `true`.
   */
  compactable?: boolean;
}

/** The options of `plan` and `session`: how to read the messages, and what is pinned. */
export interface PinOptions extends ReadOptions, Pins {}

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

/**
 * What a segment holds: `raw` (older than the tail, untouched), `tail`, `pinned` (nothing
 * in it may be compacted), `masked` (tool results cleared, or the last one clipped, by
 * LIGHT), `summarized` (holds a summary the engine wrote).
 */
export type SegmentState = "raw" | "tail" | "pinned" | "masked" | "summarized";

/** A summary message in a planned conversation. */
export interface SummaryAt {
  /** Its index in the conversation. */
  message: number;
  /** The level that wrote it. */
  level: Level;
  /** The ids of the first and last original messages it stands for (one id when it covers one). */
  covers: string[];
}

/** `compactor.plan(messages)`. */
export interface Plan {
  assessment: Assessment;
  segmentation: Segmentation;
  tail: Tail;
  /** The state of each segment, by `Segment.index`. */
  segmentStates: SegmentState[];
  /** The summaries the conversation holds, in order. */
  summaries: SummaryAt[];
}

/** The factor learned from provider-reported usage. */
export interface Calibration {
  factor: number;
  observations: number;
}

/** The ladder, lightest first. */
export type Level = "light" | "moderate" | "aggressive" | "maximum";

/** Why a run was started. */
export type Trigger =
  /** Before a model call: compacts only when a limit is crossed (the default). */
  | "proactive"
  /** The provider refused the request as too long: compacts even if the count says it fits. */
  | "reactive"
  /** Asked for: compacts towards the target whatever the signals. */
  | "manual";

/** One message of a summary prompt. */
export interface PromptMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
}

/** A summary to write: send `prompt` to a model, answer with the text. Plain data. */
export interface SummaryRequest {
  /** Unique within the run. */
  id: number;
  level: Level;
  /** A system instruction and the fenced transcript. */
  prompt: PromptMessage[];
  /** The longest answer wanted; much longer answers are refused. */
  maxOutputTokens: number;
  /** Ids of the messages the summary will stand for. */
  covers: string[];
  /** Turns since the newest covered message. */
  age: number;
  /** `summaryModel` from the config, else the conversation's model. */
  model: string | null;
  provider: string | null;
  /** 1 first; higher after an "input too long" answer, with a smaller input. */
  attempt: number;
  /** Past this time (`Date.now()`) the answer is ignored and the request counts as failed. */
  deadlineMs: number;
  /** Tokens of the prompt. */
  inputTokens: number;
  /**
   * The same request as a continuation of the conversation, when it can be one: send the
   * conversation's first `continuation.messages` messages exactly as your agent sends them
   * (same system prompt, same tools and `tool_choice`), then `continuation.instruction` as
   * a user message. The provider reads those messages from its prompt cache, which the
   * agent's last call wrote: a tenth of a fresh transcript's price. Offered when the
   * summary model is the conversation's, for the first attempt of a summary in one piece
   * that fits the window beside its answer.
   */
  continuation?: Continuation;
}

/** A summary request as a continuation of the conversation (`SummaryRequest.continuation`). */
export interface Continuation {
  /**
   * How many of the conversation's messages to send first. A top-level system prompt
   * (Anthropic's `system`, Gemini's `systemInstruction`, the Responses API's
   * `instructions`) counts as the first; every other message or item is one.
   */
  messages: number;
  /** Their tokens. */
  prefixTokens: number;
  /** The user message that follows them: what to summarize, and how. */
  instruction: string;
  /** Its tokens. */
  instructionTokens: number;
}

/** The second argument of `summarize`. */
export interface SummarizeContext {
  /** The `signal` of the call's options: pass it on to the model's client. */
  signal?: AbortSignal;
}

/** Answers a summary request that is too long for the model: it is retried with less. */
export interface InputTooLong {
  inputTooLong: true;
}

/**
 * Writes one summary. Resolve with the text. To ask for a smaller input, resolve with
 * `{ inputTooLong: true }` or reject with an error whose `code` is `"INPUT_TOO_LONG"`.
 * Any other rejection, or a value that is not a string, is a failed summary: below
 * MAXIMUM the run keeps those messages as they were; at MAXIMUM the run rejects with
 * `SUMMARY_FAILED`. All of a level's requests are asked at once (up to `maxConcurrency`).
 */
export type SummarizeFn = (
  request: SummaryRequest,
  context: SummarizeContext,
) => Promise<string | InputTooLong> | string | InputTooLong;

/** The options of `compactSession` (`pin` counts in the stored messages as loaded). */
export interface SessionOptions extends Pins {
  summarize: SummarizeFn;
  /** Aborting stops the run at once: pending summaries are ignored, nothing is applied or
   * written, and the Promise rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** Every engine event, as it happens. What it throws rejects the run. */
  onEvent?: (event: CompactionEvent) => void;
  /** Default: detected from the messages, as `detectFormat` does; the result comes back in the same format. */
  format?: MessageFormat;
  /** Keep unknown roles and content parts as pinned, opaque messages instead of rejecting. */
  lenient?: boolean;
  /** Default `"proactive"`. */
  trigger?: Trigger;
}

/** The options of `compact`. */
export interface CompactOptions extends SessionOptions {
  /** Circuit breaker, idempotency and `tokenCountHint` are per session (default `"default"`). */
  sessionId?: string;
}

/** Why a run was skipped. */
export type SkipReason = "belowTrigger" | "tooFewMessages" | "notCompactable";

/** What a run did. */
export type Status =
  /** Nothing to do: the messages are the input. */
  | { kind: "skipped"; reason: SkipReason }
  /** The input is this session's latest result: returned as it is. */
  | { kind: "noOp" }
  /** Compacted; `targetMet` says whether the target was reached. */
  | { kind: "compacted"; targetMet: boolean }
  /** No level could cut `minReduction` of the tokens: the input is returned unchanged.
   * Never for a `"reactive"` run: it comes back smaller, or rejects. */
  | { kind: "noProgress" };

/** One level's part in a run. */
export interface LevelReport {
  level: Level;
  tokensBefore: number;
  tokensAfter: number;
  /** Requests issued, retries included. */
  requests: number;
  cacheHits: number;
  failures: number;
}

/** What a run did, in numbers. */
export interface Report {
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  targetTokens: number;
  /** The levels walked, in order. */
  levels: LevelReport[];
  requests: number;
  cacheHits: number;
  failures: number;
  /** Prompt tokens handed to the summarizer in all. */
  summaryInputTokens: number;
  /** The idempotency key of the result, when it holds a summary. */
  key: string | null;
  /** The built-in extractive summarizer answered some or all requests, not yours (an open circuit, or a failed MAXIMUM). */
  extractiveFallback: boolean;
  /** The loss receipt: the input's facts (system messages excluded) absent from the result; all zero when the messages are the input. */
  lostFacts: LostFacts;
}

/** A kind of fact: a file path, a number of 3+ digits, an error line, a command run, a URL, an «artifact» reference, a qualified identifier. */
export type FactKind = "path" | "number" | "error" | "command" | "url" | "artifact" | "identifier";

/** What a run dropped, in facts. */
export interface LostFacts {
  /** Distinct facts of the input. */
  before: number;
  /** Of those, the ones absent from the result. */
  lost: number;
  /** Per kind the input has. */
  kinds: { kind: FactKind; before: number; lost: number; /** The first lost ones (at most 5). */ examples: string[] }[];
}

/** `compact` resolves to this. */
export interface CompactResult {
  /** The conversation to use from now on, in the format it came in; messages the run did not rewrite are the input's, unchanged. */
  messages: Conversation;
  report: Report;
  status: Status;
}

/** `compactSession` resolves to this: what was written (or, when nothing was, what was read). */
export interface SessionResult extends CompactResult {
  /** Messages appended to the store while the run worked, written after its result. */
  rebased: number;
  /** Saves the store refused because it had moved on, each resolved by a rebase. */
  conflicts: number;
}

/** A rule of its format a conversation breaks (`checkFormat`); `index` counts from the
 * first message (for Anthropic, the system prompt is index 0 when present). */
export interface FormatViolation {
  index: number;
  rule:
    | "unanswered_tool_call"
    | "orphan_tool_result"
    | "misplaced_tool_result"
    | "misplaced_tool_call"
    | "misplaced_system"
    | "first_message_not_user"
    | "roles_do_not_alternate"
    | "thinking_separated";
  detail: string;
}

/** A summarizer's failure, or why its answer was refused. */
export type SummaryFailure =
  | { kind: "inputTooLong" }
  | { kind: "timeout" }
  | { kind: "empty" }
  | { kind: "tooLong"; tokens: number; limit: number }
  | { kind: "failed"; message: string };

/**
 * The engine's memory as plain, JSON-safe data (`exportState()`): each session's breaker and
 * latest result, and the summary cache, least recently used first. Store it beside the
 * session and `importState` it in another worker. Format `version` 1.
 */
export interface EngineState {
  version: number;
  sessions: {
    id: string;
    failures: number;
    openedAtMs: number | null;
    lastTokens: number | null;
    latest: { key: string; hashes: string[] } | null;
  }[];
  cache: { key: string; summary: string }[];
}

/** Everything a run reports to `onEvent`, in order: `assessed` first, `finished` last
 * (unless the run fails), each `levelEntered` followed by its `levelLeft`. */
export type CompactionEvent =
  | { type: "assessed"; tokens: number; messages: number; signals: Signals; target: Target; trigger: Trigger }
  | { type: "reactiveOverride"; counted: number; absoluteLimit: number }
  | { type: "levelEntered"; level: Level; tokens: number }
  | { type: "levelSkipped"; level: Level; predicted: number }
  | { type: "levelLeft"; level: Level; tokensBefore: number; tokensAfter: number }
  | { type: "requestIssued"; id: number; level: Level; covers: number; inputTokens: number; attempt: number }
  | { type: "requestAnswered"; id: number; tokens: number }
  | { type: "emptyAnswer"; id: number }
  | { type: "requestFailed"; id: number; reason: string }
  | { type: "cacheHit"; level: Level; covers: number }
  | { type: "fallbackTaken"; level: Level; kept: number; reason: string }
  | { type: "artifactRefsRestored"; id: number; refs: string[] }
  | { type: "extractiveFallback"; level: Level | null; reason: string }
  | { type: "circuitOpened"; session: string; failures: number }
  | { type: "finished"; status: Status; tokensBefore: number; tokensAfter: number };

/** A stored session: its messages (any format) and an opaque version. */
export interface StoredSession<V = unknown> {
  messages: Conversation;
  version: V;
}

/**
 * Where `compactSession` reads and writes conversations: a KV with compare-and-set, a SQL
 * row, a Durable Object. Either method may return a Promise; what they throw rejects with
 * `PERSIST_FAILED`.
 */
export interface SessionStore<V = unknown> {
  /** The session, or `null` when there is none. */
  load(sessionId: string): StoredSession<V> | null | Promise<StoredSession<V> | null>;
  /**
   * Writes `messages` only if the stored version is still `expectedVersion`: `true` when
   * written, else `{ conflict: foundVersion }` with nothing written.
   */
  save(
    sessionId: string,
    messages: Conversation,
    expectedVersion: V,
  ): true | { conflict: V } | Promise<true | { conflict: V }>;
}
/** `session.assess()`: `Assessment` without the per-message list (`session.plan()` has it). */
export type SessionAssessment = Omit<Assessment, "messages">;

/** The options of `session.compact`: `compact`'s, but format, id and pins are the
 * session's (set when it is created, or by `session.pin`). */
export type SessionCompactOptions = Omit<SessionOptions, "format" | "lenient" | "pin" | "compactable">;

/** What a session's last compaction changed, as a splice of its messages array before it:
 * `array.splice(start, deleteCount, ...insert)` brings a copy up to date. */
export interface SessionChanges {
  start: number;
  deleteCount: number;
  /** The messages that take the removed ones' place, in the session's format. */
  insert: object[];
}

/** `session.compact` resolves to this; `session.messages` has the messages. */
export interface SessionCompactResult {
  report: Report;
  status: Status;
  changes: SessionChanges;
}

/** `append(...messages)`: the new messages as arguments (see `appendAll`). */
export interface Session {
  append(...messages: object[]): void;
}
"#;
