import type { FastifyReply, FastifyRequest } from 'fastify';
import { verifierFor } from '@workcell/credentials';
import type { DomainError, ProcedureContext } from '@workcell/domain';
import { isDomainError } from '@workcell/domain';
import type { KnownAdmission, RateLimiter } from '@workcell/http';

/** What the gate needs to know of one generation's credentials (v0 team tokens, v1 credentials). */
export interface CredentialKind<Identified extends { readonly workspaceId: string }, Context> {
  /** The token names a credential of this cell: which one (no verdict yet), or null. */
  identify(ctx: ProcedureContext, token: string): Promise<Identified | null>;
  /** The rate-limit subject of an identified credential: its kind and stable id, never the token's spelling. */
  subject(identified: Identified): string;
  /** The full verification against the database's current state. */
  verify(ctx: ProcedureContext, identified: Identified): Promise<{ readonly ok: true; readonly context: Context } | { readonly ok: false; readonly error: DomainError }>;
  /** When the verified context stops being valid by the clock alone (a credential's expiry), in ms; null for never. */
  expiresAt(context: Context): number | null;
  /** The refusal of a request without a usable token. */
  unauthenticated(): DomainError;
}

interface Entry<Identified, Context> {
  readonly identified: Identified;
  readonly subject: string;
  readonly epoch: number;
  readonly context: Context;
  readonly verifiedAt: number;
  readonly expiresAt: number | null;
}

export interface VerifiedCredentialsOptions {
  /** Verifications kept in memory (the least recently verified go first). */
  readonly maxEntries: number;
  /**
   * A kept verification is redone after this long even when nothing announced a change: the bound for changes made
   * outside the platform (an operator's SQL), and the cadence at which a credential's last use is recorded.
   */
  readonly maxAgeMs: number;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Authentication inside each API instance (issue 11: no network hop, and at most one database round trip for a
 * credential the instance has not verified yet), as exact as asking the database on every request:
 *
 * - A verification is kept in memory under the token's keyed hash, with the authorization epoch of its workspace
 *   read *before* the database was asked (libs/redis authorization-epochs.ts). Every change of who may do what in
 *   the workspace moves the epoch, so a kept verification is used only while the epoch is unchanged: revocation,
 *   expiry, a lock, a disabled member or service account, narrowed permissions and replaced grants all apply to the
 *   very next request on every instance.
 * - A request with a kept verification costs one Redis round trip, which is also its rate-limit admission
 *   (RateLimiter.admitKnown), and no database statement; a request without one is identified (one statement),
 *   admitted as its credential (reading the epoch), then verified.
 * - A valid credential is limited by its own budget only: nothing is charged to its client address, and the
 *   address's budget is not consulted, so callers refused at the same address cannot lock it out.
 * - Refusals are never kept: a refused or unknown token is verified again every time and refused within its
 *   address's budget (429 once that is spent). Its lookup comes first (only it tells a valid credential from a
 *   guess), so an address out of budget still costs one indexed statement per well-formed token; malformed ones
 *   and wrong checksums cost none.
 */
export class VerifiedCredentials<Identified extends { readonly workspaceId: string }, Context> {
  private readonly entries = new Map<string, Entry<Identified, Context>>();

  constructor(
    private readonly kind: CredentialKind<Identified, Context>,
    private readonly ctx: ProcedureContext,
    private readonly limiter: RateLimiter,
    private readonly options: VerifiedCredentialsOptions,
  ) {}

  /** The verified context of the request's token (null: none or malformed), within the rate limits; throws the refusal. */
  async authenticate(request: FastifyRequest, reply: FastifyReply, token: string | null): Promise<Context> {
    if (token === null) return this.limiter.refuse(request, reply, this.kind.unauthenticated());
    const key = Buffer.from(verifierFor(this.ctx.config.credentialSecret, token)).toString('base64url');
    const entry = this.entries.get(key);
    if (entry) {
      const admission = await this.limiter.admitKnown(request, reply, entry.subject, entry.identified.workspaceId);
      if (admission.epoch === entry.epoch && !admission.changing && this.fresh(entry)) return entry.context;
      this.entries.delete(key);
      return this.verify(request, reply, key, entry.identified, entry.subject, admission);
    }
    let identified: Identified | null;
    try {
      identified = await this.kind.identify(this.ctx, token);
    } catch (error) {
      // A dependency failure is no verdict on the token and counts against nobody.
      if (isDomainError(error)) return this.limiter.refuse(request, reply, error);
      throw error;
    }
    if (!identified) return this.limiter.refuse(request, reply, this.kind.unauthenticated());
    const subject = this.kind.subject(identified);
    const admission = await this.limiter.admitKnown(request, reply, subject, identified.workspaceId);
    return this.verify(request, reply, key, identified, subject, admission);
  }

  /** Forgets every kept verification (tests; an operator's signal). */
  clear(): void {
    this.entries.clear();
  }

  private fresh(entry: Entry<Identified, Context>): boolean {
    const now = Date.now();
    return now - entry.verifiedAt < this.options.maxAgeMs && (entry.expiresAt === null || entry.expiresAt > now);
  }

  private async verify(request: FastifyRequest, reply: FastifyReply, key: string, identified: Identified, subject: string, admission: KnownAdmission): Promise<Context> {
    const verifiedAt = Date.now();
    const result = await this.kind.verify(this.ctx, identified);
    if (!result.ok) return this.limiter.refuseIdentified(request, reply, admission, result.error);
    // Kept only when no change was in progress as the epoch was read: this verification may predate its commit.
    if (!admission.changing) {
      if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { identified, subject, epoch: admission.epoch, context: deepFreeze(result.context), verifiedAt, expiresAt: this.kind.expiresAt(result.context) });
    }
    return result.context;
  }
}
