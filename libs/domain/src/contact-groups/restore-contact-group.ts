import { restoreProcedure } from '../kernel/archival.js';
import { archivableContactGroup } from './view.js';

/** `POST /v1/contact-groups/{id}/restore`: clears `archived_at` (no change when not archived); writes `contact_group.restored`. */
export const restoreContactGroup = restoreProcedure('restoreContactGroup', archivableContactGroup);
