import { Controller, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { invoke, type ProcedureContext, renderCalendarFeed } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';

/** `GET /calendar/{token}.ics`: the member's iCalendar feed (public; the token is the credential). */
@Controller()
export class CalendarController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetCalendarByTokenIcs')
  async feed(@Input() input: OperationInput<{ token: string }, { page?: number; limit?: number }>, @Res() reply: FastifyReply) {
    const ics = await invoke(renderCalendarFeed, this.ctx, { token: input.path.token, ...input.query });
    return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(ics);
  }
}
