import { restoreProcedure } from '../kernel/archival.js';
import { archivableCustomFieldDefinition } from './view.js';

/** `POST /v1/custom-field-definitions/{id}/restore`: clears `archived_at` (no change when not archived); writes `custom_field_definition.restored`. */
export const restoreCustomFieldDefinition = restoreProcedure('restoreCustomFieldDefinition', archivableCustomFieldDefinition);
