import { Controller, type Type, UseGuards } from '@nestjs/common';
import { LegacyOperation } from '@workcell/http';
import { v0Operations } from '@workcell/registry';
import { UnavailableGuard } from './deprecation.js';

/**
 * Every v0 operation the registry marks `unavailable` (contact-group, journal-entry and project-template writes
 * and deletes; contract 4.3, migration rule 10), mounted from the registry in one place: the global guard
 * authenticates, then UnavailableGuard refuses with 403 and the v1 successor. The handlers never run.
 */
function unavailableController(): Type<unknown> {
  class UnavailableController {}
  for (const op of v0Operations.filter((o) => o.availability === 'unavailable')) {
    const handler = (): never => {
      throw new Error(`${op.operationId} is unavailable`);
    };
    Object.defineProperty(UnavailableController.prototype, op.operationId, { value: handler, writable: true, configurable: true, enumerable: false });
    const descriptor = Object.getOwnPropertyDescriptor(UnavailableController.prototype, op.operationId)!;
    LegacyOperation(op.operationId)(UnavailableController.prototype, op.operationId, descriptor);
  }
  UseGuards(UnavailableGuard)(UnavailableController);
  Controller()(UnavailableController);
  return UnavailableController;
}

export const UnavailableController = unavailableController();
