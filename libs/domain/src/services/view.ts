import { findService, type ServiceBillingRateRow, type ServiceRow, setServiceArchived, type Db } from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import { versionOf } from '../kernel/cas.js';
import type { Versioned } from '../kernel/versioned.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { foundOr, idOf, notFoundOf } from '../kernel/lookup.js';

/**
 * Services and their billing configuration (scopes services:*; services:read also reads billing rates, contract
 * 5.3). A service's `version` is its revision and is also the compare-and-set version of its billing-rate set:
 * replacing the rates moves it on, as a time entry's billing does. Rates are stored as numeric(14,4), not
 * negative (400 with a pointer otherwise).
 */

export type Money = { readonly amount: string; readonly currency: string };

/** A service as the registry's Service. */
export interface ServiceView extends ArchivableView {
  readonly name: string;
  readonly description: string | null;
  readonly billable: boolean;
  readonly defaultRate: Money | null;
  readonly version: string;
}

export function serviceView(row: ServiceRow): ServiceView {
  return withArchivableFields(row, {
    name: row.name,
    description: row.description,
    billable: row.billable,
    defaultRate: row.billingRate === null || row.currency === null ? null : { amount: row.billingRate, currency: row.currency },
    version: versionOf(row.revision),
  });
}

export function versionedService(row: ServiceRow): Versioned<ServiceView> {
  return { resource: serviceView(row), revision: row.revision };
}

/** The registry's ServiceBillingRates. */
export interface ServiceBillingRatesView {
  readonly serviceId: string;
  readonly rates: { readonly memberId: string | null; readonly validFrom: string; readonly rate: Money }[];
  readonly version: string;
}

export function versionedBillingRates(service: ServiceRow, rates: readonly ServiceBillingRateRow[]): Versioned<ServiceBillingRatesView> {
  return {
    resource: {
      serviceId: service.id,
      rates: rates.map((r) => ({ memberId: r.memberId, validFrom: r.validFrom.toISOString().slice(0, 10), rate: { amount: r.rate, currency: r.currency } })),
      version: versionOf(service.revision),
    },
    revision: service.revision,
  };
}

export const serviceNotFound = notFoundOf('service');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const serviceIdOf = (raw: string): string => idOf(raw, serviceNotFound);

export const findServiceOr404 = (tx: Db, workspaceId: string, id: string): Promise<ServiceRow> => foundOr(findService(tx, workspaceId, id), serviceNotFound);

/** How a service is archived and restored (kernel/archival.ts). */
export const archivableService = archivable({ type: 'service', find: findService, setArchived: setServiceArchived, answer: versionedService });
