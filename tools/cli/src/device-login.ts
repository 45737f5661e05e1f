/**
 * `workcell login`'s device login (RFC 8628, the way `gh auth login` works; docs/authentication.md "Device login"):
 * the CLI asks the auth service for a code, prints where to enter it (it never opens a browser: contract 5.2 rule 8),
 * and polls at the interval it was given until the person approves or denies it, or the code expires. The approval
 * mints the person's own personal access token, received here exactly once.
 */

/** The auth service's pages and endpoints, as `GET /v1` (getApiVersion) names them. */
export interface AuthenticationLinks {
  readonly accountUrl: string;
  readonly deviceAuthorizationUrl: string;
  readonly tokenUrl: string;
}

export class DeviceLoginError extends Error {}

export interface DeviceLoginIo {
  readonly fetch: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  err(line: string): void;
  readonly status?: (line: string) => void;
  readonly now?: () => number;
}

const CLIENT_ID = 'workcell-cli';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
/** An answer that takes longer than this is a failure, not a wait (the poll itself never blocks on the person). */
const REQUEST_TIMEOUT_MS = 30_000;

/** The links of the auth service at `authUrl` (its base address), for an API whose address is a template. */
export function linksAt(authUrl: string): AuthenticationLinks {
  const base = authUrl.endsWith('/') ? authUrl : `${authUrl}/`;
  return { accountUrl: new URL('account', base).toString(), deviceAuthorizationUrl: new URL('device/code', base).toString(), tokenUrl: new URL('device/token', base).toString() };
}

/** The auth service's links from the API's discovery document (`GET /v1`); null where it names none. */
export async function discoverLinks(fetchFn: typeof fetch, baseUrl: string): Promise<AuthenticationLinks | null> {
  const response = await fetchFn(`${baseUrl.replace(/\/$/, '')}/v1`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new DeviceLoginError(`GET ${baseUrl}/v1 answered ${response.status}: is --base-url the v1 API's address?`);
  const links = ((await response.json()) as { data?: { authentication?: Partial<AuthenticationLinks> } }).data?.authentication;
  return links?.accountUrl && links.deviceAuthorizationUrl && links.tokenUrl ? { accountUrl: links.accountUrl, deviceAuthorizationUrl: links.deviceAuthorizationUrl, tokenUrl: links.tokenUrl } : null;
}

async function postForm(io: DeviceLoginIo, url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await io.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new DeviceLoginError(`could not reach ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body };
}

const describe = (body: Record<string, unknown>) => `${String(body['error'] ?? 'error')}${typeof body['error_description'] === 'string' ? `: ${body['error_description']}` : ''}`;

/** Runs the device login to its end and returns the new personal access token (or throws DeviceLoginError). */
export async function deviceLogin(io: DeviceLoginIo, links: AuthenticationLinks, scopes: readonly string[]): Promise<string> {
  const now = io.now ?? Date.now;
  const started = await postForm(io, links.deviceAuthorizationUrl, { client_id: CLIENT_ID, ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}) });
  const { device_code: deviceCode, user_code: userCode, verification_uri: verificationUri, expires_in: expiresIn, interval } = started.body;
  if (started.status !== 200 || typeof deviceCode !== 'string' || typeof userCode !== 'string' || typeof verificationUri !== 'string') {
    throw new DeviceLoginError(`the device login could not start (${started.status} ${describe(started.body)})`);
  }
  const deadline = now() + (typeof expiresIn === 'number' ? expiresIn : 900) * 1000;
  let pause = (typeof interval === 'number' && interval > 0 ? interval : 5) * 1000;
  io.err(`First copy your one-time code: ${userCode}`);
  io.err(`Then open ${verificationUri} in a browser, sign in, enter the code and approve. It expires in ${Math.round((deadline - now()) / 60_000)} minutes.`);
  for (;;) {
    await io.sleep(pause);
    const left = Math.max(0, Math.round((deadline - now()) / 1000));
    io.status?.(`Waiting for approval in the browser… ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`);
    const polled = await postForm(io, links.tokenUrl, { grant_type: GRANT_TYPE, device_code: deviceCode, client_id: CLIENT_ID });
    if (polled.status === 200 && typeof polled.body['access_token'] === 'string') {
      io.status?.('');
      return polled.body['access_token'];
    }
    switch (polled.body['error']) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        // RFC 8628 3.5: five seconds more for this and every later poll.
        pause += 5000;
        continue;
      case 'access_denied':
        io.status?.('');
        throw new DeviceLoginError('the login was denied in the browser (or the approval no longer holds): nothing was stored');
      case 'expired_token':
        io.status?.('');
        throw new DeviceLoginError('the code expired before it was approved: run `workcell login` again');
      default:
        io.status?.('');
        throw new DeviceLoginError(`the device login failed (${polled.status} ${describe(polled.body)})`);
    }
  }
}
