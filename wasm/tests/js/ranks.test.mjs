// `Compactor.loadEncoding`: exact counting with a vocabulary given at run time (the lite package,
// and the full package for encodings it does not embed). `wasm/build.sh` first. The rank
// files are gpt-tokenizer's copies of OpenAI's `.tiktoken` files.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { corpusFile, corpusTexts } from "../corpus.mjs";

const full = await import("../../pkg/node.js");
const lite = await import("../../pkg-lite/node.js");

const require = createRequire(import.meta.url);
const rankFile = (name) => readFileSync(require.resolve(`gpt-tokenizer/data/${name}.tiktoken`));

const texts = corpusTexts();
const conversation = corpusFile("mini-swe-agent--django-13230.json");

test("before loading, the lite package counts with the estimator", () => {
  assert.equal(new lite.Compactor({ model: "gpt-4o" }).counter, "estimate");
});

test("o200k_base ranks loaded at run time count like the embedded vocabulary", () => {
  const before = new lite.Compactor({ model: "gpt-4o" });
  lite.Compactor.loadEncoding(rankFile("o200k_base")); // o200k_base unless named
  assert.ok(texts.length > 500, `${texts.length} corpus texts`);
  for (const text of texts) assert.equal(lite.countTokens(text), full.countTokens(text));

  const after = new lite.Compactor({ model: "gpt-4o" });
  assert.equal(after.counter, "o200k_base");
  assert.equal(after.cloneHandle().counter, "o200k_base");
  assert.equal(after.assess(conversation, { lenient: true }).totalTokens, new full.Compactor({ model: "gpt-4o" }).assess(conversation, { lenient: true }).totalTokens);
  // A compactor built before keeps the counter its memo and calibration belong to.
  assert.equal(before.counter, "estimate");
});

test("the full package loads the vocabulary it does not embed", () => {
  const jsTiktoken = new Tiktoken(cl100k);
  const estimated = full.countTokens(texts[0], "cl100k_base");
  full.Compactor.loadEncoding(rankFile("cl100k_base").toString("utf8"), "cl100k_base"); // text works too
  assert.equal(new full.Compactor({ model: "gpt-4o", encoding: "cl100k_base" }).counter, "cl100k_base");
  for (const text of texts.slice(0, 300)) {
    assert.equal(full.countTokens(text, "cl100k_base"), jsTiktoken.encode(text).length);
  }
  assert.notEqual(full.countTokens(texts[0], "cl100k_base"), estimated);
});

test("bad input is INVALID_INPUT naming the argument and the line", () => {
  const invalid = (fn, path, message) =>
    assert.throws(fn, (e) => e.name === "CompactorError" && e.code === "INVALID_INPUT" && e.path === path && message.test(e.message));
  invalid(() => lite.Compactor.loadEncoding("YQ== 0", "estimate"), "encoding", /o200k_base/);
  invalid(() => lite.Compactor.loadEncoding("YQ== 0", "gpt2"), "encoding", /"gpt2"/);
  invalid(() => lite.Compactor.loadEncoding(42, "o200k_base"), "ranks", /Uint8Array/);
  invalid(() => lite.Compactor.loadEncoding(new Uint8Array(), "o200k_base"), "ranks", /empty/);
  invalid(() => lite.Compactor.loadEncoding("YQ== 0\nnot-base64! 1\n", "o200k_base"), "ranks", /line 2/);
  invalid(() => lite.Compactor.loadEncoding(new Uint8Array([...Buffer.from("YQ== 0\n"), 0xff]), "o200k_base"), "ranks", /line 2: not UTF-8/);
  invalid(() => lite.Compactor.loadEncoding("YQ== 0\nYg== 0\n", "o200k_base"), "ranks", /line 2: repeats/);
  // Counting text with a byte the file lacks would panic inside the tokenizer.
  invalid(() => lite.Compactor.loadEncoding("YQ== 0\n", "o200k_base"), "ranks", /byte 0x00 has no rank/);
  // A refused file leaves the loaded vocabulary in place.
  assert.equal(lite.countTokens("hello world"), 2);
});
