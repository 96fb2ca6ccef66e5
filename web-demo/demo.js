// The demo page: the real npm package (wasm/pkg, built by wasm/build.sh), no bundler, no
// framework. Every number and state drawn comes from the package: `plan()` for the
// segments, their states and the tail; `compact()`'s events for the gauge and the ladder
// as the run goes; `extractiveSummarize` for the offline summaries.
import init, { Compactor, extractiveSummarize, detectFormat } from "../wasm/pkg/compactor.js";

const $ = (id) => document.getElementById(id);
const ui = Object.fromEntries(
  ["status", "file", "drop", "loaded", "conversation", "max-context", "output-reserve", "trigger", "target", "recent-turns", "format", "lenient",
    "base-url", "model", "api-key", "instructions", "assess", "compact", "cancel", "error", "gauge", "gauge-label", "assessment", "strip", "strip-caption",
    "legend", "segment-detail", "ladder", "timeline", "result", "download", "original", "messages", "replay", "replay-chart", "replay-label"].map((id) => [id, $(id)]),
);

const SVG = "http://www.w3.org/2000/svg";
const LEVELS = ["light", "moderate", "aggressive", "maximum"];
/** Segment states: colour (Okabe–Ito, told apart without hue too: every block is labelled) and the word shown. */
const STATES = {
  pinned: { fill: "#4d4d4d", ink: "#fff", word: "pinned" },
  raw: { fill: "#d8d8d8", ink: "#000", word: "raw" },
  tail: { fill: "#56b4e9", ink: "#000", word: "tail" },
  masked: { fill: "#e69f00", ink: "#000", word: "masked" },
  summarized: { fill: "#009e73", ink: "#fff", word: "summarized" },
  inFlight: { fill: "#cc79a7", ink: "#000", word: "in flight" },
};
const fmt = (n) => Math.round(n).toLocaleString("en-US");

let fileName = "sample.json";
let compacted = null; // the last result's conversation, for Download
let running = null; // the AbortController of the run in progress
/** What is drawn: the plan of the conversation shown, its messages, the states shown, and the budget. */
const shown = { plan: null, messages: [], states: [], budget: null, tokens: 0 };

/** Builds an element: `el("li", { class: "x" }, "text", child)`. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** Builds an SVG element. */
function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// ---- input -------------------------------------------------------------------------

/** An error of the page itself, shown like the package's errors (which carry a `code`). */
class PageError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function readConversation() {
  try {
    return JSON.parse(ui.conversation.value);
  } catch (e) {
    throw new PageError("INVALID_JSON", `the conversation is not JSON: ${e.message}`);
  }
}

const readOptions = () => ({ format: ui.format.value, lenient: ui.lenient.checked });

function newCompactor() {
  return new Compactor({
    maxContextTokens: ui["max-context"].valueAsNumber,
    outputReserve: ui["output-reserve"].valueAsNumber,
    triggerRatio: ui.trigger.valueAsNumber,
    targetRatio: ui.target.valueAsNumber,
    keepRecentTurns: ui["recent-turns"].valueAsNumber,
    ...(ui.instructions.value.trim() ? { instructions: ui.instructions.value } : {}),
  });
}

/** The loss receipt as one line: `lost facts: 12 of 340 (path 3, number 7)`, examples on hover. */
function lostFactsLine({ before, lost, kinds }) {
  const byKind = kinds.filter((k) => k.lost > 0).map((k) => `${k.kind} ${k.lost}`).join(", ");
  const examples = kinds.filter((k) => k.examples.length).map((k) => `${k.kind}: ${k.examples.join(" · ")}`).join("\n");
  return el("p", { id: "lost-facts", title: examples }, `lost facts: ${lost} of ${before}${byKind ? ` (${byKind})` : ""}`);
}

/** A message's text, for lists: its content, and its tool calls. */
function messageText(m) {
  // Gemini contents hold `parts`; Responses items without content are calls and outputs.
  if (Array.isArray(m.parts)) return m.parts.map((p) => p.text ?? JSON.stringify(p)).join("\n");
  if (m.type && m.type !== "message") return m.output ?? m.arguments ?? JSON.stringify(m);
  const parts = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p) => p.text ?? p.output?.value ?? JSON.stringify(p)).join("\n") : JSON.stringify(m.content ?? null);
  const calls = (m.tool_calls ?? []).map((c) => `\n→ ${c.function?.name}(${c.function?.arguments ?? ""})`).join("");
  return parts + calls;
}

