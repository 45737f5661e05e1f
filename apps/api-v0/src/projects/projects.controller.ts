import { Controller, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createProject, getProject, invoke, listProjects, type ProcedureContext, updateProject } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const ATTRIBUTES = ['name', 'description', 'customerId', 'startsOn', 'dueOn', 'tagIds'];

/** v0 projects over the v1 project procedures (same rows, same ids). */
@Controller()
export class ProjectsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetProjects')
  async list(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    const items = await legacyPage(
      this.ctx,
      input.query,
      (cursor, limit) => invoke(listProjects, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }),
      seekOf(this.ctx, acting.auth.workspaceId, 'projects', 'listProjects'),
    );
    return items.map(toLegacy);
  }

  @LegacyOperation('legacyGetProjectsById')
  async get(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getProject, acting.auth, input.path._id, 'project'));
  }

  @LegacyOperation('legacyPostProjects')
  async create(@V0Acting() acting: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const project = await invoke(createProject, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, ATTRIBUTES) });
    void reply.status(201);
    return toLegacy(project);
  }

  @LegacyOperation('legacyPutProjectsById')
  async update(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(acting, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutProjects')
  async updateByBody(@V0Acting() acting: Acting, @Input() input: OperationInput) {
    return this.write(acting, bodyAliasId(input.body), input.body);
  }

  private async write(acting: Acting, id: string, body: unknown) {
    const project = await lastWriterWins(id, async () => {
      const current = await currentResource(this.ctx, getProject, acting.auth, id, 'project');
      return invoke(updateProject, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedRevision: Number(current.revision), ...pick(body, ATTRIBUTES) });
    });
    return toLegacy(project);
  }
}
