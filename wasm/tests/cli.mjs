// The `compactor` command line built from the same repository: the Rust reference the
// packages' results are compared with. `COMPACTOR_CLI` if set, else built with cargo.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../", import.meta.url));
let built;

/** The binary's path. */
export function cliPath() {
  if (process.env.COMPACTOR_CLI) return process.env.COMPACTOR_CLI;
  if (!built) {
    execFileSync("cargo", ["build", "-q", "--locked", "-p", "compactor-tui"], { cwd: repo, stdio: "inherit" });
    built = `${repo}target/debug/compactor`;
  }
  return built;
}

/** Runs `compactor ARGS…` and returns its standard output. */
export const cli = (args) =>
  execFileSync(cliPath(), args, { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] }).toString();

/**
 * Replays `messages` call by call through a session of `compactor` as `compactor replay`
 * does with its default options: before each model call (an assistant message) the
 * history since the last one is appended, and the session is compacted when a signal
 * fires, reactively once more when still over the absolute limit. Each call's prompt and
 * summary tokens, and the compactions before it.
 */
export async function replaySession(compactor, summarizer, messages, read) {
  const calls = [];
  const session = compactor.session("replay", [], read);
  let summaryInputTokens = 0;
  let summaryOutputTokens = 0;
  const summarize = (request) => {
    const text = summarizer(request);
    summaryInputTokens += request.inputTokens;
    summaryOutputTokens += compactor.countTokens(text);
    return text;
  };
  let appended = 0;
  for (let at = 1; at < messages.length; at++) {
    if (messages[at].role !== "assistant") continue;
    session.appendAll(messages.slice(appended, at));
    appended = at;
    let compactions = 0;
    const { signals } = session.assess();
    if (signals.overTrigger || signals.overMaxMessages || signals.overAbsoluteLimit) {
      for (const trigger of ["proactive", "reactive"]) {
        if (trigger === "reactive" && !session.assess().signals.overAbsoluteLimit) break;
        const { status } = await session.compact({ summarize, trigger });
        if (status.kind === "compacted") compactions += 1;
      }
    }
    calls.push({ message: at, promptTokens: session.assess().totalTokens, summaryInputTokens, summaryOutputTokens, compactions });
    summaryInputTokens = 0;
    summaryOutputTokens = 0;
  }
  return { calls, messages: session.messages };
}

/** What `replaySession` compares of `compactor replay --json`'s calls. */
export const replayCalls = (calls) =>
  calls.map(({ message, promptTokens, summaryInputTokens, summaryOutputTokens, compactions }) =>
    ({ message, promptTokens, summaryInputTokens, summaryOutputTokens, compactions }));
