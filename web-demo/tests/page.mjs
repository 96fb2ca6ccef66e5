// What both page tests share: serve.mjs started on a free port, and a fresh page of the
// demo with its errors collected.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";

/** Starts serve.mjs; resolves with the process and the page's URL. */
export async function startServer() {
  const child = spawn(process.execPath, [new URL("../serve.mjs", import.meta.url).pathname, "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = await once(child.stdout, "data");
  const url = line.toString().trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/web-demo\/$/);
  return { process: child, url };
}

/**
 * A fresh page with the sample loaded, in a context closed when test `t` ends; collects
 * page errors and console errors and warnings (the package warns when it must fall back
 * from streaming compilation).
 */
export async function openDemo(browser, url, t, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => ["error", "warning"].includes(m.type()) && problems.push(`console ${m.type()}: ${m.text()}`));
  await page.goto(url);
  await page.locator("#status").filter({ hasText: "Ready" }).waitFor({ timeout: 20_000 });
  return { page, problems };
}