/** The messages of a conversation in any format: the array, or the body's list (`messages`, Responses' `input`, Gemini's `contents`). */
const messagesOf = (conversation) =>
  Array.isArray(conversation) ? conversation : (conversation?.messages ?? conversation?.input ?? conversation?.contents ?? []);

// ---- summarizers ---------------------------------------------------------------------

/** An OpenAI-compatible `/chat/completions` endpoint writes each summary. */
function endpointSummarizer(base, model, apiKey) {
  const url = `${base.replace(/\/+$/, "")}/chat/completions`;
  return async (request, { signal }) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify({ model, messages: request.prompt, max_tokens: request.maxOutputTokens }),
      signal,
    }).catch((e) => {
      if (signal?.aborted) throw e;
      // Browsers say no more than "Failed to fetch" for both.
      throw new Error(`${url}: ${e.message} (is it running, and does it allow this page's origin?)`);
    });
    const answer = await response.text();
    // The model refused the prompt as too long: the engine retries with a smaller input.
    if (response.status === 400 && /context_length|too long|maximum context/i.test(answer)) return { inputTooLong: true };
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${answer.slice(0, 200)}`);
    const content = JSON.parse(answer).choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new Error(`${url} answered without choices[0].message.content`);
    return content;
  };
}

function chosenSummarizer() {
  const choice = document.querySelector('input[name="summarizer"]:checked').value;
  return choice === "endpoint" ? endpointSummarizer(ui["base-url"].value.trim(), ui.model.value.trim(), ui["api-key"].value.trim()) : extractiveSummarize;
}

// ---- the gauge -------------------------------------------------------------------------

/** Draws `tokens` against the limits of `budget`, the inspector's marks: t target, T trigger, E effective, A absolute. */
function drawGauge(tokens, budget, target) {
  shown.tokens = tokens;
  const marks = [
    ["t", "target", target],
    ["T", "trigger", budget.triggerTokens],
    ["E", "effective", budget.effectiveLimit],
    ["A", "absolute", budget.absoluteLimit],
  ];
  const scale = Math.max(tokens, ...marks.map(([, , n]) => n)) * 1.04;
  const x = (n) => (1000 * n) / scale;
  const state = tokens > budget.absoluteLimit ? ["over", "#b3261e", "over the absolute limit"] : tokens > budget.triggerTokens ? ["high", "#a05a00", "over the trigger"] : ["ok", "#1b7a43", "below the trigger"];
  const bar = svg("rect", { x: 0, y: 26, height: 22, width: x(tokens), fill: state[1], class: "fill", "data-tokens": tokens });
  bar.style.transition = "width 0.3s";
  const picture = svg("svg", { viewBox: "0 0 1000 92", role: "img", "aria-label": `${fmt(tokens)} tokens, ${state[2]}`, "data-tokens": tokens, "data-state": state[0] },
    svg("rect", { x: 0, y: 26, width: 1000, height: 22, fill: "#8883" }),
    bar,
  );
  // Labels of marks close together go on alternate rows.
  let lastX = -100;
  let row = 0;
  for (const [letter, name, n] of [...marks].sort((a, b) => a[2] - b[2])) {
    const at = x(n);
    row = at - lastX < 70 ? 1 - row : 0;
    lastX = at;
    picture.append(svg("g", { class: "mark", "data-mark": name, "data-tokens": n },
      svg("title", {}, `${name} ${fmt(n)}`),
      svg("line", { x1: at, x2: at, y1: 20, y2: 54, stroke: "currentColor", "stroke-width": 3 }),
      svg("text", { x: at, y: row ? 72 : 86, "text-anchor": "middle", "font-size": 15, fill: "currentColor" }, `${letter} ${fmt(n)}`),
    ));
  }
  picture.append(svg("text", { x: 4, y: 16, "font-size": 15, fill: "currentColor" }, `${fmt(tokens)} tokens`));
  ui.gauge.replaceChildren(picture);
  const share = budget.absoluteLimit > 0 ? `${Math.round((100 * tokens) / budget.absoluteLimit)}% of the absolute limit` : "";
  ui["gauge-label"].textContent = `${fmt(tokens)} tokens (${share}), ${state[2]} · t target ${fmt(target)} · T trigger ${fmt(budget.triggerTokens)} · E effective ${fmt(budget.effectiveLimit)} · A absolute ${fmt(budget.absoluteLimit)}`;
}

// ---- the segment strip -----------------------------------------------------------------

/** Shows `plan` (of `messages`) in the strip, each segment in its state. */
function showPlan(plan, messages, caption) {
  shown.plan = plan;
  shown.messages = messages;
  shown.states = [...plan.segmentStates];
  ui["strip-caption"].textContent = caption;
  ui["segment-detail"].replaceChildren(el("p", { class: "hint" }, "Hover or tap a segment to see its messages."));
  drawStrip();
}

function segmentTokens(segment) {
  let sum = 0;
  for (let i = segment.messages.start; i < segment.messages.end; i++) sum += shown.plan.assessment.messages[i].tokens;
  return sum;
}

function drawStrip() {
  const { plan } = shown;
  const segments = plan.segmentation.segments;
  const tokens = segments.map(segmentTokens);
  const total = tokens.reduce((a, b) => a + b, 0) || 1;
  // Every block at least 6 units wide, so a short segment stays visible and tappable.
  const minWidth = 6;
  const room = 1000 - minWidth * segments.length;
  const picture = svg("svg", { viewBox: "0 0 1000 70", role: "group", "aria-label": `${segments.length} segments` });
  let x = 0;
  segments.forEach((segment, i) => {
    const width = minWidth + (Math.max(room, 0) * tokens[i]) / total;
    const key = shown.states[i];
    const look = STATES[key];
    const label = `segment ${i} · messages ${segment.messages.start}..${segment.messages.end} · ${fmt(tokens[i])} tokens · ${look.word}`;
    const block = svg("g", { class: "segment", "data-index": i, "data-state": key, "data-tokens": tokens[i], tabindex: 0, role: "button", "aria-label": label },
      svg("title", {}, label),
      svg("rect", { x: x + 0.5, y: 18, width: Math.max(width - 1, 1), height: 34, fill: look.fill, stroke: "#0008" }),
    );
    if (width > 34) {
      const word = width > 80 ? look.word : look.word.slice(0, 2);
      block.append(svg("text", { x: x + width / 2, y: 40, "text-anchor": "middle", "font-size": 13, fill: look.ink }, word));
    }
    for (const type of ["pointerenter", "click", "focus"]) block.addEventListener(type, () => showSegment(i));
    picture.append(block);
    if (i === plan.tail.firstSegment) {
      picture.append(svg("g", { class: "tail-boundary", "data-segment": i },
        svg("line", { x1: x, x2: x, y1: 4, y2: 66, stroke: "currentColor", "stroke-width": 3, "stroke-dasharray": "4 3" }),
        svg("text", { x: x + 4, y: 13, "font-size": 13, fill: "currentColor" }, `tail (${plan.tail.turns} turns, ${fmt(plan.tail.tokens)} tokens) →`),
      ));
    }
    x += width;
  });
  ui.strip.replaceChildren(picture);
}

/** The detail of segment `i`: its numbers and its messages. */
function showSegment(i) {
  const segment = shown.plan.segmentation.segments[i];
  const look = STATES[shown.states[i]];
  const items = [];
  for (let m = segment.messages.start; m < segment.messages.end; m++) {
    const message = shown.messages[m];
    const text = message ? messageText(message) : "";
    items.push(el("li", { value: m }, el("span", { class: "role" }, message?.role ?? "?"), ` ${fmt(shown.plan.assessment.messages[m].tokens)} tokens: `, text.length > 240 ? `${text.slice(0, 239)}…` : text));
  }
  ui["segment-detail"].replaceChildren(
    el("p", { id: "segment-title" }, el("strong", {}, `Segment ${i}`), ` · ${look.word} · ${segment.kind} · messages ${segment.messages.start}..${segment.messages.end} · ${fmt(segmentTokens(segment))} tokens`),
    el("ol", { class: "segment-messages" }, ...items),
  );
}

/** Marks the segments holding any of `ids` (message ids of the shown conversation) as `state`; `null` restores the plan's. */
function markSegments(ids, state) {
  const wanted = new Set(ids);
  shown.plan.segmentation.segments.forEach((segment, i) => {
    for (let m = segment.messages.start; m < segment.messages.end; m++) {
      if (wanted.has(shown.plan.assessment.messages[m].id)) {
        shown.states[i] = state ?? shown.plan.segmentStates[i];
        return;
      }
    }
  });
  drawStrip();
}

function drawLegend() {
  ui.legend.replaceChildren(...Object.values(STATES).map(({ fill, word }) => el("li", {}, el("span", { class: "swatch", style: `background:${fill}` }), word)));
}

// ---- the ladder ------------------------------------------------------------------------

/** One row per level, filled in as the events come. */
const ladder = new Map();

function resetLadder() {
  ladder.clear();
  for (const level of LEVELS) ladder.set(level, { state: "pending", before: null, after: null, requests: 0, cacheHits: 0, failures: 0, predicted: null });
  drawLadder();
}

function drawLadder(target) {
  const head = el("tr", {}, ...["level", "tokens", "requests", "cache hits", "failures", "outcome"].map((h) => el("th", { scope: "col" }, h)));
  const rows = [...ladder].map(([level, row]) => {
    const tokens = row.before === null ? "—" : `${fmt(row.before)} → ${row.after === null ? "…" : fmt(row.after)}`;
    let outcome = { pending: "—", running: "running" }[row.state] ?? "";
    if (row.state === "skipped") outcome = `skipped: at best ${fmt(row.predicted)} tokens${target ? `, above the target ${fmt(target)}` : ""}`;
    if (row.state === "left") outcome = row.after < row.before ? `−${fmt(row.before - row.after)}` : "no change";
    return el("tr", { "data-level": level, "data-state": row.state }, ...[level, tokens, row.requests, row.cacheHits, row.failures, outcome].map((v) => el("td", {}, String(v))));
  });
  ui.ladder.replaceChildren(el("caption", {}, "The ladder, lightest first"), head, ...rows);
}

// ---- output --------------------------------------------------------------------------

function showError(error) {
  const code = error?.code ?? error?.name ?? "ERROR";
  const message = error?.message ?? String(error);
  const at = error?.path && !message.startsWith(error.path) ? ` (at ${error.path})` : "";
  ui.error.replaceChildren(el("strong", {}, code), `: ${message}${at}`);
  ui.error.hidden = false;
  ui.status.textContent = "Failed; nothing was changed. Fix the input and try again.";
}

function showAssessment(a) {
  const { budget, signals } = a;
  const fired = Object.entries(signals).filter(([, on]) => on).map(([name]) => name);
  ui.assessment.replaceChildren(
    el(
      "dl",
      {},
      el("dt", {}, "Input tokens"),
      el("dd", { id: "total-tokens" }, `${fmt(a.totalTokens)} in ${a.messageCount} messages (${budget.encoding})`),
      el("dt", {}, "Limit"),
      el("dd", {}, `${fmt(budget.absoluteLimit)} (window ${fmt(budget.maxContextTokens)} − reserve ${fmt(budget.outputReserve)})`),
      el("dt", {}, "Trigger / target"),
      el("dd", {}, `${fmt(budget.triggerTokens)} / ${fmt(a.target.tokens)}`),
      el("dt", {}, "Compaction needed"),
      el("dd", { id: "needed" }, fired.length ? `yes: ${fired.join(", ")}` : "no: below every limit"),
    ),
  );
}

/** Plans the conversation in the page (through a session handle, as an agent keeps its
 * conversation) and draws it: the gauge, the assessment, the strip, the original list. */
function planInput() {
  const conversation = readConversation();
  const compactor = newCompactor();
  let session = null;
  try {
    session = compactor.session("demo", conversation, readOptions());
    const plan = session.plan();
    const a = plan.assessment;
    shown.budget = a.budget;
    drawGauge(a.totalTokens, a.budget, a.target.tokens);
    showAssessment(a);
    const messages = messagesOf(conversation);
    showPlan(plan, messages, `The conversation as it is: ${plan.segmentation.segments.length} segments, ${a.messageCount} messages.`);
    showOriginal(plan, messages);
    return plan;
  } finally {
    session?.free();
    compactor.free();
  }
}

/** The original conversation, each message with its index, id and tokens. */
function showOriginal(plan, messages) {
  ui.original.replaceChildren(
    ...plan.assessment.messages.map(({ id, tokens }, i) => {
      const m = messages[i] ?? {};
      return el("li", { value: i, "data-id": id, id: `original-${i}` }, el("span", { class: "role" }, `${m.role ?? "?"} · ${fmt(tokens)} tokens`), el("pre", {}, messageText(m)));
    }),
  );
}

/** One line per event, in words. */
function describe(e) {
  switch (e.type) {
    case "assessed":
      return `assessed (${e.trigger}): ${fmt(e.tokens)} tokens, ${e.messages} messages; target ${fmt(e.target.tokens)}`;
    case "levelEntered":
      return `entered ${e.level} at ${fmt(e.tokens)} tokens`;
    case "levelLeft":
      return `left ${e.level}: ${fmt(e.tokensBefore)} → ${fmt(e.tokensAfter)} tokens`;
    case "levelSkipped":
      return `skipped ${e.level}: at best ${fmt(e.predicted)} tokens, not enough`;
    case "requestIssued":
      return `request #${e.id} issued: ${e.level}, ${e.covers} messages, ${fmt(e.inputTokens)} tokens, attempt ${e.attempt}`;
    case "requestAnswered":
      return `request #${e.id} answered: ${fmt(e.tokens)} tokens`;
    case "requestFailed":
      return `request #${e.id} failed: ${e.reason}`;
    case "finished":
      return `finished: ${e.status.kind}, ${fmt(e.tokensBefore)} → ${fmt(e.tokensAfter)} tokens`;
    default: {
      const { type, ...rest } = e;
      return `${type} ${JSON.stringify(rest)}`;
    }
  }
}

