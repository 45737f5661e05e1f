import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { AppConfig } from '@workcell/config';
import ipaddr from 'ipaddr.js';

/**
 * The outgoing POST of a webhook delivery. Rules (docs/webhooks.md "Webhooks"):
 * - In production a receiver whose host is or resolves to a private, loopback, link-local, CGNAT or otherwise
 *   non-public address is refused (SSRF): the check runs in the connection's own DNS lookup, so the address
 *   checked is the address connected to (no rebinding between check and connect).
 * - TLS is always verified; outside production WEBHOOK_EXTRA_CA_FILE adds trusted CAs (a test receiver's).
 * - One timeout (WEBHOOK_DELIVERY_TIMEOUT_MS) covers connect, request and response; redirects are not followed.
 * - Connections are kept alive and reused (a TLS handshake per delivery would cost more than the delivery).
 */

export class DeliveryRefused extends Error {}

/**
 * Whether ipaddr.js places the address in no special-purpose range (IANA's registries, RFC 6890 and its successors):
 * private, loopback, link-local, CGNAT, unspecified, broadcast, multicast, documentation, benchmarking, reserved,
 * Teredo, ORCHID, AMT, AS112 and the like are not where a webhook receiver lives. The library keeps that list.
 */
const isPublicUnicast = (address: ipaddr.IPv4 | ipaddr.IPv6): boolean => address.range() === 'unicast';

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach it: IPv4-mapped (::ffff:0:0/96),
 * IPv4-compatible (::/96, deprecated but still routed by some stacks), SIIT (::ffff:0:0:0/96), NAT64
 * (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16, the IPv4 address in bits 16-48). Null for any other address.
 */
export function embeddedIpv4(address: ipaddr.IPv6): string | null {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]).toString();
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 5) && p[5] === 0xffff) return v4(p[6]!, p[7]!);
  if (zeros(0, 6) && (p[6] !== 0 || p[7]! > 1)) return v4(p[6]!, p[7]!);
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return v4(p[6]!, p[7]!);
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return v4(p[6]!, p[7]!);
  if (p[0] === 0x2002) return v4(p[1]!, p[2]!);
  return null;
}

/**
 * Whether an address is not a public unicast one (isPublicUnicast). An IPv6 address embedding an IPv4 address
 * (mapped, compatible, SIIT, NAT64, 6to4; any spelling, dotted or hexadecimal) is judged by the IPv4 address it
 * reaches; the forms that hide one less plainly (Teredo's obfuscated client, NAT64's local-use prefix) are refused.
 */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  try {
    if (family === 4) return !isPublicUnicast(ipaddr.IPv4.parse(address));
    const parsed = ipaddr.IPv6.parse(address);
    const embedded = embeddedIpv4(parsed);
    return !isPublicUnicast(embedded === null ? parsed : ipaddr.IPv4.parse(embedded));
  } catch {
    return true;
  }
}

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => isNonPublicAddress(a.address));
    if (refused) return callback(new DeliveryRefused(`refused: ${hostname} resolves to the non-public address ${refused.address}`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
};

let extraCa: { file: string; ca: string[] } | undefined;
function trustedCas(config: AppConfig): string[] | undefined {
  const file = config.env === 'production' ? null : config.webhooks.extraCaFile;
  if (!file) return undefined;
  if (extraCa?.file !== file) extraCa = { file, ca: [...rootCertificates, readFileSync(file, 'utf8')] };
  return extraCa.ca;
}

/**
 * Keep-alive agents, one set per SSRF regime: a production socket was opened through publicOnlyLookup, and is
 * only ever reused under that rule. `tls` options (the extra CA) are part of an https agent's socket key.
 */
const AGENTS = {
  production: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
  other: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
};

/** A reused socket the receiver closed while idle fails at once, before any answer: resend on a new one. */
function isStaleSocket(request: ClientRequest, error: Error & { code?: string }): boolean {
  return request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
}

/** The class of a failed attempt, as the delivery history shows it (registry WEBHOOK_FAILURE_REASONS). */
export type AttemptFailure = 'timeout' | 'connection_refused' | 'connection_reset' | 'dns' | 'tls' | 'http_status' | 'refused' | 'network';

export interface PostOutcome {
  /** null when no response arrived (refused, network error, timeout). */
  readonly statusCode: number | null;
  /** The headers sent (none when refused before sending). */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The response's headers (names lower-case, repeated ones joined by ", ") and its first KB, when one arrived. */
  readonly responseHeaders: Readonly<Record<string, string>> | null;
  readonly responseBody: string | null;
  readonly timeMs: number;
  readonly error: string | null;
  /** Why no 2xx arrived; null on success. */
  readonly failure: AttemptFailure | null;
  /** A refusal by rule (SSRF): retrying cannot help. */
  readonly refused: boolean;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);

/** The class of a request error, from its code (Node's and OpenSSL's), for the receiver's owner to act on. */
export function classifyRequestError(error: Error & { code?: string }): AttemptFailure {
  if (error instanceof DeliveryRefused) return 'refused';
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code) || /socket hang up/i.test(error.message)) return 'connection_reset';
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA'].includes(code)) return 'dns';
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /certificate|ssl|tls/i.test(error.message)) return 'tls';
  if (code === 'ETIMEDOUT') return 'timeout';
  return 'network';
}

