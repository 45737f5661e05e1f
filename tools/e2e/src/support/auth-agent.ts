import assert from 'node:assert/strict';

/** One answer of the auth service's pages. */
export interface Page {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** The form token (CSRF) of a page's forms. */
export const csrfOf = (html: string): string => {
  const value = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(value, `no form token in ${html}`);
  return value;
};

/** A browser-like client of the auth service's pages (sign-in, account, device login): keeps its cookies, follows nothing by itself. */
export class AuthAgent {
  readonly cookies = new Map<string, string>();
  lastSetCookie: string[] = [];

  constructor(private readonly baseUrl: () => string) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string | string[]>, json?: unknown, extra: Record<string, string> = {}): Promise<Page> {
    const headers: Record<string, string> = { ...extra };
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of ([] as string[]).concat(v)) params.append(k, one);
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (json !== undefined) {
      body = JSON.stringify(json);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl()}${path}`, { method, headers, body, redirect: 'manual' });
    this.lastSetCookie = response.headers.getSetCookie();
    for (const cookie of this.lastSetCookie) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /Max-Age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, form: Record<string, string | string[]>) => this.request('POST', path, form);

  /** Asks for a link with the sign-in form. */
  async requestLink(email: string): Promise<Page> {
    const form = await this.get('/sign-in');
    assert.equal(form.status, 200);
    return this.post('/sign-in', { csrf: csrfOf(form.text), email });
  }

  /** Opens the link (GET never consumes) and presses "Sign in". */
  async complete(link: URL): Promise<Page> {
    const page = await this.get(`${link.pathname}${link.search}`);
    assert.equal(page.status, 200, page.text);
    return this.post('/sign-in/complete', { csrf: csrfOf(page.text), token: link.searchParams.get('token') ?? '' });
  }
}
