// Exact numbers through the built full package (`wasm/build.sh` first): every number in
// the messages a run leaves alone, and in the fields of the messages it rewrites, comes
// back as the very same JS number (serde_json alone reads some 17-digit floats one off;
// the lite package, which leaves exact reading out for its size, is one of those).
import { test } from "node:test";
import assert from "node:assert/strict";

const full = await import("../../pkg/node.js");

/** Doubles that a float parser gets wrong when it is not exact, and random ones. */
function numbers(count, seed) {
  const fixed = [1776068401.3278353, 0.00021688800000000001, 0.00039208399999999995, 5e-324,
    1.7976931348623157e308, 2 ** 53 + 2, 18446744073709552000, 123456789012345678901234567890,
    1e21, 1.1, -0, 0.1 + 0.2];
  const out = [...fixed];
  const view = new DataView(new ArrayBuffer(8));
  let state = BigInt(seed);
  while (out.length < count) {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    view.setBigUint64(0, state);
    const value = view.getFloat64(0);
    if (Number.isFinite(value)) out.push(value);
  }
  return out;
}

/** An agent session whose every message carries numbers in `extra`, tagged. */
function session(turns, values) {
  let next = 0;
  const extra = () => ({ tag: next++, values: values.slice((next * 5) % values.length).slice(0, 5) });
  const messages = [{ role: "system", content: "You are a coding agent.", extra: extra() }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: "user", content: `Continue with part ${t}.`, extra: extra() });
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `c${t}`, type: "function", function: { name: "bash", arguments: `{"command":"cat part${t}.txt"}` } }], extra: extra() });
    messages.push({ role: "tool", tool_call_id: `c${t}`, content: Array.from({ length: 120 }, (_, i) => `line ${i} of part ${t}: value ${i * t}`).join("\n"), extra: extra() });
    messages.push({ role: "assistant", content: `Part ${t} read: ${"it holds the values asked for. ".repeat(20)}`, extra: extra() });
  }
  return messages;
}

async function firstLines(request) {
  return request.prompt.at(-1).content.split("\n").slice(0, 5).join("\n");
}

for (const [name, pkg] of [["full", full]]) {
  test(`${name}: numbers in kept and rewritten messages come back as the same JS numbers`, async () => {
    const values = numbers(400, 7);
    const input = session(12, values);
    const total = new pkg.Compactor({ model: "gpt-4o" }).assess(input).totalTokens;
    // A window LIGHT's clearings alone bring the session under: it rewrites tool results
    // in place (deeper, a summary would fold them).
    const compactor = new pkg.Compactor({ maxContextTokens: Math.round(total / 1.1), outputReserve: 100, comfortTokens: 10_000_000, maxMessages: null });
    const { messages, status } = await compactor.compact(input, { summarize: firstLines });
    assert.equal(status.kind, "compacted");
    const byTag = new Map(input.map((m) => [m.extra.tag, m]));
    let kept = 0;
    let rewritten = 0;
    for (const message of messages) {
      if (message.extra === undefined) continue; // a summary
      const original = byTag.get(message.extra.tag);
      assert.equal(message.extra.values.length, original.extra.values.length);
      message.extra.values.forEach((value, i) => {
        // JSON has no -0: JSON.stringify writes it as 0 before compactor sees it.
        const sent = Object.is(original.extra.values[i], -0) ? 0 : original.extra.values[i];
        assert.ok(Object.is(value, sent), `message ${message.extra.tag}: ${value} came back for ${sent}`);
      });
      if (message.content === original.content) kept++;
      else rewritten++;
    }
    assert.ok(kept >= 5 && rewritten >= 1, `${kept} kept, ${rewritten} rewritten`);
  });
}