/** How much of a response body the delivery history keeps. */
export const RESPONSE_BODY_BYTES = 1024;

function headersOf(res: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

type Settled = Omit<PostOutcome, 'timeMs' | 'requestHeaders' | 'responseHeaders' | 'responseBody'> & Partial<Pick<PostOutcome, 'responseHeaders' | 'responseBody'>>;

export async function postJson(config: AppConfig, target: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { statusCode: null, timeMs: 0, error: 'refused: the URL is not valid', failure: 'refused', refused: true, requestHeaders: {}, responseHeaders: null, responseBody: null };
  }
  const production = config.env === 'production';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (production && (url.protocol !== 'https:' || (isIP(host) !== 0 && isNonPublicAddress(host)) || host === 'localhost' || host.endsWith('.localhost'))) {
    return { statusCode: null, timeMs: 0, error: `refused: ${host} is not a public https receiver`, failure: 'refused', refused: true, requestHeaders: {}, responseHeaders: null, responseBody: null };
  }
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  const requestHeaders = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Workcell-Webhooks/1', ...headers };
  const agents = production ? AGENTS.production : AGENTS.other;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    let current: ClientRequest | undefined;
    const finish = (outcome: Settled) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ requestHeaders, responseHeaders: null, responseBody: null, ...outcome, timeMs: elapsed() });
    };
    const post = (agent: HttpAgent | false) => {
      const req = send(
        url,
        {
          method: 'POST',
          headers: requestHeaders,
          ...(production ? { lookup: publicOnlyLookup } : {}),
          ...(https ? { ca: trustedCas(config) } : {}),
          agent,
        },
        (res) => {
          // The history keeps the first KB of the body; the rest is drained so the socket is free again.
          const kept: Buffer[] = [];
          let keptBytes = 0;
          res.on('data', (chunk: Buffer) => {
            if (keptBytes >= RESPONSE_BODY_BYTES) return;
            kept.push(chunk.subarray(0, RESPONSE_BODY_BYTES - keptBytes));
            keptBytes += Math.min(chunk.length, RESPONSE_BODY_BYTES - keptBytes);
          });
          // PostgreSQL text holds no NUL character: a binary body keeps the rest.
          const received = () => ({ responseHeaders: headersOf(res), responseBody: Buffer.concat(kept).toString('utf8').replaceAll('\u0000', '') });
          res.on('end', () => {
            const status = res.statusCode ?? null;
            const ok = status !== null && status >= 200 && status <= 299;
            finish({ statusCode: status, error: ok ? null : `the receiver answered ${status}`, failure: ok ? null : 'http_status', refused: false, ...received() });
          });
          res.on('error', (e) => finish({ statusCode: res.statusCode ?? null, error: e.message, failure: classifyRequestError(e), refused: false, ...received() }));
        },
      );
      req.on('error', (e: Error & { code?: string }) => {
        if (agent !== false && !settled && isStaleSocket(req, e)) return void (current = post(false));
        finish({ statusCode: null, error: e.message, failure: classifyRequestError(e), refused: e instanceof DeliveryRefused });
      });
      req.end(body);
      return req;
    };
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timed out after ${config.webhooks.timeoutMs} ms`, failure: 'timeout', refused: false });
      current?.destroy();
    }, config.webhooks.timeoutMs);
    current = post(https ? agents.https : agents.http);
  });
}
