import type { IncomingMessage } from 'node:http';
import { Strategy } from 'passport-strategy';

/** `Bearer <token>`: one space, a token of RFC 6750 b64token characters, nothing else. */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const MAX_HEADER_LENGTH = 4096;

/**
 * A Passport strategy that reads the credential from the Authorization header only. Unlike
 * passport-http-bearer it never looks at the query string or body (where tokens end up in logs and
 * caches), and it treats a missing and a malformed header alike: both fail, and the API answers 401.
 */
export class AuthorizationHeaderStrategy extends Strategy {
  constructor(
    readonly name: string,
    private readonly verify: (token: string) => Promise<unknown>,
  ) {
    super();
  }

  override authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization;
    const match = typeof header === 'string' && header.length <= MAX_HEADER_LENGTH ? BEARER.exec(header) : null;
    if (!match) return this.fail(401);
    this.verify(match[1]!).then(
      (user) => this.success(user),
      (error: unknown) => this.error(error instanceof Error ? error : new Error(String(error))),
    );
  }
}
