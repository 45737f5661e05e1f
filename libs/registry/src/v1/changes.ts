import { z } from 'zod';
import { decimalInteger, ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('changes');

/** The longest `wait` a caller may ask for, in seconds: below common proxies' idle timeouts (60 s). */
const CHANGES_MAX_WAIT_SECONDS = 30;

export const Change = z
  .object({
    id: z
      .string()
      .describe("Monotonic position in the feed: the event's per-workspace sequence (decimal), a webhook delivery's `sequence`.")
      .meta({ examples: ['1234'] }),
    eventId: ResourceId.describe("The event's id: a webhook delivery's `webhook-id`, the same for every subscription and retry."),
    type: z
      .string()
      .describe("The event type of the event catalog (GET /v1/event-catalog), e.g. `task.created`: a webhook delivery's `type`.")
      .meta({ examples: ['task.created'] }),
    resourceType: z.string().meta({ examples: ['tasks'] }),
    resourceId: ResourceId,
    action: z.enum(['created', 'updated', 'archived', 'restored', 'deleted']),
    occurredAt: Timestamp,
    payload: z.record(z.string(), z.unknown()).optional().describe('Only with `include=payload`: the event payload exactly as a signed webhook delivery carries it in `data.payload`.'),
  })
  .meta({ id: 'Change', description: 'One entry of the durable change feed (fetch the resource for its state, or ask for the event payload with `include=payload`).' });

export const changeOperations = [
  f.list('listChanges', '/v1/changes', {
    summary: 'Read the durable change feed',
    description:
      'Cursor-based and durable: persist `meta.nextCursor` and resume from it. ' +
      'Entries are limited to resource types whose read scope the credential holds. ' +
      'With `wait` (long poll), a caller that is caught up (the page would be empty and `links.next` null) is held ' +
      'until an event is committed in the workspace or `wait` seconds pass, then answered with whatever is new: ' +
      'possibly an empty page, whose cursor still advances past events this credential or `types` filters out. ' +
      'A page that has entries, or more to read, is answered at once. A held request counts once against the rate ' +
      'limit; the response is otherwise identical to one without `wait`.',
    scopes: ['changes:read'],
    dynamicScopes: 'authorization-filtered',
    query: {
      types: z
        .string()
        .max(1000)
        .regex(/^[a-z-]+(,[a-z-]+)*$/)
        .optional()
        .describe('Comma-separated resource types.'),
      wait: decimalInteger(0, CHANGES_MAX_WAIT_SECONDS)
        .describe(
          `Long poll: when caught up, hold the request up to this many seconds (0-${CHANGES_MAX_WAIT_SECONDS}, decimal digits only) ` +
            'for an event to be committed in the workspace; default 0 answers at once. A server may answer sooner (it is shutting ' +
            'down, or holds too many requests): resume from `meta.nextCursor` either way.',
        )
        .optional(),
      include: z
        .enum(['payload'])
        .optional()
        .describe(
          '`payload`: each entry also carries its event payload as a signed webhook delivery does (`data.payload`), so a follower can ' +
            'act on, or forward, the event without fetching the resource. It changes no entry or cursor: a cursor resumes with or without it.',
        ),
    },
    item: Change,
  }),
] satisfies readonly OperationDefinition[];
