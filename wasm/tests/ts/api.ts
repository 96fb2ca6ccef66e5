// Uses the whole API with its declared types; `tsc -p tests/ts` checks it (nothing runs).
import init, {
  Compactor,
  checkFormat,
  countTokens,
  detectFormat,
  errorCodes,
  extractiveSummarize,
  initSync,
  type Assessment,
  type Budget,
  type SegmentState,
  type SummaryAt,
  type Calibration,
  type CompactionEvent,
  type CompactOptions,
  type CompactorConfig,
  type CompactResult,
  type CompactorError,
  type Conversation,
  type EncodingName,
  type ErrorCode,
  type InputTooLong,
  type Level,
  type LevelReport,
  type MessageTokens,
  type Offender,
  type OpenAIMessage,
  type Pins,
  type PinOptions,
  type Plan,
  type ReadOptions,
  type Report,
  type FormatViolation,
  type Segment,
  type SegmentKind,
  type SessionOptions,
  type SessionResult,
  type Session,
  type SessionAssessment,
  type SessionChanges,
  type SessionCompactResult,
  type SessionStore,
  type VocabularyName,
  type Status,
  type StoredSession,
  type SummarizeContext,
  type MessageFormat,
  type SummarizeFn,
  type SummaryFailure,
  type SummaryRequest,
  type Tail,
  type Trigger,
  type Unit,
  type UnitKind,
} from "../../pkg/compactor.js";
import {
  durableObjectStore,
  redisStore,
  type AppendableStore,
  type DurableObjectStorageLike,
  type RedisClientLike,
} from "../../pkg/stores.js";
import { CompactorProcessor } from "../../pkg/mastra.js";
import { compactorMiddleware } from "../../pkg/langchain.js";

declare const doStorage: DurableObjectStorageLike;
declare const nodeRedis: { sendCommand(args: string[]): Promise<unknown> };
declare const ioredis: { call(command: string, ...args: string[]): Promise<unknown>; defineCommand(...args: any[]): unknown };
const clients: RedisClientLike[] = [nodeRedis, ioredis];
void clients;

export async function useEverything(wasm: Uint8Array, module: WebAssembly.Module): Promise<number> {
  await init({ module_or_path: wasm });
  initSync({ module });

  const config: CompactorConfig = {
    model: "gpt-4o",
    maxContextTokens: 128_000,
    outputReserve: 16_384,
    comfortTokens: 100_000,
    triggerRatio: 0.9,
    targetRatio: 0.7,
    maxMessages: null,
    keepRecentTurns: 4,
    encoding: "o200k_base",
  };
  const compactor = new Compactor(config);
  const messages: OpenAIMessage[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "https://x/y.png", detail: "low" } }] },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: "ok", cache_control: { type: "ephemeral" } },
  ];
  const options: ReadOptions = { format: "openai", lenient: true };
  const body: Conversation = { model: "gpt-4o", messages };

  const assessment: Assessment = compactor.assess(messages, options);
  const again: Assessment = compactor.assess(body);
  const budget: Budget = assessment.budget;
  const encoding: EncodingName = budget.encoding;
  const first: MessageTokens | undefined = assessment.messages[0];
  const needsCompaction: boolean =
    assessment.signals.overTrigger || assessment.signals.overMaxMessages || assessment.signals.overAbsoluteLimit;
  const targetMessages: number | null = assessment.target.messages;

  const plan: Plan = compactor.plan(messages);
  const tail: Tail = plan.tail;
  const segments: Segment[] = plan.segmentation.segments;
  const kinds: SegmentKind[] = segments.map((s) => s.kind);
  const units: Unit[] = plan.segmentation.units;
  const unitKinds: UnitKind[] = units.map((u) => u.kind);
  const states: SegmentState[] = plan.segmentStates;
  const summaries: SummaryAt[] = plan.summaries;
  const covered: string[] = summaries.flatMap((s) => s.covers);
  const detected: MessageFormat | null = detectFormat(messages);
  const offline: SummarizeFn = (request: SummaryRequest) => extractiveSummarize(request);

  compactor.calibrate(messages, 1234);
  const calibration: Calibration = compactor.calibration;
  const clone: Compactor = compactor.cloneHandle();
  const memo: number = clone.memoSize;
  const counter: string = clone.counter;
  const resolved: Budget = clone.budget;
  clone.free();

  const codes: ErrorCode[] = errorCodes();
  let code: ErrorCode | undefined;
  try {
    compactor.assess([{ role: "bot" }]);
  } catch (e) {
    const error = e as CompactorError;
    code = error.code;
    const path: string | undefined = error.path;
    void path;
  }

  // @ts-expect-error: unknown config fields are refused by the types too
  new Compactor({ modle: "gpt-4o" });
  // @ts-expect-error: encodings are a closed set
  countTokens("x", "gpt2");

  // Ranks as bytes (`fetch(url).then((r) => r.bytes())`) or as text.
  const vocabulary: VocabularyName = "o200k_base";
  Compactor.loadEncoding(new Uint8Array(await (await fetch("o200k_base.tiktoken")).arrayBuffer()), vocabulary);
  Compactor.loadEncoding("IQ== 0\n", "cl100k_base");
  Compactor.loadEncoding(new Uint8Array());
  // @ts-expect-error: the estimator has no vocabulary to load
  Compactor.loadEncoding("", "estimate");
  // @ts-expect-error: ranks are bytes or text
  Compactor.loadEncoding(42);

  void [again, encoding, first, needsCompaction, targetMessages, tail, kinds, unitKinds, calibration, memo, counter, resolved, codes, code];
  const own: number = compactor.countTokens("hello") + compactor.countTokens("hello", "estimate");
  return own + countTokens("hello", "cl100k_base") + countTokens("hello") + (await compactEverything(compactor, messages));
}

