import { INVITATION_MAIL_EVENTS } from '../invitations/send-invitation-mail.js';

/**
 * Work an outbox event starts once it is committed, as the worker's job of that name (docs/ARCHITECTURE.md "Work
 * after commit"). Every such start goes through the relay, the one consumer of the outbox: a request only writes its
 * event in its own transaction, and the relay enqueues the job before it marks the event published, under the job's
 * deterministic id. So an acknowledged request's work is never lost (a failed enqueue rolls the relay run back and
 * the next run enqueues it again) and never started twice (the same id is one job).
 */
export type PostCommitJob =
  | { readonly job: 'invitations.mail'; readonly data: { readonly workspaceId: string; readonly invitationId: string; readonly eventId: string } }
  | { readonly job: 'exports.run'; readonly data: { readonly workspaceId: string; readonly exportId: string } }
  | { readonly job: 'projects.lifecycle'; readonly data: { readonly workspaceId: string; readonly operationId: string } };

/** What the relay knows of an event. */
export interface StartingEvent {
  readonly id: string;
  readonly workspaceId: string;
  readonly aggregateId: string;
  readonly eventType: string;
  readonly payload: unknown;
}

/** The jobs one event starts (none for most). */
export function jobsStartedBy(event: StartingEvent): PostCommitJob[] {
  const { workspaceId } = event;
  if (INVITATION_MAIL_EVENTS.has(event.eventType)) return [{ job: 'invitations.mail', data: { workspaceId, invitationId: event.aggregateId, eventId: event.id } }];
  if (event.eventType === 'export.created') return [{ job: 'exports.run', data: { workspaceId, exportId: event.aggregateId } }];
  if (event.eventType === 'project.lifecycle_requested') {
    const operationId = (event.payload as { operationId?: unknown } | null)?.operationId;
    return typeof operationId === 'string' ? [{ job: 'projects.lifecycle', data: { workspaceId, operationId } }] : [];
  }
  return [];
}
