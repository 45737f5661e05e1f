import { Controller, Inject } from '@nestjs/common';
import { getProjectStatement, invoke, listProjectStatements, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
import { currentResource, legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const since = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/**
 * v0 journal entries: reads only (the writes are `unavailable` and answer 403 naming their v1 replacement), over the
 * v1 project-statement procedures. v0 has no scopes: the team token sees the team's whole journal, budget
 * statements and `purchasePrice` included, exactly as the frozen contract showed it; so the v1 finance read
 * overlay is part of the v0 caller's context here.
 */
const FINANCE_READ = 'project-statements:finance:read';

@Controller()
export class JournalEntriesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  private finance(acting: Acting) {
    return { ...acting.auth, effectiveScopes: [...acting.auth.effectiveScopes, FINANCE_READ] };
  }

  @LegacyOperation('legacyGetJournalEntries')
  async listJournalEntries(@V0Acting() caller: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = this.finance(caller);
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listProjectStatements, this.ctx, { auth: acting, limit, ...since(cursor) }),
        seekOf(this.ctx, acting.workspaceId, 'projectStatements', 'listProjectStatements', { projectId: null, kind: null, from: null, to: null, withFinance: true }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetJournalEntriesById')
  async getJournalEntry(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getProjectStatement, this.finance(acting), input.path._id, 'journal entry'));
  }
}
