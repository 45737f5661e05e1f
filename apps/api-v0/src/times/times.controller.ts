import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V0Auth } from '@workcell/auth-kit';
import {
  archiveTimeEntry,
  createTimeEntry,
  DomainError,
  getTimeEntry,
  invoke,
  listTimeEntries,
  type ProcedureContext,
  type TimeEntryView,
  updateTimeEntry,
  type V0AuthContext,
} from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { actingFor } from '../legacy/acting.js';
import { assertNotArchived, bodyAliasId, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

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

  private async current(auth: V0AuthContext, request: FastifyRequest, id: string): Promise<TimeEntryView> {
    const acting = await actingFor(this.ctx, auth, request);
    const { resource } = await invoke(getTimeEntry, this.ctx, { auth: acting.auth, id });
    assertNotArchived(resource, 'time entry');
    return resource;
  }

  @LegacyOperation('legacyGetTimes')
  async list(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = await actingFor(this.ctx, auth, request);
    return (await legacyPage(this.ctx, input.query, (cursor, limit) => invoke(listTimeEntries, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }), seekOf(this.ctx, acting.auth.workspaceId, 'timeEntries', 'listTimeEntries', { taskId: null, projectId: null, userId: null, startedFrom: null, startedTo: null }))).map(toLegacy);
  }

  @LegacyOperation('legacyGetTimesById')
  async get(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await this.current(auth, request, input.path._id));
  }

  @LegacyOperation('legacyPostTimes')
  async create(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const acting = await actingFor(this.ctx, auth, request);
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
  async update(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(auth, request, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutTimes')
  async updateByBody(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput) {
    return this.write(auth, request, bodyAliasId(input.body), input.body);
  }

  private async write(auth: V0AuthContext, request: FastifyRequest, id: string, body: unknown) {
    const acting = await actingFor(this.ctx, auth, request);
    const attributes = pick(body, ATTRIBUTES);
    // As v1 TimeEntryUpdate: a PUT that changes nothing is a mistake, not a no-op write.
    if (Object.keys(attributes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: `send at least one of ${ATTRIBUTES.join(', ')}` }]);
    const { resource } = await lastWriterWins(id, async () => {
      const current = await this.current(auth, request, id);
      return invoke(updateTimeEntry, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedVersion: current.version, ...attributes });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteTimesById')
  async remove(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(auth, request, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteTimes')
  async removeByBody(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(auth, request, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(auth: V0AuthContext, request: FastifyRequest, id: string): Promise<void> {
    const acting = await actingFor(this.ctx, auth, request);
    const current = await this.current(auth, request, id);
    await invoke(archiveTimeEntry, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id });
  }
}
