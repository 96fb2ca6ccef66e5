// The page's pictures in headless Chromium: the gauge, the segment strip, the ladder and
// the before/after view, for the bundled sample and for a 228-message corpus trajectory
// dropped onto the page. What the page draws is checked against the same package run in
// Node (the offline summarizer is deterministic). Screenshots at desktop and phone sizes
// go to tests/output/ (ignored by git).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { openDemo as openPage, startServer } from "./page.mjs";
import { Compactor, extractiveSummarize } from "../../wasm/pkg/node.js";
import { corpusFile } from "../../wasm/tests/corpus.mjs";

const CORPUS_FILE = "mini-swe-agent--sqlfluff-1517.json";
const output = new URL("./output/", import.meta.url);
mkdirSync(output, { recursive: true });

let serverProcess;
let pageUrl;
let browser;

before(async () => {
  ({ process: serverProcess, url: pageUrl } = await startServer());
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
});

after(async () => {
  await browser?.close();
  serverProcess?.kill();
});

/** What the package itself makes of `conversation` with these numbers: the plans before and after, and the run. */
async function expected(conversation, config, options = {}) {
  const compactor = new Compactor(config);
  try {
    const planBefore = compactor.plan(conversation, options);
    const events = [];
    const result = await compactor.compact(conversation, { ...options, summarize: extractiveSummarize, onEvent: (e) => events.push(e) });
    const planAfter = compactor.plan(result.messages, options);
    return { planBefore, planAfter, result, events };
  } finally {
    compactor.free();
  }
}

const openDemo = (t, viewport) => openPage(browser, pageUrl, t, { viewport });