/** Follows the run: the gauge, the ladder and the timeline move with each event. */
function onEvent(event, started, target) {
  const at = `+${Math.round(performance.now() - started)} ms`;
  ui.timeline.append(el("li", { "data-type": event.type }, el("span", { class: "at" }, at), ` ${describe(event)}`));
  const row = ladder.get(event.level);
  switch (event.type) {
    case "assessed":
      target.tokens = event.target.tokens;
      drawGauge(event.tokens, shown.budget, target.tokens);
      break;
    case "levelEntered":
      Object.assign(row, { state: "running", before: event.tokens });
      drawGauge(event.tokens, shown.budget, target.tokens);
      break;
    case "levelSkipped":
      Object.assign(row, { state: "skipped", predicted: event.predicted });
      break;
    case "levelLeft":
      // A skipped level is left at once, unchanged: it stays "skipped".
      Object.assign(row, { state: row.state === "skipped" ? "skipped" : "left", before: event.tokensBefore, after: event.tokensAfter });
      drawGauge(event.tokensAfter, shown.budget, target.tokens);
      break;
    case "requestIssued":
      row.requests++;
      break;
    case "cacheHit":
      row.cacheHits++;
      break;
    case "requestFailed":
      for (const r of ladder.values()) if (r.state === "running") r.failures++;
      break;
    case "finished":
      drawGauge(event.tokensAfter, shown.budget, target.tokens);
      break;
  }
  drawLadder(target.tokens);
}

