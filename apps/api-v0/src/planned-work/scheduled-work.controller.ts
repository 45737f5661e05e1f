import { Op } from '@workcell/auth-kit';
import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { legacyPlannedWorkAt } from '@workcell/db';
import { DomainError, invoke, isUuid, listPlannedWork, MAX_PLANNED_WORK_SPAN_DAYS, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { isSupportedInstant } from '@workcell/registry';
import { legacyPage, type LegacySeek, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };

const DAY = 24 * 3600 * 1000;
const FILTERS = ['from', 'to', 'memberId', 'taskId', 'projectId'] as const;

/**
 * The window of a v0 scheduled-work query (the frozen contract declares only page/limit; these optional
 * filters are the v1 ones, read from the raw query): by default the 366 days centred on now; with one bound
 * only, 366 days from or up to it. listPlannedWork validates the rest (to after from, at most 366 days).
 */
function filtersOf(raw: Record<string, unknown>, now: Date): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length === 0 || value.length > 64)
      throw new DomainError('validation_failed', `query parameter ${name} is not valid`, [{ pointer: '', parameter: name, message: `query parameter ${name} must be one non-empty string` }]);
    if ((name === 'from' || name === 'to') && !isSupportedInstant(Date.parse(value)))
      throw new DomainError('validation_failed', `query parameter ${name} is not a timestamp`, [
        { pointer: '', parameter: name, message: 'an RFC 3339 timestamp between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z is required' },
      ]);
    out[name] = name === 'from' || name === 'to' ? new Date(value).toISOString() : value;
  }
  const span = MAX_PLANNED_WORK_SPAN_DAYS * DAY;
  if (out['from'] === undefined && out['to'] === undefined) {
    out['from'] = new Date(now.getTime() - span / 2).toISOString();
    out['to'] = new Date(now.getTime() + span / 2).toISOString();
  } else if (out['to'] === undefined) out['to'] = new Date(Date.parse(out['from']!) + span).toISOString();
  else if (out['from'] === undefined) out['from'] = new Date(Date.parse(out['to']) - span).toISOString();
  return out;
}

/** v0 `GET /scheduledWork` (adaptation-required, contract 4.3 rule 9) over listPlannedWork, paged by page/limit. */
@Controller()
export class ScheduledWorkController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetScheduledWork')
  async list(@Op() op: Op, @Req() request: FastifyRequest, @Input() input: OperationInput<Record<string, string>, Page>) {
    const filters = filtersOf(request.query as Record<string, unknown>, this.ctx.now()) as { from: string; to: string };
    const items = await legacyPage(
      this.ctx,
      input.query,
      (cursor, limit) => invoke(listPlannedWork, op, { ...filters, limit, ...(cursor === undefined ? {} : { cursor }) }),
      this.seek(op.auth.workspaceId, filters),
    );
    return items.map(toLegacy);
  }

  /** listPlannedWork's rows and cursor scope for these filters (ids that are no UUIDs match nothing, as there). */
  private seek(workspaceId: string, filters: Record<string, string | undefined>): LegacySeek {
    const [memberId, projectId, taskId] = [filters['memberId'], filters['projectId'], filters['taskId']].map((id) => id?.toLowerCase());
    const window = { from: filters['from']!, to: filters['to']! };
    const impossible = [memberId, projectId, taskId].some((id) => id !== undefined && !isUuid(id));
    return {
      rowAt: async (position) =>
        impossible ? null : legacyPlannedWorkAt(this.ctx.database, workspaceId, { from: new Date(window.from), to: new Date(window.to), memberId, projectId, taskId }, position),
      scope: { workspaceId, list: 'listPlannedWork', filter: { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString(), memberId, projectId, taskId } },
    };
  }
}
