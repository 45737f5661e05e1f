import { pendingDeviceAuthorization } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { DEVICE_CLIENTS, normalUserCode, userCodeHash } from './codes.js';

/** A device login waiting for the person's decision, as the approval page shows it. */
export interface PendingDeviceLoginView {
  /** The code as the page writes it back into its forms (XXXX-XXXX). */
  readonly userCode: string;
  readonly clientName: string;
  readonly requestedScopes: readonly string[];
  readonly startedAt: Date;
  readonly expiresAt: Date;
}

export const notPending = (): DomainError => new DomainError('not_found', 'no device is waiting for this code: check it, or start `workcell login` again (a code works once, for 15 minutes)');

/** The pending device login of a typed user code (any case, spaces and dashes ignored); 404 when none is waiting. */
export async function findDeviceLogin(ctx: ProcedureContext, typed: unknown): Promise<PendingDeviceLoginView> {
  const code = normalUserCode(typed);
  if (code === null) throw notPending();
  const found = await pendingDeviceAuthorization(ctx.database, userCodeHash(code), ctx.now());
  if (!found) throw notPending();
  return {
    userCode: `${code.slice(0, 4)}-${code.slice(4)}`,
    clientName: DEVICE_CLIENTS[found.clientId] ?? found.clientId,
    requestedScopes: found.requestedScopes,
    startedAt: found.createdAt,
    expiresAt: found.expiresAt,
  };
}