/** The result: numbers, the ladder from the report, the strip of the compacted conversation, and the compacted list. */
function showResult({ messages, report, status }, original, plan) {
  const statusText = status.kind === "compacted" ? `compacted, target ${status.targetMet ? "met" : "not met"}` : `${status.kind}${status.reason ? `: ${status.reason}` : ""}`;
  ui.result.replaceChildren(
    el("p", { id: "before-after" }, `${fmt(report.tokensBefore)} → ${fmt(report.tokensAfter)} tokens, ${report.messagesBefore} → ${report.messagesAfter} messages: ${statusText}`),
    el("p", {}, `requests ${report.requests} · cache hits ${report.cacheHits} · failures ${report.failures} · summarizer input ${fmt(report.summaryInputTokens)} tokens`),
    ...(status.kind === "compacted" ? [lostFactsLine(report.lostFacts)] : []),
  );
  // The report is the run's own account: it settles each walked level's numbers.
  for (const l of report.levels) Object.assign(ladder.get(l.level), { state: ladder.get(l.level).state === "skipped" ? "skipped" : "left", before: l.tokensBefore, after: l.tokensAfter, requests: l.requests, cacheHits: l.cacheHits, failures: l.failures });
  drawLadder(report.targetTokens);

  const list = messagesOf(messages);
  drawGauge(plan.assessment.totalTokens, plan.assessment.budget, report.targetTokens);
  showPlan(plan, list, `After the run: ${plan.segmentation.segments.length} segments, ${list.length} messages.`);

  // Each summary links to the original messages it covers (first to last).
  const index = new Map(original.assessment.messages.map((m, i) => [m.id, i]));
  const covered = new Map(plan.summaries.map((s) => [s.message, [index.get(s.covers[0]), index.get(s.covers.at(-1))]]));
  ui.messages.replaceChildren(
    ...list.map((m, i) => {
      const range = covered.get(i);
      const item = el("li", { value: i, class: range ? "summary" : "" });
      if (range && range[0] !== undefined && range[1] !== undefined) {
        const [first, last] = range;
        item.dataset.covers = `${first}-${last}`;
        item.append(el("span", { class: "role" }, `${m.role} · summary of `), el("a", { href: `#original-${first}`, class: "covers" }, `messages ${first}..${last}`));
        for (const type of ["pointerenter", "focusin", "click"]) item.addEventListener(type, () => highlight(first, last));
        item.addEventListener("pointerleave", () => highlight(-1, -2));
      } else item.append(el("span", { class: "role" }, m.role));
      item.append(el("pre", {}, messageText(m)));
      return item;
    }),
  );
  for (const [first, last] of covered.values()) {
    for (let i = first; i <= last; i++) ui.original.children[i]?.classList.add("covered");
  }
  compacted = messages;
  ui.download.hidden = false;
}

