import type { z } from 'zod';
import type { AppConfig } from '@workcell/config';
import { appendOutboxEvent, type DomainEvent, type EventActor, type EventCause, type HeldIdempotencyKey, inTransaction, type Db } from '@workcell/db';
import type { V1AuthContext } from './auth-context.js';
import { DomainError, type FieldIssue } from './errors.js';

/**
 * What every procedure runs with: where its statements run, the cell's config and a clock (tests pin it). `database` is
 * the pool, or a caller's transaction (an automation step inside its run's, a device login's redemption): the
 * procedure's own transactions join it (inTransaction), so it commits or rolls back with the caller's writes.
 */
export interface ProcedureContext {
  readonly database: Db;
  readonly config: AppConfig;
  readonly now: () => Date;
}

/**
 * An event as a procedure states it; its workspace, who made it, why and the held idempotency key come from where it
 * is emitted (the operation's caller, or the workspace a platform job works in), so no site restates them.
 */
export type EventInput = Omit<DomainEvent, 'workspaceId' | 'actor' | 'cause' | 'heldKey'>;

/** Where events come from: an operation (its workspace, caller, cause and key) or the platform (platformEvents). */
export interface EventSource {
  /** The complete event, for a write that appends it in its own statement (outboxAppend). */
  event(event: EventInput): DomainEvent;
  /** Appends the event in `tx`, the mutation's transaction (appendOutboxEvent). */
  emit(tx: Db, event: EventInput): Promise<bigint>;
}

/**
 * One operation of a caller, passed explicitly to every procedure that acts for one (issue 28): the context, the
 * caller as the gate authenticated it, and the request id its events and audit rows carry (null for work the
 * platform does on a caller's behalf: an automation step, an export page). The API apps build it once per request
 * (the operation gate); nothing about the caller travels in a procedure's input.
 */
export interface Operation extends ProcedureContext, EventSource {
  readonly auth: V1AuthContext;
  readonly requestId: string | null;
  /** The automation run whose step this operation is (run-automation.ts): its events name it, so loops stop. */
  readonly cause?: EventCause | null;
  /**
   * The idempotency key the request holds (libs/http runIdempotent): its one procedure's mutation completes
   * it with the result in the event's own statement; a replay returns the stored result instead of running.
   */
  readonly idempotencyKey?: HeldIdempotencyKey;
  /**
   * The v0 team token's minting member when a v0 request acts (identity/v0-acting-context.ts): null for a token
   * minted without one, which acts as nobody; undefined for every v1 caller.
   */
  readonly tokenMemberId?: string | null;
  /**
   * The operation's unit of work: everything `work` does commits together or not at all. It opens a transaction on
   * the operation's database, or joins the one it is (an automation step inside its run's transaction:
   * inTransaction), so a procedure never asks which.
   */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
}

/** What an operation may carry beside its caller and request id. */
export type OperationExtras = Pick<Operation, 'tokenMemberId' | 'cause' | 'idempotencyKey'>;

/**
 * The operation of `auth` on `ctx`: a request's (with its id) or the platform acting for a caller (requestId null).
 * Its `event`/`emit`/`transaction` read the operation they are called on, so a copy with another `auth` (`{ ...op, auth }`)
 * emits as that copy.
 */
export function operationOf(ctx: ProcedureContext, auth: V1AuthContext, requestId: string | null, extras: OperationExtras = {}): Operation {
  return { database: ctx.database, config: ctx.config, now: ctx.now, auth, requestId, ...extras, event: operationEvent, emit: emitOperationEvent, transaction: operationTransaction };
}

function operationTransaction<T>(this: Operation, work: (tx: Db) => Promise<T>): Promise<T> {
  return inTransaction(this.database, work);
}

function operationEvent(this: Operation, event: EventInput): DomainEvent {
  return { ...event, workspaceId: this.auth.workspaceId, actor: eventActorOf(this), cause: this.cause ?? null, heldKey: this.idempotencyKey ?? null };
}

function emitOperationEvent(this: Operation, tx: Db, event: EventInput): Promise<bigint> {
  return appendOutboxEvent(tx, this.event(event));
}

/**
 * The platform's own events in one workspace (worker jobs, the relay): no actor; `cause` for the bookkeeping of an
 * automation run.
 */
export function platformEvents(workspaceId: string, cause: EventCause | null = null): EventSource {
  const event = (input: EventInput): DomainEvent => ({ ...input, workspaceId, actor: null, cause });
  return { event, emit: (tx, input) => appendOutboxEvent(tx, event(input)) };
}

/**
 * A domain procedure in the tRPC style: one zod input schema and one handler. Both API generations call
 * it in-process with `invoke`; services expose the same object over tRPC (libs/internal-api `expose`). `C` is what
 * it runs with: an `Operation` for a caller's procedure, the bare `ProcedureContext` for the platform's own work.
 */
export interface Procedure<I extends z.ZodType, O, C extends ProcedureContext = Operation> {
  readonly name: string;
  readonly input: I;
  readonly handler: (op: C, input: z.output<I>) => Promise<O>;
}

/** A procedure that acts for a caller: its handler gets the `Operation`. */
export function defineProcedure<I extends z.ZodType, O>(name: string, input: I, handler: (op: Operation, input: z.output<I>) => Promise<O>): Procedure<I, O> {
  return { name, input, handler };
}

/** A procedure the platform runs for itself (worker jobs, credential checks): no caller. */
export function definePlatformProcedure<I extends z.ZodType, O>(name: string, input: I, handler: (ctx: ProcedureContext, input: z.output<I>) => Promise<O>): Procedure<I, O, ProcedureContext> {
  return { name, input, handler };
}

export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    pointer: issue.path.length === 0 ? '' : `/${issue.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
    message: issue.message,
  }));
}

/**
 * Validates raw input against the procedure's schema (validation_failed with JSON pointers) and runs it. Under the
 * operation's held idempotency key it is the operation's one procedure: a replay returns the stored result without
 * running anything, a run notes the result the key is completed with.
 */
export async function invoke<I extends z.ZodType, O, C extends ProcedureContext>(procedure: Procedure<I, O, C>, op: C, raw: unknown): Promise<O> {
  const held = (op as Partial<Operation>).idempotencyKey;
  if (held?.invoked) throw new Error(`${procedure.name}: an idempotent operation invokes exactly one procedure`);
  if (held) held.invoked = true;
  if (held?.mode === 'replay') return held.result as O;
  const parsed = procedure.input.safeParse(raw);
  if (!parsed.success) throw new DomainError('validation_failed', `invalid input for ${procedure.name}`, issuesOf(parsed.error));
  const result = await runHandler(procedure, op, parsed.data);
  if (held) held.result = result;
  return result;
}

/**
 * The principal an operation acts for, recorded with every event it emits: a v0 team token minted without a member
 * acts as nobody (null, like the platform).
 */
export function eventActorOf(op: Operation): EventActor | null {
  return op.tokenMemberId === null ? null : { type: op.auth.principal.type, id: op.auth.principal.id };
}

/** Runs a procedure's handler on validated input (the internal channel's entry, after its own validation). */
export function runHandler<I extends z.ZodType, O, C extends ProcedureContext>(procedure: Procedure<I, O, C>, op: C, input: z.output<I>): Promise<O> {
  return procedure.handler(op, input);
}
