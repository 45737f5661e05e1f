import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getCustomFieldValues, invoke, updateCustomFieldValues } from '@workcell/domain';
import { Input, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };
type TargetType = 'projects' | 'tasks' | 'contacts';

/**
 * Custom-field values of projects, tasks and contacts (custom-field-values:* with the target's own scope, both
 * checked by the gate); one procedure pair serves the three targets. Writes are compare-and-set.
 */
@Controller()
export class CustomFieldValuesController {
  private async read(targetType: TargetType, op: Op, input: OperationInput<Id>, reply: FastifyReply) {
    return versioned(reply, await invoke(getCustomFieldValues, op, { targetType, id: input.path.id }));
  }

  private async write(targetType: TargetType, op: Op, input: OperationInput<Id>, request: FastifyRequest, reply: FastifyReply) {
    return versioned(reply, await invoke(updateCustomFieldValues, op, { ...(input.body as object), targetType, id: input.path.id }));
  }

  @Operation('getProjectCustomFieldValues')
  getProjectCustomFieldValues(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read('projects', op, input, reply);
  }

  @Operation('updateProjectCustomFieldValues')
  updateProjectCustomFieldValues(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.write('projects', op, input, request, reply);
  }

  @Operation('getTaskCustomFieldValues')
  getTaskCustomFieldValues(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read('tasks', op, input, reply);
  }

  @Operation('updateTaskCustomFieldValues')
  updateTaskCustomFieldValues(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.write('tasks', op, input, request, reply);
  }

  @Operation('getContactCustomFieldValues')
  getContactCustomFieldValues(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read('contacts', op, input, reply);
  }

  @Operation('updateContactCustomFieldValues')
  updateContactCustomFieldValues(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.write('contacts', op, input, request, reply);
  }
}