/** Highlights the original messages `first..=last`. */
function highlight(first, last) {
  [...ui.original.children].forEach((li, i) => li.classList.toggle("highlight", i >= first && i <= last));
  ui.original.children[first]?.scrollIntoView({ block: "nearest" });
}

// ---- actions -------------------------------------------------------------------------

function setRunning(controller) {
  running = controller;
  ui.assess.disabled = ui.compact.disabled = ui.replay.disabled = controller !== null;
  ui.cancel.disabled = controller === null;
}

function clearError() {
  ui.error.hidden = true;
  ui.error.replaceChildren();
}

/** Plans again when the conversation or a number changes (not during a run). */
function refresh() {
  if (running) return;
  clearError();
  try {
    planInput();
  } catch (e) {
    showError(e);
  }
}

ui.assess.addEventListener("click", () => {
  clearError();
  ui.assessment.replaceChildren();
  try {
    planInput();
    ui.status.textContent = "Assessed.";
  } catch (e) {
    showError(e);
  }
});

ui.compact.addEventListener("click", async () => {
  clearError();
  ui.timeline.replaceChildren();
  ui.result.replaceChildren();
  ui.messages.replaceChildren();
  ui.download.hidden = true;
  resetLadder();
  const controller = new AbortController();
  setRunning(controller);
  ui.status.textContent = "Compacting…";
  const started = performance.now();
  let compactor = null;
  let session = null;
  try {
    const original = planInput();
    const conversation = readConversation();
    const summarize = chosenSummarizer();
    const target = { tokens: original.assessment.target.tokens };
    compactor = newCompactor();
    // The session handle compacts its messages in place: `session.messages` and
    // `session.plan()` are the conversation after the run.
    session = compactor.session("demo", conversation, readOptions());
    const { report, status } = await session.compact({
      signal: controller.signal,
      // The strip shows each request's segments in flight, then summarized once answered.
      summarize: async (request, context) => {
        markSegments(request.covers, "inFlight");
        try {
          const answer = await summarize(request, context);
          markSegments(request.covers, typeof answer === "string" ? "summarized" : null);
          return answer;
        } catch (e) {
          markSegments(request.covers, null);
          throw e;
        }
      },
      onEvent: (event) => onEvent(event, started, target),
    });
    showResult({ messages: session.messages, report, status }, original, session.plan());
    ui.status.textContent = "Done.";
  } catch (e) {
    showError(e);
    if (shown.plan) showPlan(shown.plan, shown.messages, ui["strip-caption"].textContent);
  } finally {
    session?.free();
    compactor?.free();
    setRunning(null);
  }
});

