import { archiveProcedure } from '../kernel/archival.js';
import { archivableCustomFieldDefinition } from './view.js';

/**
 * `DELETE /v1/custom-field-definitions/{id}`: archives (never deletes); stored values stay and are still read, new
 * values writes naming it are 400. Again changes nothing. Writes `custom_field_definition.archived`.
 */
export const archiveCustomFieldDefinition = archiveProcedure('archiveCustomFieldDefinition', archivableCustomFieldDefinition);
