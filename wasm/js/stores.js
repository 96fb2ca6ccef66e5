// Session stores for `compactor.compactSession`: a Durable Object's transactional storage
// and Redis. Each keeps a session's messages, its version and the engine's exported state
// together, so any worker can continue a session where another left it. No dependencies:
// the storage object or the Redis client is the caller's.

const STATE_KEY = "state";

/**
 * The engine's state to store beside a session's messages, when a compactor that exports
 * it is given. The engine exports every session it knows; only this session's record is
 * kept (`sessions` filtered by id), so that loading one session never brings back another
 * session's older breaker or latest result. Summaries in the cache are keyed by their
 * content and stay valid: they are kept as they are.
 */
function exportState(compactor, id) {
  if (typeof compactor?.exportState !== "function") return undefined;
  const state = compactor.exportState();
  if (state && typeof state === "object" && Array.isArray(state.sessions)) {
    return { ...state, sessions: state.sessions.filter((session) => session?.id === id) };
  }
  return state;
}

/**
 * Hands a stored state to the compactor, when it imports state. A state it refuses (one
 * written by another version of the engine) is skipped, not an error: the state only
 * spares work and failures, the messages do not depend on it, and the next save replaces it.
 */
function importState(compactor, state) {
  if (state === undefined || state === null || typeof compactor?.importState !== "function") return;
  try {
    compactor.importState(state);
  } catch {
    // Refused whole by the engine: nothing was imported.
  }
}

// Versions are numbers: 0 means "no session" (a conflict on a session deleted meanwhile
// finds 0), the first append makes version 1, and every append and save adds one.

function checkId(id) {
  if (typeof id !== "string") throw new TypeError(`sessionId: expected a string, found ${typeof id}`);
}

function checkMessages(messages, path) {
  if (!Array.isArray(messages)) {
    throw new TypeError(`${path}: expected an array of messages (the stores keep arrays, not request bodies)`);
  }
}

// Durable Object storage: one key per message (a value holds at most 128 KiB in the
// key-value backend, less than a long conversation), a meta key with the version and the
// count, and the state. Every change runs in `storage.transaction`, so a save's
// compare-and-set and an append never interleave.

/** Keys per `get`/`put`/`delete` call: the storage API's limit. */
const DO_BATCH = 128;

/**
 * A session store on a Durable Object's storage (`ctx.storage` / `state.storage`).
 * @param {DurableObjectStorage} storage
 * @param {{ prefix?: string, compactor?: object }} [options]
 */
export function durableObjectStore(storage, options = {}) {
  if (!storage || typeof storage.get !== "function" || typeof storage.transaction !== "function") {
    throw new TypeError("durableObjectStore: expected a Durable Object's storage (ctx.storage)");
  }
  const prefix = options.prefix ?? "session:";
  const compactor = options.compactor;
  // The id is encoded, so that no id's keys can be another's (`a/0000000001`).
  const metaKey = (id) => `${prefix}${encodeURIComponent(id)}`;
  const messageKey = (id, i) => `${metaKey(id)}/${String(i).padStart(10, "0")}`;
  const stateKey = (id) => `${metaKey(id)}#${STATE_KEY}`;

  async function readMessages(txn, id, count) {
    const messages = [];
    for (let start = 0; start < count; start += DO_BATCH) {
      const keys = [];
      for (let i = start; i < Math.min(count, start + DO_BATCH); i++) keys.push(messageKey(id, i));
      const found = await txn.get(keys);
      for (const key of keys) {
        if (!found.has(key)) throw new Error(`durableObjectStore: ${key} is missing`);
        messages.push(found.get(key));
      }
    }
    return messages;
  }

  /** Writes `messages` from index `at` on, and deletes what was stored past them. */
  async function writeMessages(txn, id, messages, at, oldCount) {
    for (let start = 0; start < messages.length; start += DO_BATCH) {
      const entries = {};
      for (let i = start; i < Math.min(messages.length, start + DO_BATCH); i++) entries[messageKey(id, at + i)] = messages[i];
      await txn.put(entries);
    }
    const stale = [];
    for (let i = at + messages.length; i < oldCount; i++) stale.push(messageKey(id, i));
    for (let start = 0; start < stale.length; start += DO_BATCH) await txn.delete(stale.slice(start, start + DO_BATCH));
  }

  return {
    async load(id) {
      checkId(id);
      return storage.transaction(async (txn) => {
        const meta = await txn.get(metaKey(id));
        if (!meta) return null;
        const state = await txn.get(stateKey(id));
        importState(compactor, state);
        return { messages: await readMessages(txn, id, meta.count), version: meta.version, state };
      });
    },
    async save(id, messages, expectedVersion) {
      checkId(id);
      checkMessages(messages, "messages");
      const state = exportState(compactor, id);
      return storage.transaction(async (txn) => {
        const meta = await txn.get(metaKey(id));
        if (!meta || meta.version !== expectedVersion) return { conflict: meta ? meta.version : 0 };
        await writeMessages(txn, id, messages, 0, meta.count);
        await txn.put(metaKey(id), { version: meta.version + 1, count: messages.length });
        if (state !== undefined) await txn.put(stateKey(id), state);
        return true;
      });
    },
    async append(id, messages) {
      checkId(id);
      checkMessages(messages, "messages");
      return storage.transaction(async (txn) => {
        const meta = (await txn.get(metaKey(id))) ?? { version: 0, count: 0 };
        await writeMessages(txn, id, messages, meta.count, meta.count);
        const version = meta.version + 1;
        await txn.put(metaKey(id), { version, count: meta.count + messages.length });
        return version;
      });
    },
    async saveState(id) {
      checkId(id);
      const state = exportState(compactor, id);
      if (state !== undefined) await storage.put(stateKey(id), state);
    },
  };
}

