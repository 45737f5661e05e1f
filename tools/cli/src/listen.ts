import { randomBytes } from 'node:crypto';
import { type ClientRequest, Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  type ListItem,
  WorkcellApiError,
  type WorkcellClient,
  WorkcellConnectionError,
  WorkcellPermissionError,
  WorkcellRateLimitError,
  WorkcellServerError,
  WorkcellTimeoutError,
} from '@workcell/sdk';
import { Webhook } from 'standardwebhooks';
import type { JsonFile } from './store.js';

/**
 * `workcell listen` (issue 26, like `stripe listen`): follows the change feed and forwards each event to a local
 * receiver as the very request a signed webhook subscription would send, signed with a local secret. The feed
 * applies the same authorization as webhooks, so the receiver gets what a subscription of this credential would.
 */

type FeedEntry = ListItem<'listChanges'>;

/** Where the feed was left: a page's cursor and, when only part of that page was forwarded, the last entry forwarded. */
export interface ListenPosition {
  readonly cursor: string;
  /** The sequence (`id`) of the last entry of the cursor's page already forwarded: a restart skips up to it. */
  readonly forwarded?: string;
}

/** What listen remembers per profile (listen.json). */
export interface ListenProfile {
  /** The local signing secret: the same every run, so a receiver configured with it keeps verifying. */
  readonly secret: string;
  /** Per `types` filter, since a feed cursor is bound to its filter. */
  readonly positions: Readonly<Record<string, ListenPosition>>;
}

export type ListenProfiles = Record<string, ListenProfile>;

/** A usage error of listen's options (exit 2). */
export class ListenUsageError extends Error {}

export interface ListenOptions {
  readonly forwardTo: URL;
  /** Event types to forward (`--events`); null forwards every event. */
  readonly events: readonly string[] | null;
  readonly fromCursor?: string;
  readonly profile: string;
  readonly json: boolean;
}

export interface ListenIo {
  out(line: string): void;
  err(line: string): void;
  readonly state: JsonFile<ListenProfiles>;
  /** Ctrl-C: ends the long poll (and a forward in flight) and listen with it. */
  readonly signal: AbortSignal;
  /** The forward's timeout: the service's default delivery timeout (WEBHOOK_DELIVERY_TIMEOUT_MS). */
  readonly forwardTimeoutMs?: number;
  /** How listen pauses before asking an unavailable API again (default: a timer Ctrl-C cuts short; tests pass a fast one). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The long poll's `wait` (the most the API allows) and the page size. */
const WAIT_SECONDS = 30;
const PAGE = 100;
/** The pause before asking an unavailable API again (after the client's own retries). */
const RETRY_MS = 5_000;

/** A new Standard Webhooks secret, in the form subscriptions get theirs (`whsec_` + base64 of 32 random bytes). */
function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The request a signed webhook subscription sends for this event (libs/domain delivery/body.ts `signedBody`,
 * delivery/deliver.ts and http.ts; docs/webhooks.md): the same body, byte for byte, in the same key order, and the
 * same headers in the same order, signed with `secret` at `sentAt`. The CLI cannot import the service's code, so
 * tools/e2e cli-listen.test.ts holds the two equal against a real subscription.
 */
export function deliveryOf(entry: FeedEntry, secret: string, sentAt: Date): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    type: entry.type,
    timestamp: entry.occurredAt,
    sequence: entry.id,
    data: { resourceType: entry.resourceType, resourceId: entry.resourceId, action: entry.action, payload: entry.payload },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Workcell-Webhooks/1',
      'webhook-id': entry.eventId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(entry.eventId, sentAt, body),
      'webhook-sequence': entry.id,
    },
  };
}

export interface ForwardOutcome {
  /** null when no answer came (refused, reset, timed out). */
  readonly status: number | null;
  /** Why it is not a success (2xx); null for one. */
  readonly error: string | null;
  readonly ms: number;
}

/**
 * POSTs deliveries to the receiver as the service does: kept-alive connections, redirects not followed, one
 * timeout for the whole exchange, and a request that finds its reused connection closed by the receiver while
 * idle (a dev server restarting) sent again on a new one. An abort rejects with the signal's reason.
 */
export class Forwarder {
  private readonly agent: HttpAgent;

