// The demo page in headless Chromium, served by serve.mjs, with the built package
// (`wasm/build.sh` first). The OpenAI-compatible summarizer talks to a real loopback
// HTTP server started here, which answers with a canned summary.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { chromium } from "playwright-core";
import { openDemo as openPage, startServer } from "./page.mjs";

const CANNED = "## Facts\n- canned summary from the loopback endpoint: fields.py was fixed";

let serverProcess;
let pageUrl;
let browser;

/**
 * The loopback `/chat/completions` endpoint: records request bodies, answers after
 * `delayMs`, and counts the requests whose client hung up before the answer.
 */
const endpoint = { requests: [], delayMs: 0, dropped: 0, server: null, base: "" };

before(async () => {
  ({ process: serverProcess, url: pageUrl } = await startServer());

  endpoint.server = createServer(async (request, response) => {
    // The page's origin differs from the endpoint's: answer the preflight as a real server does.
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type, authorization" };
    if (request.method === "OPTIONS") return response.writeHead(204, cors).end();
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") return response.writeHead(404, cors).end();
    let body = "";
    for await (const chunk of request) body += chunk;
    endpoint.requests.push({ body: JSON.parse(body), authorization: request.headers.authorization });
    if (endpoint.delayMs > 0) {
      const timer = setTimeout(() => answer(), endpoint.delayMs);
      response.on("close", () => {
        clearTimeout(timer);
        if (!response.writableEnded) endpoint.dropped++;
      });
    } else answer();
    function answer() {
      response.writeHead(200, { ...cors, "content-type": "application/json" });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: CANNED }, finish_reason: "stop" }] }));
    }
  });
  endpoint.server.listen(0, "127.0.0.1");
  await once(endpoint.server, "listening");
  endpoint.base = `http://127.0.0.1:${endpoint.server.address().port}/v1`;

  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
});

after(async () => {
  await browser?.close();
  endpoint.server?.closeAllConnections();
  endpoint.server?.close();
  serverProcess?.kill();
});

const openDemo = (t) => openPage(browser, pageUrl, t, { acceptDownloads: true });

const timeline = (page) => page.locator("#timeline li").evaluateAll((items) => items.map((li) => li.dataset.type));

/** Clicks Compact and waits for the run to end (Compact enabled again). */
async function compact(page) {
  await page.click("#compact");
  await page.locator("#compact:enabled").waitFor({ timeout: 30_000 });
}

/** "7,075 → 1,726 tokens, ..." → [7075, 1726]. */
async function beforeAfter(page) {
  const text = await page.locator("#before-after").textContent();
  const [, before, after] = text.match(/^([\d,]+) → ([\d,]+) tokens/);
  return [before, after].map((n) => Number(n.replaceAll(",", "")));
}

test("serve.mjs: the types browsers insist on, and nothing outside the repository", async () => {
  const base = new URL("/", pageUrl);
  const get = (path) => fetch(new URL(path, base), { redirect: "manual" });
  for (const [path, type] of [
    ["/web-demo/", "text/html"],
    ["/web-demo/demo.js", "text/javascript"],
    ["/wasm/pkg/compactor.js", "text/javascript"],
    ["/wasm/pkg/compactor_bg.wasm", "application/wasm"],
    ["/samples/sample.json", "application/json"],
  ]) {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get("content-type").split(";")[0], type, path);
  }
  assert.equal((await get("/")).headers.get("location"), "/web-demo/");
  for (const path of ["/web-demo/..%2f..%2f..%2fetc%2fpasswd", "/%2e%2e%2f%2e%2e%2fetc/passwd", "/.git/config"]) {
    assert.equal((await get(path)).status, 403, path);
  }
  assert.equal((await get("/no/such/file")).status, 404);
});