// ---- replay --------------------------------------------------------------------------

/** Prices per prompt token relative to an uncached one, as `compactor replay` defaults them. */
const PRICES = { cached: 0.1, cacheWrite: 1, output: 4 };

/** A model call: an assistant message (Gemini's `model`), made with the history before it. */
const isCall = (m) => m?.role === "assistant" || m?.role === "model";

/** The conversation with its message list replaced by `list` (a bare array stays an array). */
function withList(conversation, list) {
  if (Array.isArray(conversation)) return list;
  const key = ["messages", "input", "contents"].find((k) => Array.isArray(conversation?.[k])) ?? "messages";
  return { ...conversation, [key]: list };
}

/**
 * Replays `conversation` as its agent lived it through a session handle: each assistant
 * message is a call made with the history before it; before each call the session is
 * assessed and compacted when a signal fires. Returns one entry per call: its prompt
 * tokens, whether a compaction came before it, and its cost beside keeping everything
 * (cached prefix at `PRICES.cached`, the rest written at `PRICES.cacheWrite`, summarizer
 * input at 1 and output at `PRICES.output`), priced as `compactor replay` prices a call.
 */
async function replayCalls(conversation, options, summarize, signal) {
  const all = messagesOf(conversation);
  const compactor = newCompactor();
  const session = compactor.session("replay", withList(conversation, all.slice(0, 1)), options);
  const calls = [];
  let previous = 0; // the previous call's prompt tokens, all cached unless a compaction rewrote them
  let previousKept = 0; // keeping everything: the previous call's prompt
  try {
    for (let i = 1; i < all.length; i++) {
      if (isCall(all[i])) {
        let compacted = false;
        let summaryCost = 0;
        let cached = previous;
        if (Object.values(session.assess().signals).some(Boolean)) {
          let output = 0;
          const counting = async (request, context) => {
            const answer = await summarize(request, context);
            if (typeof answer === "string") output += compactor.countTokens(answer);
            return answer;
          };
          // Proactively, then reactively while still over the absolute limit, as
          // `compactor replay` follows a session.
          let first = Infinity;
          let input = 0;
          for (const trigger of ["proactive", "reactive"]) {
            if (trigger === "reactive" && !session.assess().signals.overAbsoluteLimit) break;
            const { report, status } = await session.compact({ summarize: counting, signal, trigger });
            input += report.summaryInputTokens;
            if (status.kind === "compacted") {
              compacted = true;
              first = Math.min(first, session.changes.start);
            }
          }
          if (compacted) {
            // The prefix before the first message a compaction changed stays cached.
            const tokens = session.plan().assessment.messages;
            cached = Math.min(previous, tokens.slice(0, first).reduce((sum, m) => sum + m.tokens, 0));
          }
          summaryCost = input + PRICES.output * output;
        }
        const prompt = session.assess().totalTokens;
        cached = Math.min(cached, prompt);
        const kept = compactor.assess(withList(conversation, all.slice(0, i)), options).totalTokens;
        calls.push({
          message: i,
          prompt,
          compacted,
          cost: PRICES.cached * cached + PRICES.cacheWrite * (prompt - cached) + summaryCost,
          baselineCost: PRICES.cached * previousKept + PRICES.cacheWrite * (kept - previousKept),
        });
        previous = prompt;
        previousKept = kept;
      }
      session.append(all[i]);
    }
    return { calls, budget: session.assess().budget };
  } finally {
    session.free();
    compactor.free();
  }
}