  constructor(
    private readonly target: URL,
    private readonly timeoutMs: number,
  ) {
    this.agent = target.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

  post(delivery: { body: string; headers: Record<string, string> }, signal: AbortSignal): Promise<ForwardOutcome> {
    const started = performance.now();
    const send = this.target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<ForwardOutcome>((resolve, reject) => {
      let settled = false;
      let current: ClientRequest | undefined;
      const end = () => {
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const finish = (status: number | null, error: string | null) => {
        if (settled) return;
        end();
        resolve({ status, error, ms: Math.round(performance.now() - started) });
      };
      const onAbort = () => {
        if (settled) return;
        end();
        current?.destroy();
        reject(signal.reason);
      };
      const post = (agent: HttpAgent | false): ClientRequest => {
        const request = send(this.target, { method: 'POST', headers: delivery.headers, agent }, (response) => {
          response.resume();
          response.on('end', () => {
            const status = response.statusCode ?? null;
            finish(status, status !== null && status >= 200 && status <= 299 ? null : `the receiver answered ${status}`);
          });
          response.on('error', (error) => finish(response.statusCode ?? null, error.message));
        });
        request.on('error', (error: Error & { code?: string }) => {
          if (agent !== false && !settled && request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return void (current = post(false));
          finish(null, error.message);
        });
        request.end(delivery.body);
        return request;
      };
      const timer = setTimeout(() => {
        finish(null, `timed out after ${this.timeoutMs} ms`);
        current?.destroy();
      }, this.timeoutMs);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      current = post(this.agent);
    });
  }

  /** Closes the kept-alive connections, so the process can end. */
  close(): void {
    this.agent.destroy();
  }
}

/**
 * The resource types of these event types (GET /v1/event-catalog), passed to the feed as `types` so it reads only
 * those; the event types themselves are filtered here. An event type the catalog does not list for this credential
 * is a usage error. Without events:read the catalog cannot be read: then every resource type is read.
 */
async function resourceTypesOf(client: WorkcellClient, events: readonly string[], io: ListenIo): Promise<string[] | null> {
  let catalog: { name: string; resourceType: string }[];
  try {
    catalog = (await client.call('getEventCatalog', { signal: io.signal })).data.eventTypes;
  } catch (error) {
    if (!(error instanceof WorkcellPermissionError)) throw error;
    io.err('workcell: without events:read the event types cannot be checked; reading every resource type and forwarding only --events');
    return null;
  }
  const known = new Map(catalog.map((e) => [e.name, e.resourceType]));
  const unknown = events.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new ListenUsageError(`--events: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not an event type this credential may receive (see \`workcell call getEventCatalog\`)`);
  return [...new Set(events.map((name) => known.get(name)!))].sort();
}

/**
 * The cursor at the current end of the feed: pages (without payloads) until one moves nowhere, which only a
 * caught-up feed answers. A first listen starts there, like `stripe listen`, rather than replaying the history.
 */
async function feedEnd(client: WorkcellClient, types: string | undefined, signal: AbortSignal): Promise<string> {
  let cursor: string | undefined;
  for (;;) {
    const page = await client.call('listChanges', { query: { limit: 200, ...(types ? { types } : {}), ...(cursor ? { cursor } : {}) }, signal });
    const next = page.meta?.nextCursor;
    if (!next) throw new Error('the change feed answered no cursor');
    if (next === cursor) return next;
    cursor = next;
  }
}

/** An answer that says the cursor is not valid for this list (another workspace's, another filter's, edited). */
function isCursorRefused(error: unknown): boolean {
  return error instanceof WorkcellApiError && error.status === 400 && error.errors.some((e) => e.source?.parameter === 'cursor');
}

/** The API may answer later: it is unreachable, overloaded, restarting or rate-limiting. */
function isTransient(error: unknown): boolean {
  return error instanceof WorkcellConnectionError || error instanceof WorkcellTimeoutError || error instanceof WorkcellServerError || error instanceof WorkcellRateLimitError;
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

function report(io: ListenIo, json: boolean, entry: FeedEntry, outcome: ForwardOutcome): void {
  if (json) {
    io.out(JSON.stringify({ type: entry.type, eventId: entry.eventId, sequence: entry.id, resourceId: entry.resourceId, status: outcome.status, error: outcome.error, ms: outcome.ms }));
    return;
  }
  const result = outcome.status === null ? `failed: ${outcome.error}` : outcome.error === null ? String(outcome.status) : `${outcome.status} (failed)`;
  io.out(`${new Date().toISOString().slice(11, 19)}  ${entry.type} [${entry.eventId}] → ${result} (${outcome.ms} ms)`);
}

/**
 * Runs until `io.signal` aborts. The position is saved after each forwarded event and each page, so a restart
 * resumes after the last event forwarded: none twice, none missed (a forward that Ctrl-C cut short is sent again,
 * and receivers deduplicate by `webhook-id` as they must for retries anyway). A failed forward is reported and
 * listen goes on, like `stripe listen`; so does an API that is briefly unavailable.
 */
export async function listen(client: WorkcellClient, io: ListenIo, options: ListenOptions): Promise<void> {
  const profiles = (await io.state.read()) as ListenProfiles;
  const state = new SavedState(io.state, options.profile, profiles[options.profile] ?? { secret: newSigningSecret(), positions: {} });
  // A new secret is kept before it is shown: the receiver it is pasted into must keep verifying after a restart.
  if (!profiles[options.profile]) await state.write();
  io.err(`Signing secret: ${state.secret}`);
  try {
    await follow(client, io, options, state);
  } catch (error) {
    // Ctrl-C ends whatever was under way (catching up, a long poll, a forward): a clean stop, not an error.
    if (!io.signal.aborted) throw error;
  }
  io.err('Stopped; the position is saved and the next `workcell listen` resumes from it.');
}

/** This profile's entry of listen.json, written whole after each change (re-reading the file: other profiles' listens write it too). */
class SavedState {
  constructor(
    private readonly file: JsonFile<ListenProfiles>,
    private readonly profile: string,
    private saved: ListenProfile,
  ) {}

  get secret(): string {
    return this.saved.secret;
  }

  position(key: string): ListenPosition | undefined {
    return this.saved.positions[key];
  }

  async save(key: string, position: ListenPosition): Promise<void> {
    this.saved = { ...this.saved, positions: { ...this.saved.positions, [key]: position } };
    await this.write();
  }

  async write(): Promise<void> {
    await this.file.write({ ...((await this.file.read()) as ListenProfiles), [this.profile]: this.saved });
  }
}

async function follow(client: WorkcellClient, io: ListenIo, options: ListenOptions, state: SavedState): Promise<void> {
  const { signal } = io;
  const wanted = options.events === null ? null : new Set(options.events);
  const types = options.events === null ? undefined : (await resourceTypesOf(client, options.events, io))?.join(',');
  const key = types ?? '*';
  const saved = state.position(key);
  let position: ListenPosition;
  let from: string;
  if (options.fromCursor !== undefined) [position, from] = [{ cursor: options.fromCursor }, 'from --from-cursor'];
  else if (saved) [position, from] = [saved, 'from where it stopped'];
  else {
    [position, from] = [{ cursor: await feedEnd(client, types, signal) }, 'from now'];
    await state.save(key, position);
  }
  io.err(`Ready: forwarding ${options.events?.join(', ') ?? 'every event'} to ${options.forwardTo.href}, ${from} (Ctrl-C stops)`);

  const forwarder = new Forwarder(options.forwardTo, io.forwardTimeoutMs ?? 10_000);
  // Whether the API took the cursor: a saved one it refuses is replaced once; a --from-cursor one it refuses is an error.
  let accepted = options.fromCursor !== undefined;
  try {
    while (!signal.aborted) {
      let page;
      try {
        const query = { cursor: position.cursor, limit: PAGE, wait: WAIT_SECONDS, include: 'payload' as const, ...(types ? { types } : {}) };
        page = await client.call('listChanges', { query, signal, timeoutMs: (WAIT_SECONDS + 30) * 1000 });
      } catch (error) {
        if (signal.aborted) return;
        if (!accepted && isCursorRefused(error)) {
          // The saved position is another workspace's (a new login under this profile): listen from now instead.
          io.err('workcell: the saved position is not valid for this credential’s workspace; listening from now');
          position = { cursor: await feedEnd(client, types, signal) };
          await state.save(key, position);
          accepted = true;
          continue;
        }
        if (!isTransient(error)) throw error;
        io.err(`workcell: the change feed did not answer (${(error as Error).message}); asking again`);
        await (io.sleep ? io.sleep(RETRY_MS) : pause(RETRY_MS, signal));
        continue;
      }
      accepted = true;
      for (const entry of page.data) {
        if (position.forwarded !== undefined && BigInt(entry.id) <= BigInt(position.forwarded)) continue;
        if (wanted !== null && !wanted.has(entry.type)) continue;
        const outcome = await forwarder.post(deliveryOf(entry, state.secret, new Date()), signal);
        position = { cursor: position.cursor, forwarded: entry.id };
        await state.save(key, position);
        report(io, options.json, entry, outcome);
      }
      // Saved when it differs from what is kept (a --from-cursor position only once the API took it).
      const next = page.meta?.nextCursor;
      if (next) {
        position = { cursor: next };
        const kept = state.position(key);
        if (kept?.cursor !== next || kept.forwarded !== undefined) await state.save(key, position);
      }
    }
  } finally {
    forwarder.close();
  }
}
