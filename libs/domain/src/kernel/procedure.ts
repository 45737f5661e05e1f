import type { z } from 'zod';
import type { AppConfig } from '@workcell/config';
import { actingAs, type Database, type EventActor, heldIdempotencyKey } from '@workcell/db';
import type { V1AuthContext } from './auth-context.js';
import { DomainError, type FieldIssue } from './errors.js';

/** What every procedure runs with: the data layer, the cell's config and a clock (tests pin it). */
export interface ProcedureContext {
  readonly database: Database;
  readonly config: AppConfig;
  readonly now: () => Date;
}

/**
 * A domain procedure in the tRPC style: one zod input schema and one handler. Both API generations call
 * it in-process with `invoke`; services expose the same object over tRPC (`.input(p.input)` + the handler).
 */
export interface Procedure<I extends z.ZodType, O> {
  readonly name: string;
  readonly input: I;
  readonly handler: (ctx: ProcedureContext, input: z.output<I>) => Promise<O>;
}

export function defineProcedure<I extends z.ZodType, O>(name: string, input: I, handler: (ctx: ProcedureContext, input: z.output<I>) => Promise<O>): Procedure<I, O> {
  return { name, input, handler };
}

export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    pointer: issue.path.length === 0 ? '' : `/${issue.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
    message: issue.message,
  }));
}

/**
 * Validates raw input against the procedure's schema (validation_failed with JSON pointers) and runs it. Under a
 * held idempotency key (libs/db heldIdempotencyKey) it is the operation's one procedure: a replay returns the
 * stored result without running anything, a run notes the result the key is completed with.
 */
export async function invoke<I extends z.ZodType, O>(procedure: Procedure<I, O>, ctx: ProcedureContext, raw: unknown): Promise<O> {
  const held = heldIdempotencyKey();
  if (held?.invoked) throw new Error(`${procedure.name}: an idempotent operation invokes exactly one procedure`);
  if (held) held.invoked = true;
  if (held?.mode === 'replay') return held.result as O;
  const parsed = procedure.input.safeParse(raw);
  if (!parsed.success) throw new DomainError('validation_failed', `invalid input for ${procedure.name}`, issuesOf(parsed.error));
  const result = await runHandler(procedure, ctx, parsed.data);
  if (held) held.result = result;
  return result;
}

/**
 * The principal a procedure's input acts for (its `auth`), recorded with every event the procedure appends; null
 * without one (worker jobs: the platform itself) and for a v0 team token minted without a member, which acts as
 * nobody (identity/v0-acting-context.ts).
 */
function actorOfInput(input: unknown): EventActor | null {
  const auth = (input as { auth?: Partial<V1AuthContext> & { tokenMemberId?: string | null } } | null)?.auth;
  if (auth?.principal === undefined || auth.tokenMemberId === null) return null;
  return { type: auth.principal.type, id: auth.principal.id };
}

/** Runs a procedure's handler on validated input, acting as the input's principal (libs/db actingAs). */
export function runHandler<I extends z.ZodType, O>(procedure: Procedure<I, O>, ctx: ProcedureContext, input: z.output<I>): Promise<O> {
  return actingAs(actorOfInput(input), () => procedure.handler(ctx, input));
}
