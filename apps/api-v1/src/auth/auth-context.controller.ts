import { Controller, Inject } from '@nestjs/common';
import { wireOperation } from '@workcell/internal-api';
import { AUTH_CLIENT, type AuthClient, internalFailure, Op } from '@workcell/auth-kit';
import { Operation } from '@workcell/http';

/** The registry's wire names for credential kinds. */
const KIND = { personal_access_token: 'personal-access-token', service_account: 'service-account', legacy_v1: 'legacy-v1' } as const;

/** The authenticating credential's own safe metadata, and its self-revocation (contract 3, 4.4). */
@Controller()
export class AuthContextController {
  constructor(@Inject(AUTH_CLIENT) private readonly auth: AuthClient) {}

  @Operation('getAuthContext')
  getAuthContext(@Op() op: Op) {
    const c = op.auth.credential;
    return { data: { credentialId: c.id, kind: KIND[c.kind], status: c.status, scopes: c.scopes, expiresAt: c.expiresAt, region: c.region, cell: c.cell } };
  }

  @Operation('revokeAuthContext')
  async revokeAuthContext(@Op() op: Op): Promise<void> {
    await this.auth.credentials.revokeOwn.mutate({ ...wireOperation(op), input: {} }).catch(internalFailure);
  }
}
