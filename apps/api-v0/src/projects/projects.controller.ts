import { Op } from '@workcell/auth-kit';
import { Controller, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createProject, getProject, invoke, listProjects, type ProcedureContext, updateProject } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const ATTRIBUTES = ['name', 'description', 'customerId', 'startsOn', 'dueOn', 'tagIds'];

/** v0 projects over the v1 project procedures (same rows, same ids). */
@Controller()
export class ProjectsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetProjects')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    const items = await legacyPage(
      this.ctx,
      input.query,
      (cursor, limit) => invoke(listProjects, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
      seekOf(this.ctx, op.auth.workspaceId, 'projects', 'listProjects'),
    );
    return items.map(toLegacy);
  }

  @LegacyOperation('legacyGetProjectsById')
  async get(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getProject, input.path._id, 'project'));
  }

  @LegacyOperation('legacyPostProjects')
  async create(@Op() op: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const project = await invoke(createProject, op, { ...pick(input.body, ATTRIBUTES) });
    void reply.status(201);
    return toLegacy(project);
  }

  @LegacyOperation('legacyPutProjectsById')
  async update(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(op, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutProjects')
  async updateByBody(@Op() op: Op, @Input() input: OperationInput) {
    return this.write(op, bodyAliasId(input.body), input.body);
  }

  private async write(op: Op, id: string, body: unknown) {
    const project = await lastWriterWins(id, async () => {
      const current = await currentResource(op, getProject, id, 'project');
      return invoke(updateProject, op, { id: current.id, expectedRevision: Number(current.revision), ...pick(body, ATTRIBUTES) });
    });
    return toLegacy(project);
  }
}