async function compactEverything(compactor: Compactor, messages: OpenAIMessage[]): Promise<number> {
  const runs = new Compactor({
    model: "gpt-4o",
    minTailTurns: 1,
    maxSummaryTokens: 800,
    summaryModel: "gpt-4o-mini",
    summaryProvider: "openai",
    enableIncremental: true,
    maxFailures: 3,
    breakerCooldownMs: 60_000,
    minMessages: 4,
    clearAtLeast: 1000,
    maxPreservedUserTokens: 2000,
    summarizerInputTokens: 64_000,
    requestTimeoutMs: 120_000,
    maxAttempts: 3,
    minReduction: 0.05,
    maxConcurrency: 4,
    extractiveFallback: true,
  });
  const summarize: SummarizeFn = async (request: SummaryRequest, { signal }: SummarizeContext) => {
    const level: Level = request.level;
    const deadline: number = request.deadlineMs;
    const covers: string[] = request.covers;
    const model: string | null = request.model;
    const transcript: string = request.prompt.map((m) => `${m.role}: ${m.content}`).join("\n");
    void [level, deadline, covers, model, signal?.aborted];
    if (request.attempt === 1 && request.inputTokens > 50_000) {
      const tooLong: InputTooLong = { inputTooLong: true };
      return tooLong;
    }
    return transcript.slice(0, request.maxOutputTokens);
  };
  const seen: CompactionEvent[] = [];
  const controller = new AbortController();
  const trigger: Trigger = "proactive";
  const options: CompactOptions = {
    summarize,
    signal: controller.signal,
    onEvent: (event) => {
      seen.push(event);
      switch (event.type) {
        case "assessed": {
          const tokens: number = event.tokens;
          const fired: boolean = event.signals.overTrigger;
          void [tokens, fired];
          break;
        }
        case "levelLeft": {
          const saved: number = event.tokensBefore - event.tokensAfter;
          void saved;
          break;
        }
        case "requestFailed": {
          const reason: string = event.reason;
          void reason;
          break;
        }
        case "finished": {
          const status: Status = event.status;
          void status;
          break;
        }
        default:
          break;
      }
    },
    format: "openai",
    lenient: false,
    sessionId: "chat-1",
    trigger,
  };
  const result: CompactResult = await runs.compact(messages, options);
  const report: Report = result.report;
  const levels: LevelReport[] = report.levels;
  const key: string | null = report.key;
  const fellBack: boolean = report.extractiveFallback;
  if (result.status.kind === "compacted") {
    const met: boolean = result.status.targetMet;
    void met;
  } else if (result.status.kind === "skipped") {
    const reason: "belowTrigger" | "tooFewMessages" | "notCompactable" = result.status.reason;
    void reason;
  }
  await runs.compact(messages, { summarize: () => "- short", format: "aiSdk" });
  await runs.compact(messages, { summarize: async () => "- short" });
  const pins: Pins = { pin: [0, 5] };
  await runs.compact(messages, { summarize, ...pins });
  await runs.compact(messages, { summarize, compactable: false });
  const pinned: PinOptions = { format: "openai", pin: [1] };
  void runs.plan(messages, pinned);
  // @ts-expect-error: pins are message indices
  await runs.compact(messages, { summarize, pin: ["m1"] });

  const sessions = new Map<string, StoredSession<number>>();
  const store: SessionStore<number> = {
    load: async (id) => sessions.get(id) ?? null,
    save: (id, saved, expectedVersion) => {
      const current = sessions.get(id);
      if (current && current.version !== expectedVersion) return { conflict: current.version };
      sessions.set(id, { messages: saved, version: expectedVersion + 1 });
      return true;
    },
  };
  const sessionOptions: SessionOptions = { summarize, signal: AbortSignal.timeout(10_000) };
  try {
    await runs.compactSession(store, "chat-1", sessionOptions);
  } catch (e) {
    const error = e as CompactorError;
    const code: ErrorCode = error.code;
    const offenders: Offender[] | undefined = error.offenders;
    const failure: SummaryFailure | undefined = error.failure;
    const found: unknown = error.found;
    void [code, offenders, failure, found];
  }
  const written: SessionResult = await runs.compactSession(store, "chat-1", { summarize });
  const moved: [number, number] = [written.rebased, written.conflicts];
  const violations: FormatViolation[] = checkFormat(written.messages, { format: "openai" });
  const rule: FormatViolation["rule"] | undefined = violations[0]?.rule;
  void [moved, rule];

  // The stores subpath: a Durable Object's storage, a node-redis or ioredis client.
  const stores: AppendableStore[] = [
    durableObjectStore(doStorage, { compactor: runs }),
    redisStore(nodeRedis, { prefix: "app:" }),
    redisStore(ioredis, { compactor: runs }),
  ];
  for (const kept of stores) {
    const version: number = await kept.append("chat-1", [{ role: "user", content: "hi" }]);
    const loaded = await kept.load("chat-1");
    const state: unknown = loaded?.state;
    await runs.compactSession(kept, "chat-1", { summarize });
    await kept.saveState("chat-1");
    void [version, state];
  }
  // @ts-expect-error: a store needs a storage or a client
  durableObjectStore({});

  // @ts-expect-error: sessionId is compactSession's argument, not an option
  await runs.compactSession(store, "chat-1", { summarize, sessionId: "x" });
  // @ts-expect-error: summarize is required
  await runs.compact(messages, {});
  // @ts-expect-error: summaries are strings
  await runs.compact(messages, { summarize: async () => 42 });

  runs.resetCircuit("chat-1");
  runs.clearCache();
  const cached: number = runs.cacheSize;
  const hint: number | undefined = compactor.cloneHandle().tokenCountHint("chat-1");
  void [levels, key, seen, cached];
  return hint ?? 0;
}