/** Draws prompt tokens per call as a line, compactions marked, the trigger and absolute lines, and the running cost. */
function drawReplay({ calls, budget }) {
  const [width, height, left, top, bottom] = [1000, 260, 56, 14, 30];
  const peak = Math.max(budget.absoluteLimit, ...calls.map((c) => c.prompt), 1) * 1.05;
  const x = (i) => left + ((width - left - 8) * i) / Math.max(calls.length - 1, 1);
  const y = (tokens) => top + (height - top - bottom) * (1 - tokens / peak);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "replay", "data-calls": calls.length });
  for (const [name, tokens, colour] of [["trigger", budget.triggerTokens, "#a05a00"], ["absolute", budget.absoluteLimit, "#b3261e"]]) {
    chart.append(
      svg("line", { class: "limit", "data-limit": name, x1: left, x2: width - 8, y1: y(tokens), y2: y(tokens), stroke: colour, "stroke-dasharray": "6 4" }),
      svg("text", { x: width - 10, y: y(tokens) - 4, "text-anchor": "end", "font-size": 13, fill: colour }, `${name} ${fmt(tokens)}`),
    );
  }
  chart.append(
    svg("line", { x1: left, x2: left, y1: top, y2: height - bottom, stroke: "currentColor" }),
    svg("text", { x: left - 6, y: top + 10, "text-anchor": "end", "font-size": 13, fill: "currentColor" }, fmt(peak)),
    svg("text", { x: left - 6, y: height - bottom, "text-anchor": "end", "font-size": 13, fill: "currentColor" }, "0"),
    svg("text", { x: left, y: height - 8, "font-size": 13, fill: "currentColor" }, "call 1"),
    svg("text", { x: width - 8, y: height - 8, "text-anchor": "end", "font-size": 13, fill: "currentColor" }, `call ${calls.length}`),
    svg("polyline", { class: "prompts", points: calls.map((c, i) => `${x(i)},${y(c.prompt)}`).join(" "), fill: "none", stroke: "#0072b2", "stroke-width": 2 }),
  );
  let cost = 0;
  let baseline = 0;
  const running = [];
  calls.forEach((c, i) => {
    cost += c.cost;
    baseline += c.baselineCost;
    running.push(baseline > 0 ? cost / baseline : 1);
    chart.append(svg("circle", { class: "point", cx: x(i), cy: y(c.prompt), r: 2.5, fill: "#0072b2", "data-tokens": c.prompt }));
    if (c.compacted) {
      chart.append(svg("path", { class: "compaction", d: `M${x(i)},${y(c.prompt) - 14} l-6,-10 h12 z`, fill: "#009e73", "data-call": i + 1 },
        svg("title", {}, `compaction before call ${i + 1}: ${fmt(c.prompt)} tokens`)));
    }
  });
  // The running cost on its own scale (0 to the larger of 1 and its peak), along the bottom band.
  const costTop = Math.max(1, ...running);
  const yc = (r) => height - bottom - ((height - top - bottom) * 0.35 * r) / costTop;
  chart.append(
    svg("line", { x1: left, x2: width - 8, y1: yc(1), y2: yc(1), stroke: "#cc79a7", "stroke-opacity": 0.4 }),
    svg("text", { x: left + 4, y: yc(1) - 4, "font-size": 12, fill: "#cc79a7" }, "running cost: 1× = keeping everything"),
    svg("text", { x: width - 10, y: yc(running.at(-1) ?? 1) - 4, "text-anchor": "end", "font-size": 12, fill: "#cc79a7" }, `${(running.at(-1) ?? 1).toFixed(2)}×`),
  );
  chart.append(svg("polyline", { class: "running-cost", points: running.map((r, i) => `${x(i)},${yc(r)}`).join(" "), fill: "none", stroke: "#cc79a7", "stroke-width": 2, "stroke-dasharray": "2 3" }));
  ui["replay-chart"].replaceChildren(chart);
  const compactions = calls.filter((c) => c.compacted).length;
  const final = running.at(-1) ?? 1;
  ui["replay-label"].textContent = `${calls.length} calls · ${compactions} compactions · running cost ${final.toFixed(2)}× keeping everything (pink, dotted) · ${calls.filter((c) => c.prompt > budget.absoluteLimit).length} over the window`;
}

