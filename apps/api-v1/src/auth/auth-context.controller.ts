import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AUTH_CLIENT, type AuthClient, internalFailure, V1Auth } from '@workcell/auth-kit';
import type { V1AuthContext } from '@workcell/domain';
import { Operation } from '@workcell/http';

/** The registry's wire names for credential kinds. */
const KIND = { personal_access_token: 'personal-access-token', service_account: 'service-account', legacy_v1: 'legacy-v1' } as const;

/** The authenticating credential's own safe metadata, and its self-revocation (contract 3, 4.4). */
@Controller()
export class AuthContextController {
  constructor(@Inject(AUTH_CLIENT) private readonly auth: AuthClient) {}

  @Operation('getAuthContext')
  getAuthContext(@V1Auth() auth: V1AuthContext) {
    const c = auth.credential;
    return { data: { credentialId: c.id, kind: KIND[c.kind], status: c.status, scopes: c.scopes, expiresAt: c.expiresAt, region: c.region, cell: c.cell } };
  }

  @Operation('revokeAuthContext')
  async revokeAuthContext(@V1Auth() auth: V1AuthContext, @Req() request: FastifyRequest): Promise<void> {
    await this.auth.credentials.revokeOwn.mutate({ workspaceId: auth.workspaceId, credentialId: auth.credential.id, principal: auth.principal, requestId: request.id }).catch(internalFailure);
  }
}
