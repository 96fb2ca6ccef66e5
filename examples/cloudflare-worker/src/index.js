// A Cloudflare Worker keeping each agent session in its own Durable Object. Agents append
// messages; when the assessment says the conversation is over a limit, the object compacts
// it with compactSession, the summaries written by an OpenAI-compatible model. Appends
// that arrive while a compaction waits for the model are rebased after its result.
//
//   POST /sessions/:id/append   { messages: [...] }  -> { version, compacting }
//   GET  /sessions/:id          -> { messages, version }
//   POST /sessions/:id/compact  -> waits for the compaction under way, runs one if needed
//   GET  /sessions/:id/stats    -> { appends, compactions, skipped, rebased, conflicts, refused,
//                                    failures, lastFailure? }
import { Compactor } from "@compactor-rs/compactor";
import { durableObjectStore } from "@compactor-rs/compactor/stores";

export default {
  async fetch(request, env) {
    const match = new URL(request.url).pathname.match(/^\/sessions\/([^/]+)(\/.*)?$/);
    if (!match) return new Response("not found", { status: 404 });
    const id = decodeURIComponent(match[1]);
    return env.SESSIONS.get(env.SESSIONS.idFromName(id)).fetch(request);
  },
};

/** `summarize` for compactor: one chat completion per request, from any OpenAI-compatible server. */
function openAiSummarizer(env) {
  return async (request, { signal } = {}) => {
    const response = await fetch(`${env.SUMMARIZER_URL.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(env.OPENAI_API_KEY ? { authorization: `Bearer ${env.OPENAI_API_KEY}` } : {}),
      },
      body: JSON.stringify({
        model: request.model ?? env.SUMMARIZER_MODEL,
        messages: request.prompt,
        max_tokens: request.maxOutputTokens,
      }),
      signal,
    });
    if (response.status === 400 || response.status === 413) {
      // The model refused the input as too long: compactor retries with a smaller one.
      const text = await response.text();
      if (/context|too long|maximum/i.test(text)) return { inputTooLong: true };
      throw new Error(`summarizer: HTTP ${response.status}: ${text.slice(0, 200)}`);
    }
    if (!response.ok) throw new Error(`summarizer: HTTP ${response.status}`);
    const body = await response.json();
    return body.choices?.[0]?.message?.content ?? "";
  };
}

/** Numbers from the environment, when set: the window and the limits of the model. */
function config(env) {
  const number = (name) => (env[name] === undefined ? undefined : Number(env[name]));
  const entries = {
    model: env.MODEL,
    maxContextTokens: number("MAX_CONTEXT_TOKENS"),
    outputReserve: number("OUTPUT_RESERVE"),
    keepRecentTurns: number("KEEP_RECENT_TURNS"),
    maxSummaryTokens: number("MAX_SUMMARY_TOKENS"),
    maxMessages: env.MAX_MESSAGES === "off" ? null : number("MAX_MESSAGES"),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

export class Session {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.compactor = new Compactor(config(env));
    this.store = durableObjectStore(ctx.storage, { compactor: this.compactor });
    this.summarize = openAiSummarizer(env);
    this.compacting = null;
    this.stats = { appends: 0, compactions: 0, rebased: 0, conflicts: 0, refused: 0, failures: 0, skipped: 0 };
  }

  async fetch(request) {
    const url = new URL(request.url);
    const [, id, action = ""] = url.pathname.match(/^\/sessions\/([^/]+)\/?(.*)$/);
    const session = decodeURIComponent(id);
    if (request.method === "POST" && action === "append") {
      const { messages } = await request.json();
      const version = await this.store.append(session, messages);
      this.stats.appends++;
      // Assessing counts only the messages the engine has not seen before.
      const stored = await this.store.load(session);
      const { signals } = this.compactor.assess(stored.messages);
      if (signals.overTrigger || signals.overMaxMessages || signals.overAbsoluteLimit) this.startCompaction(session);
      return Response.json({ version, compacting: this.compacting !== null });
    }
    if (request.method === "POST" && action === "compact") {
      await this.compacting;
      this.startCompaction(session);
      await this.compacting;
      return Response.json(this.stats);
    }
    if (request.method === "GET" && action === "") {
      const stored = await this.store.load(session);
      return stored ? Response.json({ messages: stored.messages, version: stored.version }) : new Response("no such session", { status: 404 });
    }
    if (request.method === "GET" && action === "stats") return Response.json(this.stats);
    return new Response("not found", { status: 404 });
  }

  /** One compaction at a time per session; appends go on meanwhile and are rebased. */
  startCompaction(session) {
    if (this.compacting) return;
    const run = async () => {
      try {
        const result = await this.compactor.compactSession(this.store, session, { summarize: this.summarize });
        if (result.status.kind === "compacted") this.stats.compactions++;
        else {
          // Nothing written, but the engine's record of the session may have changed (a
          // run whose summaries failed counts towards the breaker): store it.
          this.stats.skipped++;
          await this.store.saveState(session);
        }
        this.stats.rebased += result.rebased;
        this.stats.conflicts += result.conflicts;
      } catch (error) {
        if (error.code === "CONFLICT") {
          // Appends kept arriving through every rebase the write-back allows (or the
          // session was changed otherwise): nothing was written and nothing is lost; the
          // next append over the limit compacts again (summaries of the same messages come
          // from the engine's cache).
          this.stats.refused++;
          return;
        }
        // Anything else (the model down): the breaker counts it, and the state goes to
        // storage so that the object's next instance knows.
        this.stats.failures++;
        this.stats.lastFailure = `${error.code ?? error.name}: ${error.message}`;
        await this.store.saveState(session);
      } finally {
        this.compacting = null;
      }
    };
    this.compacting = run();
    this.ctx.waitUntil?.(this.compacting);
  }
}
