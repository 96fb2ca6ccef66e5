// compactor.session against the built package (`wasm/build.sh` first): on every corpus
// trajectory a session handle gives what the stateless calls give, and its changes bring
// the caller's own array up to date.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { corpusDir, corpusFile } from "../corpus.mjs";

const { Compactor } = await import("../../pkg/node.js");

const files = readdirSync(corpusDir).filter((f) => f.endsWith(".json")).sort();
const read = { lenient: true };
const withoutList = ({ messages: _list, ...rest }) => rest;

/** A deterministic summarizer: the first lines of the transcript, within the size asked for. */
function firstLines(request) {
  const transcript = request.prompt.at(-1).content;
  const budget = request.maxOutputTokens * 3;
  let summary = "";
  for (const line of transcript.split("\n").map((l) => l.trim()).filter((l) => l.length > 0)) {
    const bullet = `- ${line.slice(0, 160)}\n`;
    if (summary.length + bullet.length > budget) break;
    summary += bullet;
  }
  return summary || "- (nothing)";
}

// An explicit target: a session with none follows its cost-aware policy (it weighs the
// growth it has seen, which the stateless calls cannot), and would aim elsewhere.
const numbers = { maxContextTokens: 4_000, outputReserve: 0, maxMessages: null, targetRatio: 0.75 };

/** `messages` as the package writes back messages it did not rewrite. Not always the
 * caller's own bytes: serde_json's float parsing can move a float's last digit
 * (`0.00037004800000000005` comes back `0.0003700480000000001`), in `compact` as here. */
const asWritten = (messages) => new Compactor(numbers).session("as-written", messages, read).messages;

test("appending one message at a time assesses and plans as the stateless calls, on every corpus file", () => {
  assert.ok(files.length >= 20, "expected the shared corpus");
  for (const file of files) {
    const messages = corpusFile(file);
    const compactor = new Compactor(numbers);
    const session = compactor.session(file, undefined, read);
    for (let i = 0; i < messages.length; i++) {
      session.append(messages[i]);
      const prefix = messages.slice(0, i + 1);
      assert.deepEqual(session.assess(), withoutList(compactor.assess(prefix, read)), `${file} at ${i}`);
    }
    // The whole plan, with each segment's state and the summaries, as displays read it.
    assert.deepEqual(session.plan(), compactor.plan(messages, read), file);
    assert.equal(session.length, messages.length);
    assert.deepEqual(asWritten(messages.slice(0, 3)), session.messages.slice(0, 3), file);
  }
});

test("a session compacts as compact() does, byte for byte, and its changes update the caller's array", async () => {
  let compacted = 0;
  for (const file of files) {
    const messages = corpusFile(file);
    const half = Math.floor(messages.length / 2);
    const first = messages.slice(0, half);
    const rest = messages.slice(half);
    const stateless = new Compactor(numbers);
    const expected = await stateless
      .compact(first, { summarize: firstLines, sessionId: file, trigger: "manual", ...read })
      .catch((error) => error);
    const session = new Compactor(numbers).session(file, first, read);
    const outcome = await session.compact({ summarize: firstLines, trigger: "manual" }).catch((error) => error);
    if (expected instanceof Error) {
      assert.ok(outcome instanceof Error, `${file}: ${expected.message}`);
      assert.equal(outcome.code, expected.code, file);
      assert.equal(JSON.stringify(session.messages), JSON.stringify(first), `${file}: unchanged`);
      continue;
    }
    assert.deepEqual(outcome.status, expected.status, file);
    assert.deepEqual(outcome.report, expected.report, file);
    assert.equal(JSON.stringify(session.messages), JSON.stringify(expected.messages), file);
    const mine = asWritten(first);
    const { start, deleteCount, insert } = session.changes;
    mine.splice(start, deleteCount, ...insert);
    assert.equal(JSON.stringify(mine), JSON.stringify(expected.messages), `${file}: changes`);
    if (expected.status.kind === "compacted") compacted++;
    // The trajectory goes on after the compaction, in both.
    session.append(...rest);
    const goingOn = [...expected.messages, ...asWritten(rest)];
    assert.deepEqual(session.assess(), withoutList(stateless.assess(goingOn, read)), `${file}: after`);
    assert.equal(JSON.stringify(session.messages), JSON.stringify(goingOn), `${file}: after`);
  }
  assert.ok(compacted >= 15, `only ${compacted} trajectories compacted`);
});

test("bad messages are refused whole; options that belong to the session are refused", async () => {
  const session = new Compactor(numbers).session("s", [{ role: "system", content: "rules" }]);
  assert.throws(
    () => session.append({ role: "user", content: "fine" }, { role: "bot", content: "no" }),
    (e) => e.code === "INVALID_INPUT" && e.path === "messages[1].role",
  );
  assert.equal(session.length, 1);
  session.appendAll([{ role: "user", content: "hello" }]);
  assert.equal(session.length, 2);
  await assert.rejects(session.compact({ summarize: firstLines, format: "anthropic" }), (e) => e.path === "options.format");
  await assert.rejects(session.compact({ summarize: firstLines, sessionId: "x" }), (e) => e.path === "options.sessionId");
});

test("a second compact while one is under way rejects with CONFLICT; messages appended meanwhile stay", async () => {
  const messages = corpusFile(files[0]);
  const session = new Compactor(numbers).session("s", messages, read);
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const running = session.compact({ summarize: async (r) => (await gate, firstLines(r)), trigger: "manual" });
  await assert.rejects(session.compact({ summarize: firstLines }), (e) => e.code === "CONFLICT");
  const late = { role: "user", content: "a message that arrived during the run" };
  session.append(late);
  release();
  const outcome = await running;
  assert.equal(outcome.status.kind, "compacted");
  assert.deepEqual(session.messages.at(-1), late);
  assert.ok(outcome.changes.start + outcome.changes.deleteCount <= messages.length);
});
