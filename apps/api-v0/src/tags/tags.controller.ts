import { Op } from '@workcell/auth-kit';
import { Controller, Inject } from '@nestjs/common';
import { getTag, invoke, listTags, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { currentResource, legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };

/** v0 tags (reads only: the frozen v0 has no tag writes) over the v1 tag procedures. */
@Controller()
export class TagsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetTags')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listTags, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
        seekOf(this.ctx, op.auth.workspaceId, 'tags', 'listTags'),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetTagsById')
  async get(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getTag, input.path._id, 'tag'));
  }
}
