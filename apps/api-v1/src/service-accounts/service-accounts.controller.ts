import { Controller, Inject, Req, Res } from '@nestjs/common';
import { wireOperation } from '@workcell/internal-api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_CLIENT, type AuthClient, internalFailure, Op } from '@workcell/auth-kit';
import {
  createServiceAccount,
  getServiceAccount,
  getServiceAccountResourceGrants,
  invoke,
  listServiceAccountCredentials,
  listServiceAccounts,
  replaceServiceAccountResourceGrants,
  updateServiceAccount,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

/** The body an internal mutation takes beside the operation (its `input`, without the path's ids). */
type Body<M extends (input: never) => unknown> = Omit<Parameters<M>[0]['input'], 'id' | 'credentialId'>;
type Id = { id: string };
type CredentialPath = { id: string; credentialId: string };

/**
 * Service accounts, their reveal-once credentials and their resource grants (contract 5.2, 5.3
 * service-accounts:*, resource-grants:*). Whatever mints, rotates or revokes a secret (deleting an account
 * revokes all its credentials) runs in the auth service; the rest runs in-process.
 */
@Controller()
export class ServiceAccountsController {
  constructor(@Inject(AUTH_CLIENT) private readonly auth: AuthClient) {}

  @Operation('listServiceAccounts')
  async listServiceAccounts(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listServiceAccounts, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createServiceAccount')
  async createServiceAccount(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createServiceAccount, op, { ...(input.body as object) });
    reply.header('location', `/v1/service-accounts/${created.id}`);
    return single(created);
  }

  @Operation('getServiceAccount')
  async getServiceAccount(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getServiceAccount, op, { id: input.path.id }));
  }

  @Operation('updateServiceAccount')
  async updateServiceAccount(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(updateServiceAccount, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('deleteServiceAccount')
  async deleteServiceAccount(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await this.auth.serviceAccounts.delete.mutate({ ...wireOperation(op), input: { id: input.path.id } }).catch(internalFailure);
  }

  @Operation('listServiceAccountCredentials')
  async listServiceAccountCredentials(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listServiceAccountCredentials, op, { id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createServiceAccountCredential')
  async createServiceAccountCredential(@Op() op: Op, @Input() input: OperationInput<Id, never, Body<AuthClient['serviceAccounts']['createCredential']['mutate']>>) {
    // No Location: a service-account credential has no GET of its own (the registry declares none for this 201).
    return single(await this.auth.serviceAccounts.createCredential.mutate({ ...wireOperation(op), input: { ...input.body, id: input.path.id } }).catch(internalFailure));
  }

  @Operation('rotateServiceAccountCredential')
  async rotateServiceAccountCredential(@Op() op: Op, @Input() input: OperationInput<CredentialPath, never, Body<AuthClient['serviceAccounts']['rotateCredential']['mutate']> | undefined>) {
    return single(await this.auth.serviceAccounts.rotateCredential.mutate({ ...wireOperation(op), input: { ...input.body, ...input.path } }).catch(internalFailure));
  }

  @Operation('revokeServiceAccountCredential')
  async revokeServiceAccountCredential(@Op() op: Op, @Input() input: OperationInput<CredentialPath>): Promise<void> {
    await this.auth.serviceAccounts.revokeCredential.mutate({ ...wireOperation(op), input: { ...input.path } }).catch(internalFailure);
  }

  @Operation('getServiceAccountResourceGrants')
  async getServiceAccountResourceGrants(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getServiceAccountResourceGrants, op, { id: input.path.id }));
  }

  @Operation('replaceServiceAccountResourceGrants')
  async replaceServiceAccountResourceGrants(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(replaceServiceAccountResourceGrants, op, { ...(input.body as object), id: input.path.id }));
  }
}
