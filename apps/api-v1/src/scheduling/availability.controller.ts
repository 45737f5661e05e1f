import { Controller, Inject } from '@nestjs/common';
import { Op } from '@workcell/auth-kit';
import { getAvailability, invoke, type ProcedureContext } from '@workcell/domain';
import { Input, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

type Id = { id: string };

/** Availability, derived at request time (libs/domain scheduling/get-availability.ts); the delegated route names the member. */
@Controller()
export class AvailabilityController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('getAvailability')
  async getAvailability(@Op() op: Op, @Input() input: OperationInput) {
    return single(await invoke(getAvailability, op, { ...input.query }));
  }

  @Operation('getMemberAvailability')
  async getMemberAvailability(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getAvailability, op, { ...input.query, memberId: input.path.id }));
  }
}
