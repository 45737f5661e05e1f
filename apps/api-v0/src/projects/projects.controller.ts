import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V0Auth } from '@workcell/auth-kit';
import { createProject, getProject, invoke, listProjects, type ProcedureContext, type ProjectView, updateProject, type V0AuthContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { actingFor } from '../legacy/acting.js';
import { assertNotArchived, bodyAliasId, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const ATTRIBUTES = ['name', 'description', 'customerId', 'startsOn', 'dueOn', 'tagIds'];

/** v0 projects over the v1 project procedures (same rows, same ids). */
@Controller()
export class ProjectsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  private async current(auth: V0AuthContext, request: FastifyRequest, id: string): Promise<ProjectView> {
    const acting = await actingFor(this.ctx, auth, request);
    const project = await invoke(getProject, this.ctx, { auth: acting.auth, id });
    assertNotArchived(project, 'project');
    return project;
  }

  @LegacyOperation('legacyGetProjects')
  async list(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = await actingFor(this.ctx, auth, request);
    const items = await legacyPage(this.ctx, input.query, (cursor, limit) => invoke(listProjects, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }), seekOf(this.ctx, acting.auth.workspaceId, 'projects', 'listProjects'));
    return items.map(toLegacy);
  }

  @LegacyOperation('legacyGetProjectsById')
  async get(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await this.current(auth, request, input.path._id));
  }

  @LegacyOperation('legacyPostProjects')
  async create(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const acting = await actingFor(this.ctx, auth, request);
    const project = await invoke(createProject, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, ATTRIBUTES) });
    void reply.status(201);
    return toLegacy(project);
  }

  @LegacyOperation('legacyPutProjectsById')
  async update(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(auth, request, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutProjects')
  async updateByBody(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput) {
    return this.write(auth, request, bodyAliasId(input.body), input.body);
  }

  private async write(auth: V0AuthContext, request: FastifyRequest, id: string, body: unknown) {
    const acting = await actingFor(this.ctx, auth, request);
    const project = await lastWriterWins(id, async () => {
      const current = await this.current(auth, request, id);
      return invoke(updateProject, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedRevision: Number(current.revision), ...pick(body, ATTRIBUTES) });
    });
    return toLegacy(project);
  }
}
