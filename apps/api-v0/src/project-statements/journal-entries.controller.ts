import { Op } from '@workcell/auth-kit';
import { Controller, Inject } from '@nestjs/common';
import { getProjectStatement, invoke, listProjectStatements, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
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

  private finance(op: Op): Op {
    return { ...op, auth: { ...op.auth, effectiveScopes: [...op.auth.effectiveScopes, FINANCE_READ] } };
  }

  @LegacyOperation('legacyGetJournalEntries')
  async listJournalEntries(@Op() caller: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    const op = this.finance(caller);
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listProjectStatements, op, { limit, ...since(cursor) }),
        seekOf(this.ctx, op.auth.workspaceId, 'projectStatements', 'listProjectStatements', { projectId: null, kind: null, from: null, to: null, withFinance: true }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetJournalEntriesById')
  async getJournalEntry(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.finance(op), getProjectStatement, input.path._id, 'journal entry'));
  }
}