/** Records every gauge value and every segment state the page shows while the run goes. */
const watch = (page) =>
  page.evaluate(() => {
    window.seen = { gauge: [], states: new Set() };
    new MutationObserver(() => {
      const tokens = Number(document.querySelector("#gauge svg")?.dataset.tokens);
      if (window.seen.gauge.at(-1) !== tokens) window.seen.gauge.push(tokens);
      for (const block of document.querySelectorAll("#strip .segment")) window.seen.states.add(block.dataset.state);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
const seen = (page) => page.evaluate(() => ({ gauge: window.seen.gauge, states: [...window.seen.states] }));

async function compact(page) {
  await page.click("#compact");
  await page.locator("#compact:enabled").waitFor({ timeout: 60_000 });
  assert.equal(await page.locator("#error").isHidden(), true, await page.locator("#error").textContent());
}

const gaugeMarks = (page) => page.locator("#gauge .mark").evaluateAll((marks) => Object.fromEntries(marks.map((m) => [m.dataset.mark, Number(m.dataset.tokens)])));
const strip = (page) => page.locator("#strip .segment").evaluateAll((blocks) => blocks.map((b) => ({ index: Number(b.dataset.index), state: b.dataset.state, tokens: Number(b.dataset.tokens) })));
const ladderRows = (page) =>
  page.locator("#ladder tr[data-level]").evaluateAll((rows) => rows.map((r) => ({ level: r.dataset.level, state: r.dataset.state, cells: [...r.cells].map((c) => c.textContent) })));

/** The strip shows `plan`: one block per segment, each in the plan's state, sized by its tokens, the tail marked. */
async function assertStrip(page, plan) {
  const blocks = await strip(page);
  assert.equal(blocks.length, plan.segmentation.segments.length);
  assert.deepEqual(blocks.map((b) => b.state), plan.segmentStates);
  const tokens = plan.segmentation.segments.map((s) => plan.assessment.messages.slice(s.messages.start, s.messages.end).reduce((a, m) => a + m.tokens, 0));
  assert.deepEqual(blocks.map((b) => b.tokens), tokens);
  assert.equal(await page.locator("#strip .tail-boundary").getAttribute("data-segment"), String(plan.tail.firstSegment));
}

/** The ladder shows the run's report, and the levels it skipped. */
async function assertLadder(page, { result, events }) {
  const rows = await ladderRows(page);
  assert.deepEqual(rows.map((r) => r.level), ["light", "moderate", "aggressive", "maximum"]);
  const fmt = (n) => n.toLocaleString("en-US");
  const skipped = new Set(events.filter((e) => e.type === "levelSkipped").map((e) => e.level));
  for (const row of rows) {
    const level = result.report.levels.find((l) => l.level === row.level);
    if (!level) {
      assert.deepEqual([row.state, row.cells[1]], ["pending", "—"], row.level);
      continue;
    }
    assert.equal(row.state, skipped.has(row.level) ? "skipped" : "left", row.level);
    assert.deepEqual(row.cells.slice(1, 5), [`${fmt(level.tokensBefore)} → ${fmt(level.tokensAfter)}`, String(level.requests), String(level.cacheHits), String(level.failures)], row.level);
    if (skipped.has(row.level)) {
      const predicted = events.find((e) => e.type === "levelSkipped" && e.level === row.level).predicted;
      assert.match(row.cells[5], new RegExp(`^skipped: at best ${fmt(predicted)} tokens, above the target ${fmt(result.report.targetTokens)}$`));
    }
  }
}

async function screenshots(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: new URL(`${name}-desktop.png`, output).pathname });
  // The pictures alone: gauge, strip and ladder (the README's screenshot is this one, of the sample).
  const top = await page.locator("#view-title").boundingBox();
  const bottom = await page.locator("#ladder").boundingBox();
  const clip = { x: top.x - 8, y: top.y - 8, width: bottom.width + 16, height: bottom.y + bottom.height - top.y + 16 };
  await page.screenshot({ path: new URL(`${name}-pictures.png`, output).pathname, clip });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => document.getElementById("view-title").scrollIntoView());
  await page.screenshot({ path: new URL(`${name}-phone.png`, output).pathname });
  // Nothing wider than the phone's screen.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), "the page scrolls sideways on a phone");
  // Every table stays readable: cells are not squeezed to a few letters a line (the table
  // scrolls sideways in its wrapper instead).
  const cells = await page.locator("table td").evaluateAll((tds) =>
    tds.map((td) => ({ text: td.textContent, width: td.getBoundingClientRect().width, height: td.getBoundingClientRect().height, line: parseFloat(getComputedStyle(td).lineHeight) || 20 })),
  );
  assert.ok(cells.length > 0, "no table drawn");
  for (const cell of cells) {
    assert.ok(cell.height <= 3 * cell.line + 8, `a cell is squeezed on a phone: ${JSON.stringify(cell)}`);
  }
}

test("the sample: gauge, strip, ladder and before/after follow the run", async (t) => {
  const { page, problems } = await openDemo(t, { width: 1280, height: 1000 });
  const sample = JSON.parse(readFileSync(new URL("../../samples/sample.json", import.meta.url), "utf8"));
  const want = await expected(sample, { maxContextTokens: 3000, outputReserve: 500 });
  const budget = want.planBefore.assessment.budget;

  // Before the run: the plan of the sample as it is.
  await assertStrip(page, want.planBefore);
  assert.deepEqual(await gaugeMarks(page), { target: budget.targetTokens, trigger: budget.triggerTokens, effective: budget.effectiveLimit, absolute: budget.absoluteLimit });
  assert.equal(await page.locator("#gauge svg").getAttribute("data-tokens"), "7075");
  assert.equal(await page.locator("#gauge svg").getAttribute("data-state"), "over");

  // Hovering a segment lists its messages.
  const second = want.planBefore.segmentation.segments[1];
  await page.hover('#strip .segment[data-index="1"]');
  assert.match(await page.locator("#segment-title").textContent(), new RegExp(`^Segment 1 · raw · exchange · messages ${second.messages.start}..${second.messages.end}`));
  assert.equal(await page.locator("#segment-detail li").count(), second.messages.end - second.messages.start);

  await watch(page);
  await compact(page);
  const live = await seen(page);
  // The gauge moved through each level's tokens; the request's segments were shown in flight.
  const levelTokens = [want.result.report.tokensBefore, ...want.result.report.levels.map((l) => l.tokensAfter)];
  for (const tokens of levelTokens) assert.ok(live.gauge.includes(tokens), `gauge never showed ${tokens}: ${live.gauge}`);
  assert.ok(live.states.includes("inFlight"), live.states.join(" "));

  // After: the compacted conversation's plan.
  await assertStrip(page, want.planAfter);
  assert.equal(await page.locator("#gauge svg").getAttribute("data-tokens"), String(want.planAfter.assessment.totalTokens));
  assert.equal(await page.locator("#gauge svg").getAttribute("data-state"), "ok");
  await assertLadder(page, want);

  // Before/after: the summary links to the original messages it covers.
  const [summary] = want.planAfter.summaries;
  const ids = want.planBefore.assessment.messages.map((m) => m.id);
  const [first, last] = [ids.indexOf(summary.covers[0]), ids.indexOf(summary.covers.at(-1))];
  const item = page.locator("#messages li.summary");
  assert.equal(await item.count(), 1);
  assert.equal(await item.getAttribute("data-covers"), `${first}-${last}`);
  assert.equal(await page.locator("#original li.covered").count(), last - first + 1);
  await item.hover();
  assert.deepEqual(await page.locator("#original li.highlight").evaluateAll((l) => l.map((li) => Number(li.value))), Array.from({ length: last - first + 1 }, (_, i) => first + i));
  assert.equal(await page.locator("#original li").count(), sample.length);
  assert.equal(await page.locator("#messages li").count(), want.result.report.messagesAfter);

  await screenshots(page, "sample");
  assert.deepEqual(problems, []);
});

test(`a ${CORPUS_FILE.replace(".json", "")} trajectory dropped on the page, new numbers, a skipped level`, async (t) => {
  const { page, problems } = await openDemo(t, { width: 1280, height: 1000 });
  const conversation = corpusFile(CORPUS_FILE);
  assert.ok(conversation.length >= 200, `${conversation.length} messages`);
  const config = { maxContextTokens: 12000, outputReserve: 2000, triggerRatio: 0.9, targetRatio: 0.7, keepRecentTurns: 3 };
  const want = await expected(conversation, config, { lenient: true });
  assert.ok(want.events.some((e) => e.type === "levelSkipped"), "the run skips no level: pick other numbers");

  // The numbers, as a visitor types them.
  for (const [id, value] of [["max-context", 12000], ["output-reserve", 2000], ["trigger", 0.9], ["target", 0.7], ["recent-turns", 3]]) {
    await page.fill(`#${id}`, String(value));
  }
  await page.check("#lenient");
  // Dropped as a file: the page reads it and names the format the engine detects.
  const text = JSON.stringify(conversation);
  const transfer = await page.evaluateHandle(([name, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type: "application/json" }));
    return data;
  }, [CORPUS_FILE, text]);
  await page.locator("#format").selectOption("anthropic"); // detection must put it back
  await page.dispatchEvent("#drop", "drop", { dataTransfer: transfer });
  await page.locator("#loaded").filter({ hasText: CORPUS_FILE }).waitFor();
  assert.equal(await page.locator("#loaded").textContent(), `Loaded ${CORPUS_FILE}: openai format, detected.`);
  assert.equal(await page.inputValue("#format"), "openai");
  await assertStrip(page, want.planBefore);
  const budget = want.planBefore.assessment.budget;
  assert.deepEqual(await gaugeMarks(page), { target: budget.targetTokens, trigger: budget.triggerTokens, effective: budget.effectiveLimit, absolute: budget.absoluteLimit });

  await watch(page);
  await compact(page);
  const live = await seen(page);
  assert.ok(live.states.includes("inFlight"), live.states.join(" "));
  await assertStrip(page, want.planAfter);
  // Cut just enough: the oldest segments summarized, the ones after them still raw before
  // the tail (LIGHT leaves outputs to the summary where clearing alone cannot meet the
  // target).
  assert.deepEqual(new Set(want.planAfter.segmentStates), new Set(["pinned", "raw", "summarized", "tail"]));
  await assertLadder(page, want);
  assert.equal(await page.locator("#gauge svg").getAttribute("data-tokens"), String(want.planAfter.assessment.totalTokens));
  assert.equal(await page.locator("#original li").count(), conversation.length);
  assert.equal(await page.locator("#messages li.summary").count(), want.planAfter.summaries.length);

  await screenshots(page, "corpus");
  assert.deepEqual(problems, []);
});

