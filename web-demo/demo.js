// The demo page: the real npm package (wasm/pkg, built by wasm/build.sh), no bundler.
import init, { Compactor, countTokens } from "../wasm/pkg/compactor.js";

const $ = (id) => document.getElementById(id);
const ui = {
  status: $("status"),
  file: $("file"),
  conversation: $("conversation"),
  maxContext: $("max-context"),
  outputReserve: $("output-reserve"),
  format: $("format"),
  baseUrl: $("base-url"),
  model: $("model"),
  apiKey: $("api-key"),
  assess: $("assess"),
  compact: $("compact"),
  cancel: $("cancel"),
  error: $("error"),
  assessment: $("assessment"),
  timeline: $("timeline"),
  result: $("result"),
  download: $("download"),
  messages: $("messages"),
};

const fmt = (n) => n.toLocaleString("en-US");
let fileName = "sample.json";
let compacted = null; // the last result's conversation, for Download
let running = null; // the AbortController of the run in progress

/** Builds an element: `el("li", { class: "x" }, "text", child)`. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
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

function newCompactor() {
  return new Compactor({
    maxContextTokens: ui.maxContext.valueAsNumber,
    outputReserve: ui.outputReserve.valueAsNumber,
  });
}

// ---- summarizers ---------------------------------------------------------------------

const ERROR_WORDS = /error|exception|traceback|failed|failure|panicked|not found|denied|cannot|invalid/i;
const PATH = /(^|[\s"'`(])[\w.-]*\/[\w.-]{2,}|\b[\w-]+\.(py|rs|js|mjs|ts|tsx|json|toml|ya?ml|md|txt|c|h|cpp|go|java|rb|sh|cfg|ini)\b/;
const ARTIFACT = /«artifact:[^»]+»/;

/**
 * Extractive: no model. Keeps the transcript lines that name a file or an error (and any
 * artifact reference), errors first when space runs out, each cut to 200 characters,
 * within `maxOutputTokens` as the package counts them.
 */
