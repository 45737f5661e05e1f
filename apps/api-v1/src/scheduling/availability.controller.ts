import { Controller } from '@nestjs/common';
import { Op } from '@workcell/auth-kit';
import { getAvailability, invoke } from '@workcell/domain';
import { Input, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };

/** Availability, derived at request time (libs/domain scheduling/get-availability.ts); the delegated route names the member. */
@Controller()
export class AvailabilityController {
  @Operation('getAvailability')
  async getAvailability(@Op() op: Op, @Input() input: OperationInput) {
    return single(await invoke(getAvailability, op, { ...input.query }));
  }

  @Operation('getMemberAvailability')
  async getMemberAvailability(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getAvailability, op, { ...input.query, memberId: input.path.id }));
  }
}
