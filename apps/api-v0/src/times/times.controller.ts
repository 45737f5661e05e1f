import { Op } from '@workcell/auth-kit';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { archiveTimeEntry, createTimeEntry, DomainError, getTimeEntry, invoke, listTimeEntries, type ProcedureContext, updateTimeEntry } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const ATTRIBUTES = ['taskId', 'projectId', 'userId', 'startedAt', 'endedAt', 'durationSeconds', 'note'];

/**
 * v0 times over the v1 time-entry procedures (same rows, same ids). No billing overlay: a v0 team token holds
 * no time-entries:billing (its op context has no scopes), exactly as the v0 task timer responses show
 * none; billing stays a v1 finance concern. Writes are last-writer-wins over the v1 compare-and-set.
 */
@Controller()
export class TimesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetTimes')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listTimeEntries, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
        seekOf(this.ctx, op.auth.workspaceId, 'timeEntries', 'listTimeEntries', { taskId: null, projectId: null, userId: null, startedFrom: null, startedTo: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetTimesById')
  async get(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getTimeEntry, input.path._id, 'time entry'));
  }

  @LegacyOperation('legacyPostTimes')
  async create(@Op() op: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const attributes = pick(input.body, ATTRIBUTES);
    // The entry defaults to the token's member; a token issued without one must name the member.
    if (op.tokenMemberId === null && attributes['userId'] === undefined) {
      throw new DomainError('validation_failed', 'the time entry is not valid', [{ pointer: '/userId', message: 'this team token was not issued by a member: name the member in userId' }]);
    }
    const { resource } = await invoke(createTimeEntry, op, { ...attributes });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutTimesById')
  async update(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(op, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutTimes')
  async updateByBody(@Op() op: Op, @Input() input: OperationInput) {
    return this.write(op, bodyAliasId(input.body), input.body);
  }

  private async write(op: Op, id: string, body: unknown) {
    const attributes = pick(body, ATTRIBUTES);
    // As v1 TimeEntryUpdate: a PUT that changes nothing is a mistake, not a no-op write.
    if (Object.keys(attributes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: `send at least one of ${ATTRIBUTES.join(', ')}` }]);
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(op, getTimeEntry, id, 'time entry');
      return invoke(updateTimeEntry, op, { id: current.id, expectedVersion: current.version, ...attributes });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteTimesById')
  async remove(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(op, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteTimes')
  async removeByBody(@Op() op: Op, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(op, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(op: Op, id: string): Promise<void> {
    const current = await currentResource(op, getTimeEntry, id, 'time entry');
    await invoke(archiveTimeEntry, op, { id: current.id });
  }
}