function extractiveSummary(request) {
  // The prompt's last message: the fenced transcript, after the running summary if any.
  const lines = request.prompt
    .at(-1)
    .content.split("\n")
    .map((l) => l.replace(/^\[(system|user|assistant|tool)\] /, "").replace(/^- /, "").trim())
    .filter((l) => !/^(<\/?(transcript|summary)>|## |Existing summary:|New messages:)/.test(l));
  const seen = new Set();
  const errors = [];
  const facts = [];
  for (const line of lines) {
    if (line.length === 0 || seen.has(line)) continue;
    seen.add(line);
    const short = line.length > 200 ? `${line.slice(0, 199)}…` : line;
    if (ERROR_WORDS.test(line)) errors.push(short);
    else if (PATH.test(line) || ARTIFACT.test(line)) facts.push(short);
  }
  if (errors.length + facts.length === 0) {
    const first = lines.find((l) => l.length > 0);
    if (first) facts.push(first.slice(0, 200));
  }
  const budget = request.maxOutputTokens - 8; // headings and slack
  const kept = new Set();
  let used = 0;
  for (const line of [...errors, ...facts]) {
    const cost = countTokens(`- ${line}\n`);
    if (used + cost > budget) continue;
    used += cost;
    kept.add(line);
  }
  const section = (heading, found) => {
    const chosen = found.filter((l) => kept.has(l));
    return chosen.length ? `## ${heading}\n${chosen.map((l) => `- ${l}`).join("\n")}` : "";
  };
  return [section("Facts", facts), section("Errors", errors)].filter(Boolean).join("\n\n");
}

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
  return choice === "endpoint"
    ? endpointSummarizer(ui.baseUrl.value.trim(), ui.model.value.trim(), ui.apiKey.value.trim())
    : extractiveSummary;
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
      el("dt", {}, "Tokens"),
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
      return `skipped ${e.level} (would reach ${fmt(e.predicted)})`;
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

function showResult({ messages, report, status }) {
  const statusText = status.kind === "compacted" ? `compacted, target ${status.targetMet ? "met" : "not met"}` : `${status.kind}${status.reason ? `: ${status.reason}` : ""}`;
  const levels = el("table", {}, el("tr", {}, ...["level", "tokens before", "after", "requests", "cache hits", "failures"].map((h) => el("th", {}, h))));
  for (const l of report.levels) {
    levels.append(el("tr", {}, ...[l.level, fmt(l.tokensBefore), fmt(l.tokensAfter), l.requests, l.cacheHits, l.failures].map((v) => el("td", {}, String(v)))));
  }
  ui.result.replaceChildren(
    el("p", { id: "before-after" }, `${fmt(report.tokensBefore)} → ${fmt(report.tokensAfter)} tokens, ${report.messagesBefore} → ${report.messagesAfter} messages: ${statusText}`),
    levels,
    el("p", {}, `requests ${report.requests} · cache hits ${report.cacheHits} · failures ${report.failures} · summarizer input ${fmt(report.summaryInputTokens)} tokens`),
  );
  const list = Array.isArray(messages) ? messages : (messages.messages ?? []);
  ui.messages.replaceChildren(
    ...list.map((m) => {
      const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? null, null, 1);
      const calls = (m.tool_calls ?? []).map((c) => `\n→ ${c.function?.name}(${c.function?.arguments ?? ""})`).join("");
      const summary = typeof m.content === "string" && m.content.startsWith("[compactor summary");
      return el("li", { class: summary ? "summary" : "" }, el("span", { class: "role" }, `${m.role}${summary ? " · summary" : ""}`), el("pre", {}, content + calls));
    }),
  );
  compacted = messages;
  ui.download.hidden = false;
}

// ---- actions -------------------------------------------------------------------------

function setRunning(controller) {
  running = controller;
  ui.assess.disabled = ui.compact.disabled = controller !== null;
  ui.cancel.disabled = controller === null;
}

function clearError() {
  ui.error.hidden = true;
  ui.error.replaceChildren();
}

ui.assess.addEventListener("click", () => {
  clearError();
  ui.assessment.replaceChildren();
  let compactor = null;
  try {
    compactor = newCompactor();
    showAssessment(compactor.assess(readConversation(), { format: ui.format.value }));
    ui.status.textContent = "Assessed.";
  } catch (e) {
    showError(e);
  } finally {
    compactor?.free();
  }
});

ui.compact.addEventListener("click", async () => {
  clearError();
  ui.timeline.replaceChildren();
  ui.result.replaceChildren();
  ui.messages.replaceChildren();
  ui.download.hidden = true;
  const controller = new AbortController();
  setRunning(controller);
  ui.status.textContent = "Compacting…";
  const started = performance.now();
  let compactor = null;
  try {
    const conversation = readConversation();
    compactor = newCompactor();
    const result = await compactor.compact(conversation, {
      summarize: chosenSummarizer(),
      signal: controller.signal,
      format: ui.format.value,
      onEvent: (event) => {
        const at = `+${Math.round(performance.now() - started)} ms`;
        ui.timeline.append(el("li", { "data-type": event.type }, el("span", { class: "at" }, at), ` ${describe(event)}`));
      },
    });
    showResult(result);
    ui.status.textContent = "Done.";
  } catch (e) {
    showError(e);
  } finally {
    compactor?.free();
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

ui.file.addEventListener("change", async () => {
  const [file] = ui.file.files;
  if (!file) return;
  fileName = file.name;
  ui.conversation.value = await file.text();
  ui.status.textContent = `Loaded ${file.name}.`;
});

// ---- start ---------------------------------------------------------------------------

try {
  await init({ module_or_path: new URL("../wasm/pkg/compactor_bg.wasm", import.meta.url) });
  const sample = await fetch(new URL("../samples/sample.json", import.meta.url));
  if (!sample.ok) throw new PageError("SAMPLE_MISSING", `samples/sample.json: ${sample.status}`);
  ui.conversation.value = await sample.text();
  ui.assess.disabled = ui.compact.disabled = false;
  ui.status.textContent = "Ready: the sample is loaded.";
} catch (e) {
  showError(e);
  ui.status.textContent = "The package did not load: run wasm/build.sh, then reload.";
}
