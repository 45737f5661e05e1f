import { z } from 'zod';
import { verifierFor, verifiersEqual } from '@workcell/credentials';
import { findTokenLookup, listCalendarEntries, loadFeedToken, touchFeedToken } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { definePlatformProcedure } from '../kernel/procedure.js';
import { type ICalEvent, renderCalendar } from './icalendar.js';

export const renderCalendarFeedInput = z
  .object({
    token: z.string().min(1).max(256),
    page: z.number().int().min(1).default(1),
    limit: z.number().int().min(1).max(500).default(500),
  })
  .strict();

const DAY = 24 * 3600 * 1000;

/**
 * `GET /calendar/{token}.ics` (v0, public): the token is a per-member feed token, stored only as a
 * verifier and revocable. An unknown, revoked or otherwise unusable token is indistinguishable from a
 * missing feed: not_found, with no detail. The feed holds the member's planned work and dated tasks.
 */
export const renderCalendarFeed = definePlatformProcedure('renderCalendarFeed', renderCalendarFeedInput, async (ctx, input): Promise<string> => {
  const notFound = () => new DomainError('not_found', 'not found');
  const verifier = verifierFor(ctx.config.credentialSecret, `feed:${input.token}`);
  const lookup = await findTokenLookup(ctx.database, verifier);
  if (!lookup || lookup.tokenType !== 'calendar_feed_token') throw notFound();
  const token = await loadFeedToken(ctx.database, lookup.workspaceId, lookup.tokenId);
  if (!token || !verifiersEqual(token.verifier, verifier) || token.revokedAt !== null || !token.memberActive || token.workspaceLocked) throw notFound();

  const entries = await listCalendarEntries(ctx.database, token.workspaceId, token.memberId, (input.page - 1) * input.limit, input.limit);
  await touchFeedToken(ctx.database, token.workspaceId, token.id, ctx.now()).catch(() => undefined);
  const events: ICalEvent[] = entries.map((entry) =>
    entry.source === 'planned_work'
      ? { kind: 'timed', uid: `planned-work-${entry.id}@workcell`, stamp: entry.updatedAt, summary: entry.title, description: entry.note, start: entry.start, end: entry.end }
      : {
          kind: 'all-day',
          uid: `task-${entry.id}@workcell`,
          stamp: entry.updatedAt,
          summary: entry.title,
          description: entry.note,
          startDay: entry.startDay,
          endDay: new Date(entry.dueDay.getTime() + DAY),
        },
  );
  return renderCalendar('Workcell', events);
});
