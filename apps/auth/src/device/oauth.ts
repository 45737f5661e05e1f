import { type ErrorRenderer, v1Errors } from '@workcell/http';

/** The platform's codes as OAuth's (RFC 6749 5.2) where one means the other; any other code is sent as it is. */
const OAUTH_CODES: Readonly<Record<string, string>> = {
  validation_failed: 'invalid_request',
  invalid_json: 'invalid_request',
  unsupported_media_type: 'invalid_request',
  unauthenticated: 'invalid_client',
};

/**
 * The device endpoints' error document: OAuth's `error` and `error_description` (what a device-flow client reads,
 * RFC 8628 3.5), beside the v1 error document's `errors` and `meta.requestId` (what every other Workcell client reads).
 * An unknown client is a 400 (RFC 6749 allows it), not a 401 with a Bearer challenge no device could answer.
 */
export const oauthErrors: ErrorRenderer = {
  realm: v1Errors.realm,
  adapt: (problem) => (problem.status === 401 ? { ...problem, status: 400 } : problem),
  render: (problem, requestId) => ({ error: OAUTH_CODES[problem.code] ?? problem.code, error_description: problem.detail, ...(v1Errors.render(problem, requestId) as object) }),
};
