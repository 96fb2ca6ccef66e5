// A summarizer for the examples' tests: an OpenAI-compatible `/chat/completions` on
// loopback whose summary names every tag (`[u…]`, `[a…]`) of the transcript once, so that
// what a summary covers stays countable: a message appended is kept exactly once when its
// tag is in exactly one message of the final conversation, itself or one summary. (A
// summary may hold a tag twice: its trail quotes the lines it folds verbatim, tag and all.)
import { createServer } from "node:http";

/** The tags in a text: `[u7]`, `[a:w1n12]`. */
export const tagsIn = (text) => text.match(/\[[ua](?::w\d+n)?\d+\]/g) ?? [];

/** A message's text, whatever the shape of its content. */
export function textOf(message) {
  if (typeof message.content === "string") return message.content;
  return (message.content ?? []).map((part) => part.text ?? "").join("\n");
}

/** How many of `messages` hold each tag. */
export function tagCounts(messages) {
  const counts = new Map();
  for (const message of messages) for (const tag of new Set(tagsIn(textOf(message)))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return counts;
}

/**
 * Starts the server on 127.0.0.1 (a free port); answers after `delayMs`, so that appends
 * arrive while a compaction waits for it. `fail()` makes it answer 503 until `recover()`.
 */
export async function startSummarizer(delayMs = 10) {
  const state = { requests: 0, failing: false };
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    state.requests++;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (state.failing) {
      res.statusCode = 503;
      res.end("unavailable");
      return;
    }
    const { messages } = JSON.parse(body);
    const tags = [...new Set(tagsIn(messages.at(-1).content))];
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: `- Covered: ${tags.join(" ") || "nothing of note"}` } }] }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    get requests() {
      return state.requests;
    },
    fail: () => (state.failing = true),
    recover: () => (state.failing = false),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