ui.replay.addEventListener("click", async () => {
  clearError();
  const controller = new AbortController();
  setRunning(controller);
  ui.status.textContent = "Replaying…";
  try {
    drawReplay(await replayCalls(readConversation(), readOptions(), chosenSummarizer(), controller.signal));
    ui.status.textContent = "Replayed.";
  } catch (e) {
    showError(e);
  } finally {
    setRunning(null);
  }
});

ui.cancel.addEventListener("click", () => running?.abort(new Error("cancelled from the page")));

ui.download.addEventListener("click", () => {
  const blob = new Blob([`${JSON.stringify(compacted, null, 1)}\n`], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: fileName.replace(/(\.json)?$/, ".compacted.json") });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
});

/** Loads a file's text: the format as the engine detects it, then the plan. */
async function load(file) {
  fileName = file.name;
  ui.conversation.value = await file.text();
  let detected = null;
  try {
    detected = detectFormat(JSON.parse(ui.conversation.value));
  } catch {
    // Not JSON: planning says so.
  }
  if (detected) ui.format.value = detected;
  ui.loaded.textContent = `Loaded ${file.name}: ${detected ? `${detected} format, detected` : "no format detected"}.`;
  ui.status.textContent = `Loaded ${file.name}.`;
  ui.timeline.replaceChildren();
  ui.result.replaceChildren();
  ui.messages.replaceChildren();
  resetLadder();
  refresh();
}

ui.file.addEventListener("change", () => ui.file.files[0] && load(ui.file.files[0]));
for (const type of ["dragenter", "dragover"]) {
  document.addEventListener(type, (e) => {
    e.preventDefault();
    ui.drop.classList.add("over");
  });
}
document.addEventListener("dragleave", (e) => e.relatedTarget === null && ui.drop.classList.remove("over"));
document.addEventListener("drop", (e) => {
  e.preventDefault();
  ui.drop.classList.remove("over");
  const [file] = e.dataTransfer?.files ?? [];
  if (file) load(file);
});
for (const input of [ui["max-context"], ui["output-reserve"], ui.trigger, ui.target, ui["recent-turns"], ui.format, ui.lenient]) input.addEventListener("change", refresh);

// ---- start ---------------------------------------------------------------------------

try {
  await init({ module_or_path: new URL("../wasm/pkg/compactor_bg.wasm", import.meta.url) });
  const sample = await fetch(new URL("../samples/sample.json", import.meta.url));
  if (!sample.ok) throw new PageError("SAMPLE_MISSING", `samples/sample.json: ${sample.status}`);
  ui.conversation.value = await sample.text();
  drawLegend();
  resetLadder();
  planInput();
  ui.assess.disabled = ui.compact.disabled = ui.replay.disabled = false;
  ui.status.textContent = "Ready: the sample is loaded.";
} catch (e) {
  showError(e);
  ui.status.textContent = "The package did not load: run wasm/build.sh, then reload.";
}