test("the sample loads and Assess shows its tokens against the limit", async (t) => {
  const { page, problems } = await openDemo(t);
  const sample = JSON.parse(await readFile(new URL("../../samples/sample.json", import.meta.url), "utf8"));
  assert.deepEqual(JSON.parse(await page.inputValue("#conversation")), sample);
  assert.equal(await page.inputValue("#max-context"), "3000");
  await page.click("#assess");
  assert.match(await page.locator("#total-tokens").textContent(), /^7,075 in 24 messages \(o200k_base\)$/);
  assert.match(await page.locator("#assessment").textContent(), /2,500 \(window 3,000 − reserve 500\)/);
  assert.match(await page.locator("#needed").textContent(), /^yes: overTrigger, overAbsoluteLimit$/);
  // Numbers the sample fits in: nothing to do.
  await page.fill("#max-context", "128000");
  await page.click("#assess");
  assert.match(await page.locator("#needed").textContent(), /^no/);
  assert.deepEqual(problems, []);
});

test("Compact with the extractive summarizer: fewer tokens, every event in order, a download", async (t) => {
  const { page, problems } = await openDemo(t);
  await compact(page);
  assert.equal(await page.locator("#error").isHidden(), true, await page.locator("#error").textContent());
  const [before, after] = await beforeAfter(page);
  assert.equal(before, 7075);
  assert.ok(after < before && after <= 1875, `after ${after}`);
  assert.match(await page.locator("#before-after").textContent(), /24 → \d+ messages: compacted, target met/);
  // The loss receipt beside the result, its examples on hover.
  assert.match(await page.locator("#lost-facts").textContent(), /^lost facts: \d+ of \d+ \(path \d+/);
  assert.match(await page.locator("#lost-facts").getAttribute("title"), /^path: /);

  const events = await timeline(page);
  assert.equal(events[0], "assessed");
  assert.equal(events.at(-1), "finished");
  assert.ok(events.includes("requestAnswered"), events.join(" "));
  for (const level of ["light", "moderate"]) {
    const entered = await page.locator("#timeline li", { hasText: `entered ${level}` }).count();
    const left = await page.locator("#timeline li", { hasText: `left ${level}` }).count();
    assert.deepEqual([entered, left], [1, 1], level);
  }
  assert.ok(events.indexOf("levelEntered") < events.indexOf("requestIssued"));
  assert.ok(events.indexOf("requestIssued") < events.indexOf("requestAnswered"));
  assert.ok(events.lastIndexOf("levelLeft") < events.indexOf("finished"));

  // The extractive summary stands in the result, and keeps file paths from the transcript.
  const summary = await page.locator("#messages li.summary pre").first().textContent();
  assert.match(summary, /^\[compactor summary/);
  assert.match(summary, /\w+\.py/);

  const shown = await page.locator("#messages li").count();
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  assert.equal(download.suggestedFilename(), "sample.compacted.json");
  const saved = JSON.parse(await readFile(await download.path(), "utf8"));
  assert.equal(saved.length, shown);
  assert.equal(saved.length < 24, true);
  assert.deepEqual(problems, []);
});

test("Compact with an OpenAI-compatible endpoint sends the summary prompt and uses its answer", async (t) => {
  const { page, problems } = await openDemo(t);
  endpoint.requests = [];
  endpoint.delayMs = 0;
  await page.check('input[value="endpoint"]');
  await page.fill("#base-url", endpoint.base);
  await page.fill("#model", "demo-model");
  await page.fill("#api-key", "sk-demo");
  await page.fill("#instructions", "Keep the test names.");
  await compact(page);
  assert.equal(await page.locator("#error").isHidden(), true, await page.locator("#error").textContent());

  assert.ok(endpoint.requests.length >= 1);
  const { body, authorization } = endpoint.requests[0];
  assert.equal(authorization, "Bearer sk-demo");
  assert.equal(body.model, "demo-model");
  assert.ok(Number.isInteger(body.max_tokens) && body.max_tokens > 0);
  assert.deepEqual(body.messages.map((m) => m.role), ["system", "user"]);
  assert.match(body.messages[0].content, /You compress the history of an AI agent's conversation/);
  // The focus field: fenced into the instruction, never into the transcript.
  assert.match(body.messages[0].content, /<focus>\nKeep the test names\.\n<\/focus>$/);
  assert.doesNotMatch(body.messages[1].content, /Keep the test names/);
  assert.match(body.messages[1].content, /^<transcript>\n\[assistant\] /);

  const summaries = await page.locator("#messages li.summary pre").allTextContents();
  assert.ok(summaries.some((s) => s.includes(CANNED)), summaries.join("\n---\n"));
  const [before, after] = await beforeAfter(page);
  assert.ok(after < before);
  assert.deepEqual(problems, []);
});

test("bad input shows the error code and the page compacts again afterwards", async (t) => {
  const { page, problems } = await openDemo(t);
  const sample = await page.inputValue("#conversation");

  await page.fill("#conversation", "[{ not json");
  await compact(page);
  assert.match(await page.locator("#error").textContent(), /^INVALID_JSON: the conversation is not JSON/);

  await page.fill("#conversation", JSON.stringify([{ role: "bot", content: "hi" }]));
  await page.click("#assess");
  assert.match(await page.locator("#error").textContent(), /^INVALID_INPUT: messages\[0\]\.role: unknown role "bot"/);
  await compact(page);
  assert.match(await page.locator("#error").textContent(), /^INVALID_INPUT: messages\[0\]\.role/);

  await page.fill("#max-context", "");
  await page.fill("#conversation", sample);
  await page.click("#assess");
  assert.match(await page.locator("#error").textContent(), /^INVALID_INPUT/);

  await page.fill("#max-context", "3000");
  await compact(page);
  assert.equal(await page.locator("#error").isHidden(), true);
  const [before, after] = await beforeAfter(page);
  assert.ok(after < before);
  // Errors are shown on the page, not thrown out of it.
  assert.deepEqual(problems, []);
});

test("an endpoint that answers 404 fails the run with SUMMARY_FAILED, each failure in the timeline", async (t) => {
  const { page } = await openDemo(t);
  await page.check('input[value="endpoint"]');
  await page.fill("#base-url", endpoint.base.replace("/v1", "/elsewhere"));
  await compact(page);
  assert.match(await page.locator("#error").textContent(), /^SUMMARY_FAILED: .*\/elsewhere\/chat\/completions answered 404/);
  assert.ok((await timeline(page)).includes("requestFailed"));
  assert.equal(await page.locator("#messages li").count(), 0);
});

test("Cancel during a slow endpoint ends the run with ABORTED, and nothing is applied", async (t) => {
  const { page, problems } = await openDemo(t);
  endpoint.requests = [];
  endpoint.dropped = 0;
  endpoint.delayMs = 60_000;
  t.after(() => (endpoint.delayMs = 0));
  await page.check('input[value="endpoint"]');
  await page.fill("#base-url", endpoint.base);
  await page.click("#compact");
  // Events stream in while the request is in flight.
  await page.locator('#timeline li[data-type="requestIssued"]').waitFor({ timeout: 20_000 });
  assert.equal(await page.locator("#cancel").isEnabled(), true);
  const started = Date.now();
  await page.click("#cancel");
  await page.locator("#compact:enabled").waitFor({ timeout: 10_000 });
  assert.ok(Date.now() - started < 5_000);
  assert.match(await page.locator("#error").textContent(), /^ABORTED: /);
  assert.equal(await page.locator('#timeline li[data-type="finished"]').count(), 0);
  assert.equal(await page.locator("#messages li").count(), 0);
  assert.equal(await page.locator("#download").isHidden(), true);
  assert.equal(endpoint.requests.length >= 1, true);
  // The page handed the signal to fetch: the endpoint saw its request dropped.
  for (let i = 0; i < 50 && endpoint.dropped === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(endpoint.dropped, 1);
  assert.deepEqual(problems, []);
});
