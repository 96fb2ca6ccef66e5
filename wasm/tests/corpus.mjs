// The project's corpus of agent trajectories (OpenAI Chat messages): `COMPACTOR_CORPUS` if
// set, else `../shared/corpus` beside the repository, as the Rust tests find it.
import { readdirSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

export const corpusDir = process.env.COMPACTOR_CORPUS
  ? pathToFileURL(`${process.env.COMPACTOR_CORPUS.replace(/\/$/, "")}/`)
  : new URL("../../../shared/corpus/", import.meta.url);

/** One corpus file's messages. */
export const corpusFile = (name) => JSON.parse(readFileSync(new URL(name, corpusDir), "utf8"));

/** Every text of the corpus a tokenizer sees: message contents and tool-call arguments. */
export function corpusTexts() {
  const texts = [];
  for (const file of readdirSync(corpusDir).filter((f) => f.endsWith(".json")).sort()) {
    for (const message of corpusFile(file)) {
      const parts = typeof message.content === "string" ? [message.content] : (message.content ?? []).map((p) => p.text ?? "");
      for (const call of message.tool_calls ?? []) parts.push(call.function?.arguments ?? "");
      texts.push(...parts.filter((t) => t.length > 0));
    }
  }
  return texts;
}
