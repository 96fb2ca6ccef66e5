// Uses the whole API with its declared types; `tsc -p tests/ts` checks it (nothing runs).
import init, {
  Compactor,
  countTokens,
  errorCodes,
  initSync,
  type Assessment,
  type Budget,
  type Calibration,
  type CompactorConfig,
  type CompactorError,
  type Conversation,
  type EncodingName,
  type ErrorCode,
  type MessageTokens,
  type OpenAIMessage,
  type Plan,
  type ReadOptions,
  type Segment,
  type SegmentKind,
  type Tail,
  type Unit,
  type UnitKind,
} from "../../pkg/compactor.js";

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

  void [again, encoding, first, needsCompaction, targetMessages, tail, kinds, unitKinds, calibration, memo, counter, resolved, codes, code];
  return countTokens("hello", "cl100k_base") + countTokens("hello");
}
