import { denyDeviceAuthorization } from '@workcell/db';
import type { ProcedureContext } from '../kernel/procedure.js';
import { normalUserCode, userCodeHash } from './codes.js';
import { notPending } from './find-device-login.js';

/** `POST /device/deny`: the signed-in person refuses a waiting device login; its next poll is `access_denied`. */
export async function denyDeviceLogin(ctx: ProcedureContext, userId: string, typed: unknown): Promise<void> {
  const code = normalUserCode(typed);
  if (code === null || !(await denyDeviceAuthorization(ctx.database, { userCodeHash: userCodeHash(code), userId, now: ctx.now() }))) throw notPending();
}
