// Session stores for `compactor.compactSession` (`@compactor-rs/compactor/stores`).

import type { Compactor, SessionStore, StoredSession } from "./compactor.js";

/** A stored message: any JSON object of the format the session uses. */
export type StoredMessage = Record<string, unknown>;

export interface StoreOptions {
  /** Prepended to every key (`"session:"` for Durable Objects, `"compactor:"` for Redis). */
  prefix?: string;
  /**
   * Its state (circuit breakers, latest results, summary cache) is written with every save
   * and `saveState`, and imported on every load, so another worker continues the session
   * where this one left it.
   */
  compactor?: Compactor;
}

/** A session store that also appends, as an agent does between compactions. */
export interface AppendableStore extends SessionStore<number> {
  load(sessionId: string): Promise<(StoredSession<number> & { messages: StoredMessage[]; state?: unknown }) | null>;
  save(sessionId: string, messages: StoredMessage[], expectedVersion: number): Promise<true | { conflict: number }>;
  /** Appends `messages` atomically (creating the session) and resolves to the new version. */
  append(sessionId: string, messages: StoredMessage[]): Promise<number>;
  /** Writes the compactor's state alone: after a failed run, so that an opened breaker travels. */
  saveState(sessionId: string): Promise<void>;
}

/** The part of a Durable Object's storage the store uses (`ctx.storage`). */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  transaction<T>(closure: (txn: {
    get(key: string): Promise<any>;
    get(keys: string[]): Promise<Map<string, any>>;
    put(key: string, value: unknown): Promise<void>;
    put(entries: Record<string, unknown>): Promise<void>;
    delete(keys: string[]): Promise<number>;
  }) => Promise<T>): Promise<T>;
}

/** A store on a Durable Object's transactional storage: one key per message, a version, the state. */
export function durableObjectStore(storage: DurableObjectStorageLike, options?: StoreOptions): AppendableStore;

/** A client of `redis` (node-redis 4 or later: `sendCommand`) or `ioredis` (`call`). */
export type RedisClientLike =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { call(command: string, ...args: string[]): Promise<unknown>; defineCommand(...args: any[]): unknown };

/** A store on Redis: a list of JSON messages and a hash (version, state), changed by Lua scripts. */
export function redisStore(client: RedisClientLike, options?: StoreOptions): AppendableStore;
