import type { ServiceAccountRow } from '@workcell/db';

export interface ServiceAccountView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: 'active' | 'disabled';
  readonly ownerMemberId: string;
}

export function serviceAccountView(row: ServiceAccountRow): ServiceAccountView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    name: row.name,
    description: row.description,
    status: row.status,
    ownerMemberId: row.ownerMemberId,
  };
}
