// Peak memory of a session handle against the built package (`wasm/build.sh` first): a
// conversation read into a session, appended to and assessed grows the module's linear
// memory by at most three times its JSON size. Linear memory never shrinks, so its size
// afterwards is the peak; `node --test` runs this file in a process of its own, and the
// measurement below is the first thing the module reads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const { Compactor, countTokens, initSync } = await import("../../pkg/node.js");
const { session } = await import("../../bench/corpora.mjs");

test("a session of corpus trajectories costs at most three times its JSON in wasm memory", (t) => {
  // The module the package instantiated (initSync hands back the instance it has).
  const wasm = initSync({ module: readFileSync(new URL("../../pkg/compactor_bg.wasm", import.meta.url)) });
  countTokens("warm"); // the vocabulary is read at the first count: not the session's
  // Sized by characters, not by this package's counting: nothing else has been through
  // the module, so no memory it freed earlier hides the session's.
  const messages = session(1_000_000, (text) => text.length / 4);
  const jsonBytes = Buffer.byteLength(JSON.stringify(messages));
  const before = wasm.memory.buffer.byteLength;
  const handle = new Compactor({ model: "gpt-4o" }).session("memory", messages);
  handle.append({ role: "user", content: "one more — with a character past ASCII" });
  const assessed = handle.assess();
  assert.equal(assessed.messageCount, messages.length + 1);
  const growth = wasm.memory.buffer.byteLength - before;
  t.diagnostic(`linear memory grew ${(growth / jsonBytes).toFixed(2)}× the JSON's ${jsonBytes} bytes`);
  assert.ok(jsonBytes > 5_000_000, `a conversation of megabytes (${jsonBytes} bytes)`);
  assert.ok(
    growth <= 3 * jsonBytes,
    `linear memory grew ${(growth / jsonBytes).toFixed(2)}× the JSON (${growth} bytes for ${jsonBytes})`,
  );
});