// Redis: a list of JSON messages and a hash with the version and the state, under keys
// sharing one hash tag (`{id}`) so that a cluster keeps them on one node. Every read and
// write is one Lua script: atomic without WATCH/MULTI round trips.

const REDIS_LOAD = `
local version = redis.call('HGET', KEYS[2], 'version')
if not version then return false end
local state = redis.call('HGET', KEYS[2], 'state') or ''
return { version, state, redis.call('LRANGE', KEYS[1], 0, -1) }
`;

// ARGV: expected version, state ('' keeps the stored one), then the messages.
const REDIS_SAVE = `
local version = redis.call('HGET', KEYS[2], 'version')
if version ~= ARGV[1] then return { 0, version or '' } end
redis.call('DEL', KEYS[1])
for i = 3, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[2], 'state', ARGV[2]) end
return { 1, tostring(redis.call('HINCRBY', KEYS[2], 'version', 1)) }
`;

// ARGV: the messages.
const REDIS_APPEND = `
for i = 1, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
return tostring(redis.call('HINCRBY', KEYS[2], 'version', 1))
`;

/** State as text: JSON, with bytes (a `Uint8Array` state) as base64 under a marker. */
function encodeState(state) {
  if (!(state instanceof Uint8Array)) return JSON.stringify({ json: state });
  let binary = "";
  for (let i = 0; i < state.length; i += 0x8000) binary += String.fromCharCode(...state.subarray(i, i + 0x8000));
  return JSON.stringify({ bytes: btoa(binary) });
}

function decodeState(text) {
  const stored = JSON.parse(text);
  if (typeof stored.bytes !== "string") return stored.json;
  const binary = atob(stored.bytes);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * How to send one raw command: ioredis has `call(name, ...args)`, node-redis (v4 and later)
 * `sendCommand([name, ...args])`. ioredis also has a `sendCommand`, taking a Command
 * object, so it is recognized first, by `defineCommand`, which node-redis lacks.
 */
function rawCommand(client) {
  if (typeof client?.defineCommand === "function" && typeof client.call === "function") {
    return (args) => client.call(...args);
  }
  if (typeof client?.sendCommand === "function") {
    return (args) => client.sendCommand(args);
  }
  throw new TypeError("redisStore: expected a client of `redis` (node-redis 4 or later) or `ioredis`");
}

/**
 * A session store on Redis, with an atomic compare-and-set (a Lua script).
 * @param {object} client a connected `redis` (node-redis 4+) or `ioredis` client
 * @param {{ prefix?: string, compactor?: object }} [options]
 */
export function redisStore(client, options = {}) {
  const send = rawCommand(client);
  const prefix = options.prefix ?? "compactor:";
  const compactor = options.compactor;
  const keys = (id) => [`${prefix}{${id}}:messages`, `${prefix}{${id}}:meta`];
  const evalScript = (script, id, args) => send(["EVAL", script, "2", ...keys(id), ...args.map(String)]);
  const stateText = (id) => {
    const state = exportState(compactor, id);
    return state === undefined ? "" : encodeState(state);
  };

  return {
    async load(id) {
      checkId(id);
      const row = await evalScript(REDIS_LOAD, id, []);
      if (!row) return null;
      const [version, state, messages] = row;
      const parsed = state === "" ? undefined : decodeState(state);
      importState(compactor, parsed);
      return { messages: messages.map((m) => JSON.parse(m)), version: Number(version), state: parsed };
    },
    async save(id, messages, expectedVersion) {
      checkId(id);
      checkMessages(messages, "messages");
      const [written, version] = await evalScript(REDIS_SAVE, id, [
        String(expectedVersion),
        stateText(id),
        ...messages.map((m) => JSON.stringify(m)),
      ]);
      if (Number(written) === 1) return true;
      return { conflict: version === "" ? 0 : Number(version) };
    },
    async append(id, messages) {
      checkId(id);
      checkMessages(messages, "messages");
      if (messages.length === 0) throw new RangeError("messages: expected at least one message to append");
      return Number(await evalScript(REDIS_APPEND, id, messages.map((m) => JSON.stringify(m))));
    },
    async saveState(id) {
      checkId(id);
      const state = stateText(id);
      if (state !== "") await send(["HSET", keys(id)[1], STATE_KEY, state]);
    },
  };
}
