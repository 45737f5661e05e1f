import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AUTH_CLIENT, type AuthClient, internalFailure, V1Auth } from '@workcell/auth-kit';
import { invoke, listCredentials, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

type Body<M extends (input: never) => unknown> = Omit<Parameters<M>[0], 'auth' | 'requestId' | 'id'>;
type Id = { id: string };

/**
 * Personal access tokens of the acting member (contract 5.2, 5.3 credentials:*). Minting, rotating and
 * revoking run in the auth service, which owns credentials; the read runs in-process. Responses that carry a
 * secret are never cached.
 */
@Controller()
export class CredentialsController {
  constructor(
    @Inject(AUTH_CLIENT) private readonly auth: AuthClient,
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
  ) {}

  @Operation('listCredentials')
  async listCredentials(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listCredentials, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createCredential')
  async createCredential(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id, never, Body<AuthClient['credentials']['create']['mutate']>>, @Req() request: FastifyRequest) {
    // No Location: a personal access token has no GET of its own (the registry declares none for this 201).
    return single(await this.auth.credentials.create.mutate({ ...input.body, auth, requestId: request.id }).catch(internalFailure));
  }

  @Operation('rotateCredential')
  async rotateCredential(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id, never, Body<AuthClient['credentials']['rotate']['mutate']> | undefined>, @Req() request: FastifyRequest) {
    return single(await this.auth.credentials.rotate.mutate({ ...input.body, id: input.path.id, auth, requestId: request.id }).catch(internalFailure));
  }

  @Operation('revokeCredential')
  async revokeCredential(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await this.auth.credentials.revoke.mutate({ id: input.path.id, auth, requestId: request.id }).catch(internalFailure);
  }
}
