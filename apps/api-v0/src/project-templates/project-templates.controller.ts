import { Op } from '@workcell/auth-kit';
import { Controller, Inject } from '@nestjs/common';
import { getProjectTemplate, invoke, listProjectTemplates, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { currentResource, legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };

/**
 * v0 project templates: the two reads over the v1 procedures (writes and deletes are `unavailable` in v0 and
 * exist only in v1, contract 4.3 rule 10). Archived templates are gone for v0 (404, left out of the list).
 */
@Controller()
export class ProjectTemplatesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetProjectTemplates')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    const items = await legacyPage(
      this.ctx,
      input.query,
      (cursor, limit) => invoke(listProjectTemplates, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
      seekOf(this.ctx, op.auth.workspaceId, 'projectTemplates', 'listProjectTemplates'),
    );
    return items.map(toLegacy);
  }

  @LegacyOperation('legacyGetProjectTemplatesById')
  async get(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getProjectTemplate, input.path._id, 'project template'));
  }
}
