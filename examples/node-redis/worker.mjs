// One agent worker process: appends turns to sessions kept in Redis and compacts a session
// when its assessment says so. Any number of these share the sessions; the store's
// compare-and-set and compactSession's rebase keep every appended message.
//
//   REDIS_URL=redis://127.0.0.1:6379 CLIENT=ioredis SUMMARIZER_URL=http://127.0.0.1:8080/v1 \
//   WORKER=0 SESSIONS=20 DURATION_MS=20000 node worker.mjs
//
// CLIENT is `redis` (node-redis) or `ioredis`. Prints one JSON line when done: the turns it
// appended, and its counts.
import { Compactor, checkFormat } from "@compactor-rs/compactor";
import { redisStore } from "@compactor-rs/compactor/stores";

const env = process.env;
const worker = Number(env.WORKER ?? 0);
const sessions = Number(env.SESSIONS ?? 20);
const duration = Number(env.DURATION_MS ?? 20_000);
const pauseMs = Number(env.PAUSE_MS ?? 20);

/** A connected client of the kind asked for, and how to close it. */
export async function connect(kind, url) {
  if (kind === "ioredis") {
    const { Redis } = await import("ioredis");
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    await client.connect();
    return { client, close: () => client.quit() };
  }
  const { createClient } = await import("redis");
  const client = createClient({ url });
  await client.connect();
  return { client, close: () => client.quit() };
}

/** `summarize` through an OpenAI-compatible `/chat/completions`. */
export function openAiSummarizer(baseUrl, model = "gpt-4o-mini") {
  return async (request, { signal } = {}) => {
    const response = await fetch(`${baseUrl.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(env.OPENAI_API_KEY ? { authorization: `Bearer ${env.OPENAI_API_KEY}` } : {}) },
      body: JSON.stringify({ model: request.model ?? model, messages: request.prompt, max_tokens: request.maxOutputTokens }),
      signal,
    });
    if (!response.ok) throw new Error(`summarizer: HTTP ${response.status}`);
    return (await response.json()).choices?.[0]?.message?.content ?? "";
  };
}

/** The compactor every worker uses: the numbers come from the environment when set. */
export function compactorFromEnv() {
  return new Compactor({
    model: "gpt-4o",
    maxContextTokens: Number(env.MAX_CONTEXT_TOKENS ?? 128_000),
    outputReserve: Number(env.OUTPUT_RESERVE ?? 16_384),
    keepRecentTurns: Number(env.KEEP_RECENT_TURNS ?? 4),
    maxSummaryTokens: Number(env.MAX_SUMMARY_TOKENS ?? 2_000),
    maxMessages: null,
  });
}

/** One agent turn, its two messages tagged `[u:tag]` and `[a:tag]`. */
export const turn = (tag, n) => [
  { role: "user", content: `[u:${tag}] Next: look at src/module_${n % 40}.rs and tell me what value ${n} means there.` },
  { role: "assistant", content: `[a:${tag}] In src/module_${n % 40}.rs the value ${n} is the retry limit; I changed nothing.` },
];

async function main() {
  const { client, close } = await connect(env.CLIENT ?? "redis", env.REDIS_URL);
  const compactor = compactorFromEnv();
  const store = redisStore(client, { compactor });
  const summarize = openAiSummarizer(env.SUMMARIZER_URL);
  const counts = { appends: 0, loads: 0, compactions: 0, skipped: 0, rebased: 0, conflicts: 0, refused: 0, failed: 0, malformed: 0 };
  const appended = [];
  const errors = [];
  const deadline = Date.now() + duration;
  for (let n = 0; Date.now() < deadline; n++) {
    const session = `s${(n * 7 + worker * 3) % sessions}`;
    const tag = `w${worker}n${n}`;
    await store.append(session, turn(tag, n));
    appended.push(tag);
    counts.appends++;
    const stored = await store.load(session);
    counts.loads++;
    if (checkFormat(stored.messages).length > 0) counts.malformed++;
    const { signals } = compactor.assess(stored.messages);
    if (signals.overTrigger || signals.overAbsoluteLimit) {
      try {
        const result = await compactor.compactSession(store, session, { summarize });
        if (result.status.kind === "compacted") counts.compactions++;
        else {
          // Nothing written, but the engine's record of the session may have changed (a
          // run whose summaries failed counts towards the breaker): store it.
          counts.skipped++;
          await store.saveState(session);
        }
        counts.rebased += result.rebased;
        counts.conflicts += result.conflicts;
        if (checkFormat(result.messages).length > 0) counts.malformed++;
      } catch (error) {
        // CONFLICT: another worker compacted this session first; its result stands.
        if (error.code === "CONFLICT") counts.refused++;
        else {
          counts.failed++;
          errors.push(`${error.code}: ${error.message}`);
          await store.saveState(session);
        }
      }
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await close();
  process.stdout.write(`${JSON.stringify({ worker, client: env.CLIENT ?? "redis", counts, appended, errors })}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
