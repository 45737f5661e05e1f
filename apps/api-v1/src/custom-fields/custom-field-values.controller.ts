import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { getCustomFieldValues, invoke, type ProcedureContext, updateCustomFieldValues, type V1AuthContext } from '@workcell/domain';
import { Input, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };
type TargetType = 'projects' | 'tasks' | 'contacts';

/**
 * Custom-field values of projects, tasks and contacts (custom-field-values:* with the target's own scope, both
 * checked by the gate); one procedure pair serves the three targets. Writes are compare-and-set.
 */
@Controller()
export class CustomFieldValuesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  private async read(targetType: TargetType, auth: V1AuthContext, input: OperationInput<Id>, reply: FastifyReply) {
    return versioned(reply, await invoke(getCustomFieldValues, this.ctx, { auth, targetType, id: input.path.id }));
  }

  private async write(targetType: TargetType, auth: V1AuthContext, input: OperationInput<Id>, request: FastifyRequest, reply: FastifyReply) {
    return versioned(reply, await invoke(updateCustomFieldValues, this.ctx, { ...(input.body as object), targetType, id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('getProjectCustomFieldValues')
  getProjectCustomFieldValues(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read('projects', auth, input, reply);
  }

  @Operation('updateProjectCustomFieldValues')
  updateProjectCustomFieldValues(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.write('projects', auth, input, request, reply);
  }

  @Operation('getTaskCustomFieldValues')
  getTaskCustomFieldValues(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read('tasks', auth, input, reply);
  }

  @Operation('updateTaskCustomFieldValues')
  updateTaskCustomFieldValues(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.write('tasks', auth, input, request, reply);
  }

  @Operation('getContactCustomFieldValues')
  getContactCustomFieldValues(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read('contacts', auth, input, reply);
  }

  @Operation('updateContactCustomFieldValues')
  updateContactCustomFieldValues(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.write('contacts', auth, input, request, reply);
  }
}
