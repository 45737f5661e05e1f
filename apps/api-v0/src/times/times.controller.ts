import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { archiveTimeEntry, createTimeEntry, DomainError, getTimeEntry, invoke, listTimeEntries, type ProcedureContext, updateTimeEntry } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const ATTRIBUTES = ['taskId', 'projectId', 'userId', 'startedAt', 'endedAt', 'durationSeconds', 'note'];

/**
 * v0 times over the v1 time-entry procedures (same rows, same ids). No billing overlay: a v0 team token holds
 * no time-entries:billing (its acting context has no scopes), exactly as the v0 task timer responses show
 * none; billing stays a v1 finance concern. Writes are last-writer-wins over the v1 compare-and-set.
 */
@Controller()
export class TimesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetTimes')
  async list(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listTimeEntries, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'timeEntries', 'listTimeEntries', { taskId: null, projectId: null, userId: null, startedFrom: null, startedTo: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetTimesById')
  async get(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getTimeEntry, acting.auth, input.path._id, 'time entry'));
  }

  @LegacyOperation('legacyPostTimes')
  async create(@V0Acting() acting: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const attributes = pick(input.body, ATTRIBUTES);
    // The entry defaults to the token's member; a token issued without one must name the member.
    if (acting.tokenMemberId === null && attributes['userId'] === undefined) {
      throw new DomainError('validation_failed', 'the time entry is not valid', [{ pointer: '/userId', message: 'this team token was not issued by a member: name the member in userId' }]);
    }
    const { resource } = await invoke(createTimeEntry, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...attributes });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutTimesById')
  async update(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(acting, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutTimes')
  async updateByBody(@V0Acting() acting: Acting, @Input() input: OperationInput) {
    return this.write(acting, bodyAliasId(input.body), input.body);
  }

  private async write(acting: Acting, id: string, body: unknown) {
    const attributes = pick(body, ATTRIBUTES);
    // As v1 TimeEntryUpdate: a PUT that changes nothing is a mistake, not a no-op write.
    if (Object.keys(attributes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: `send at least one of ${ATTRIBUTES.join(', ')}` }]);
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(this.ctx, getTimeEntry, acting.auth, id, 'time entry');
      return invoke(updateTimeEntry, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedVersion: current.version, ...attributes });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteTimesById')
  async remove(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(acting, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteTimes')
  async removeByBody(@V0Acting() acting: Acting, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(acting, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(acting: Acting, id: string): Promise<void> {
    const current = await currentResource(this.ctx, getTimeEntry, acting.auth, id, 'time entry');
    await invoke(archiveTimeEntry, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id });
  }
}