/** The session handle, with its declared types. */
export async function useSession(compactor: Compactor, messages: OpenAIMessage[], summarize: SummarizeFn): Promise<number> {
  const session: Session = compactor.session("chat-1", messages, { format: "openai", lenient: false });
  compactor.session("empty");
  session.append(...messages.slice(0, 2));
  session.append({ role: "user", content: "next" });
  session.appendAll(messages);
  const assessment: SessionAssessment = session.assess();
  // @ts-expect-error: the per-turn assessment has no per-message list
  void assessment.messages;
  const plan: Plan = session.plan();
  session.pin([0, 3]);
  compactor.session("opted-out", messages, { compactable: false, pin: [0] });
  // @ts-expect-error: a session's pins are set when it is created or by session.pin
  await session.compact({ summarize, pin: [1] });
  const result: SessionCompactResult = await session.compact({ summarize, trigger: "manual", onEvent: () => {} });
  // @ts-expect-error: the format is the session's
  await session.compact({ summarize, format: "openai" });
  const changes: SessionChanges | undefined = session.changes;
  const mine = [...messages] as object[];
  if (changes) mine.splice(changes.start, changes.deleteCount, ...changes.insert);
  const conversation: Conversation = session.messages;
  const id: string = session.id;
  void [plan, result.status, result.report.tokensAfter, conversation, id];
  session.free();
  return session.length + assessment.totalTokens;
}

// The agent frameworks' adapters: a Mastra processor and a LangChain.js middleware.
export async function adapters(compactor: Compactor): Promise<number> {
  const summarize = async (request: SummaryRequest) => `${request.prompt.length} messages`;
  const processor = new CompactorProcessor(compactor, { summarize, sessionId: "thread-1", onResult: (r) => void r.report });
  const step = await processor.processLLMRequest({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
  const middleware = compactorMiddleware(compactor, { summarize });
  // @ts-expect-error: a summarizer is required
  compactorMiddleware(compactor, {});
  return (step?.prompt.length ?? 0) + (processor.lastResult?.report.tokensAfter ?? 0) + (middleware.lastResult?.report.tokensAfter ?? 0);
}