test("a corpus trajectory replayed call by call: one point per call, compactions marked, the running cost", async (t) => {
  const { page, problems } = await openDemo(t, { width: 1280, height: 1000 });
  const conversation = corpusFile(CORPUS_FILE);
  const calls = conversation.filter((m, i) => i > 0 && m.role === "assistant").length;
  assert.ok(calls > 20, `${calls} calls`);
  for (const [id, value] of [["max-context", 12000], ["output-reserve", 2000]]) await page.fill(`#${id}`, String(value));
  await page.check("#lenient");
  const transfer = await page.evaluateHandle(([name, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type: "application/json" }));
    return data;
  }, [CORPUS_FILE, JSON.stringify(conversation)]);
  await page.dispatchEvent("#drop", "drop", { dataTransfer: transfer });
  await page.locator("#loaded").filter({ hasText: CORPUS_FILE }).waitFor();
  // Keeping everything outgrows the window: the replay must compact.
  const compactor = new Compactor({ maxContextTokens: 12000, outputReserve: 2000 });
  try {
    assert.ok(compactor.assess(conversation, { lenient: true }).totalTokens > 12000, "the trajectory fits the window: pick another");
  } finally {
    compactor.free();
  }

  await page.click("#replay");
  await page.locator("#replay-label").filter({ hasText: "calls" }).waitFor({ timeout: 120_000 });
  assert.equal(await page.locator("#error").isHidden(), true, await page.locator("#error").textContent());
  const chart = page.locator("#replay-chart svg");
  assert.equal(await chart.getAttribute("data-calls"), String(calls));
  assert.equal(await page.locator("#replay-chart .point").count(), calls, "one point per call");
  assert.equal((await page.locator("#replay-chart .prompts").getAttribute("points")).split(" ").length, calls);
  const marks = await page.locator("#replay-chart .compaction").count();
  assert.ok(marks >= 1, "no compaction marked");
  assert.equal((await page.locator("#replay-chart .running-cost").getAttribute("points")).split(" ").length, calls);
  const label = await page.locator("#replay-label").textContent();
  const [, shownCalls, compactions, cost] = label.match(/^(\d+) calls · (\d+) compactions · running cost ([\d.]+)× keeping everything/);
  assert.deepEqual([Number(shownCalls), Number(compactions)], [calls, marks]);
  assert.ok(Number(cost) > 0, `compacting costs ${cost}× keeping everything`);
  // No prompt past the absolute limit: the session compacts before a call would be refused.
  const absolute = Number(await page.locator('#replay-chart [data-limit="absolute"]').getAttribute("y1"));
  for (const y of await page.locator("#replay-chart .point").evaluateAll((ps) => ps.map((p) => Number(p.getAttribute("cy"))))) {
    assert.ok(y >= absolute - 0.01, "a call over the absolute limit");
  }
  await page.locator("#replay-chart").screenshot({ path: new URL("replay.png", output).pathname });
  assert.deepEqual(problems, []);
});
