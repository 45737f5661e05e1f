import type { AppConfig } from '@workcell/config';

/** The auth service's public pages and endpoints, as a client discovers them (`GET /v1`, getApiVersion). */
export interface AuthenticationLinks {
  readonly signInUrl: string;
  readonly accountUrl: string;
  /** Where a person enters a device login's user code (RFC 8628 `verification_uri`). */
  readonly deviceVerificationUrl: string;
  /** Where a device starts a login (RFC 8628 3.1) and polls for its token (3.4). */
  readonly deviceAuthorizationUrl: string;
  readonly tokenUrl: string;
}

/**
 * The pages and endpoints are the sign-in page's siblings: resolved against SIGN_IN_URL, so an auth service
 * published under a path prefix (https://example.com/auth/sign-in) keeps it.
 */
export function authenticationLinks(config: AppConfig): AuthenticationLinks {
  const at = (path: string) => new URL(path, config.mail.signInUrl).toString();
  return { signInUrl: config.mail.signInUrl, accountUrl: at('account'), deviceVerificationUrl: at('device'), deviceAuthorizationUrl: at('device/code'), tokenUrl: at('device/token') };
}
