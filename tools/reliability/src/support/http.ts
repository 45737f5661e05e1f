import http from 'node:http';

/**
 * A raw HTTP client for hostile requests: unlike fetch it sends any bytes (invalid UTF-8, NUL in the path),
 * repeated headers (`Authorization` twice) and any header value, and it turns a hang into an answer of its own
 * (status 0) instead of waiting for ever.
 */

export interface Probe {
  readonly method: string;
  /** Path and query exactly as sent (already percent-encoded where wanted). */
  readonly path: string;
  /** A value that is an array is sent as that many header lines. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Buffer | string;
}

export interface Answer {
  /** 0 when no HTTP answer came: see `failure`. */
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  readonly json: unknown;
  readonly ms: number;
  /** `timeout after N ms` or the socket error, when status is 0. */
  readonly failure?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export async function send(baseUrl: string, probe: Probe, timeoutMs = 20_000): Promise<Answer> {
  const answer = await sendOnce(baseUrl, probe, timeoutMs);
  // A kept-alive socket the server closed between two requests fails at once: the request never reached the
  // server, so it is sent again on a new connection (Node's documented remedy); any other failure is an answer.
  return answer.reusedSocket && answer.status === 0 && !answer.failure?.startsWith('no answer') ? sendOnce(baseUrl, probe, timeoutMs) : answer;
}

function sendOnce(baseUrl: string, probe: Probe, timeoutMs: number): Promise<Answer & { reusedSocket?: boolean }> {
  const url = new URL(baseUrl);
  const started = Date.now();
  const body = probe.body === undefined ? undefined : Buffer.isBuffer(probe.body) ? probe.body : Buffer.from(probe.body, 'utf8');
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(probe.headers ?? {})) headers[name] = typeof value === 'string' ? value : [...value];
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, ms: Date.now() - started, reusedSocket: req.reusedSocket });
    };
    const req = http.request({ host: url.hostname, port: url.port, method: probe.method, path: probe.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e) => finish({ status: 0, headers: {}, text: '', json: undefined, failure: `response error: ${e.message}` }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        finish({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    const timer = setTimeout(() => {
      finish({ status: 0, headers: {}, text: '', json: undefined, failure: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => finish({ status: 0, headers: {}, text: '', json: undefined, failure: `socket error: ${e.message}` }));
    req.end(body);
  });
}

/** Runs `work` over `items` with at most `width` in flight, keeping the results in order. */
export async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** The request as a finding names it: method, path (shortened) and a body excerpt. */
export function describeProbe(probe: Probe): string {
  const path = probe.path.length > 160 ? `${probe.path.slice(0, 150)}…(${probe.path.length} chars)` : probe.path;
  // Ordinary headers (a single bearer token, JSON) are left out; anything unusual is shown, tokens shortened.
  const odd = Object.entries(probe.headers ?? {})
    .filter(([name, value]) => !(name === 'content-type' && value === 'application/json') && !(name === 'authorization' && typeof value === 'string' && /^Bearer [\x21-\x7e]{1,200}$/.test(value)))
    .map(([name, value]) => `${name}: ${excerpt(typeof value === 'string' ? value : value.join(' | '), 40)}`);
  const body = probe.body === undefined ? '' : ` body ${excerpt(Buffer.isBuffer(probe.body) ? bufferText(probe.body) : probe.body, 160)}`;
  return `${probe.method} ${path}${odd.length ? ` [${odd.join('; ')}]` : ''}${body}`;
}

function bufferText(buffer: Buffer): string {
  // Show invalid bytes as \xNN so the finding says which bytes were sent.
  let out = '';
  const text = buffer.toString('latin1');
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code >= 0x20 && code < 0x7f ? text[i] : `\\x${code.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** A printable, bounded excerpt: control characters escaped, long text cut. */
export function excerpt(text: string, max = 200): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped here
  const shown = (text.length > max ? text.slice(0, max) : text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > max ? `${shown}…(${text.length} chars)` : shown;
}
