import { parseToken } from '@workcell/credentials';
import { WorkcellClientError } from './errors.js';

/**
 * Contract 9.6 and 5.2: v1 requests go to the regional endpoint derived from the credential, and bearer
 * requests are never redirected across regions. The credential's routing hint (`<prefix><region>_<cell>_…`)
 * picks the endpoint from a template such as `https://{region}.api.example.com` (or `{cell}` too).
 */
export function endpointFor(credential: string, template: string): string {
  const parsed = parseToken(credential);
  if (!parsed.ok) throw new WorkcellClientError(`the credential is not a well-formed Workcell credential (${parsed.reason}); check for a truncated or mistyped value`);
  if (parsed.token.family === 'v0_team_token') throw new WorkcellClientError('a v0 team token is not a v1 credential; create a v1 credential');
  return template.replaceAll('{region}', parsed.token.region).replaceAll('{cell}', parsed.token.cell).replace(/\/+$/, '');
}
