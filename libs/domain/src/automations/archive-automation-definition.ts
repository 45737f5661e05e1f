import { archiveProcedure } from '../kernel/archival.js';
import { archivableAutomationDefinition } from './view.js';

/** `DELETE /v1/automation-definitions/{id}`: archives the definition (it triggers nothing more; its versions and runs stay). Writes `automation_definition.archived`. */
export const archiveAutomationDefinition = archiveProcedure('archiveAutomationDefinition', archivableAutomationDefinition);
