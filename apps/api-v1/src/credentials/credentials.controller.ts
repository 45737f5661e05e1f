import { Controller, Inject, Req } from '@nestjs/common';
import { wireOperation } from '@workcell/internal-api';
import type { FastifyRequest } from 'fastify';
import { AUTH_CLIENT, type AuthClient, internalFailure, Op } from '@workcell/auth-kit';
import { invoke, listCredentials } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

/** The body an internal mutation takes beside the operation (its `input`, without the path's id). */
type Body<M extends (input: never) => unknown> = Omit<Parameters<M>[0]['input'], 'id'>;
type Id = { id: string };

/**
 * Personal access tokens of the op member (contract 5.2, 5.3 credentials:*). Minting, rotating and
 * revoking run in the auth service, which owns credentials; the read runs in-process. Responses that carry a
 * secret are never cached.
 */
@Controller()
export class CredentialsController {
  constructor(@Inject(AUTH_CLIENT) private readonly auth: AuthClient) {}

  @Operation('listCredentials')
  async listCredentials(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listCredentials, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createCredential')
  async createCredential(@Op() op: Op, @Input() input: OperationInput<Id, never, Body<AuthClient['credentials']['create']['mutate']>>) {
    // No Location: a personal access token has no GET of its own (the registry declares none for this 201).
    return single(await this.auth.credentials.create.mutate({ ...wireOperation(op), input: input.body }).catch(internalFailure));
  }

  @Operation('rotateCredential')
  async rotateCredential(@Op() op: Op, @Input() input: OperationInput<Id, never, Body<AuthClient['credentials']['rotate']['mutate']> | undefined>) {
    return single(await this.auth.credentials.rotate.mutate({ ...wireOperation(op), input: { ...input.body, id: input.path.id } }).catch(internalFailure));
  }

  @Operation('revokeCredential')
  async revokeCredential(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await this.auth.credentials.revoke.mutate({ ...wireOperation(op), input: { id: input.path.id } }).catch(internalFailure);
  }
}
