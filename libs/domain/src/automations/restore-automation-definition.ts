import { restoreProcedure } from '../kernel/archival.js';
import { archivableAutomationDefinition } from './view.js';

/** `POST /v1/automation-definitions/{id}/restore`: its published version triggers again. Writes `automation_definition.restored`. */
export const restoreAutomationDefinition = restoreProcedure('restoreAutomationDefinition', archivableAutomationDefinition);
