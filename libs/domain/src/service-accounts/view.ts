import type { ServiceAccountRow } from '@workcell/db';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';

export interface ServiceAccountView extends BaseView {
  readonly name: string;
  readonly description: string | null;
  readonly status: 'active' | 'disabled';
  readonly ownerMemberId: string;
}

export function serviceAccountView(row: ServiceAccountRow): ServiceAccountView {
  return withBaseFields(row, {
    name: row.name,
    description: row.description,
    status: row.status,
    ownerMemberId: row.ownerMemberId,
  });
}
