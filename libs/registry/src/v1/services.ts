import { z } from 'zod';
import { archivableFields, casPatchOf, DateOnly, ExpectedVersion, LongText, Money, Name, RateInput, ResourceId, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud, family } from './builders.js';

const f = family('services');

export const Service = z
  .object({
    ...archivableFields,
    name: z.string(),
    description: z.string().nullable(),
    billable: z.boolean(),
    defaultRate: Money.nullable(),
    version: Version,
  })
  .meta({ id: 'Service', description: 'A service and its billing configuration.' });

const serviceFields = z.strictObject({
  name: Name,
  description: LongText.nullable().optional(),
  billable: z.boolean().optional(),
  defaultRate: RateInput.nullable().optional(),
});
export const ServiceCreate = serviceFields.meta({ id: 'ServiceCreate', description: 'A new service.' });
export const ServiceUpdate = casPatchOf(serviceFields, 'ServiceUpdate', 'Compare-and-set of service attributes.');

const rateFields = {
  memberId: ResourceId.nullable().describe('null: the rate for everyone without a member-specific rate.'),
  validFrom: DateOnly,
};
export const ServiceBillingRate = z.object({ ...rateFields, rate: Money }).meta({ id: 'ServiceBillingRate', description: 'A billing rate of a service.' });
export const ServiceBillingRates = z
  .object({ serviceId: ResourceId, rates: z.array(ServiceBillingRate), version: Version })
  .meta({ id: 'ServiceBillingRates', description: 'All billing rates of a service.' });
export const ServiceBillingRatesReplace = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    rates: z.array(z.strictObject({ ...rateFields, rate: RateInput })).max(1000),
  })
  .meta({ id: 'ServiceBillingRatesReplace', description: 'Atomic replacement of the billing rates.' });

export const serviceOperations = [
  ...archivableCrud('services', {
    singular: 'Service',
    plural: 'Services',
    path: '/v1/services',
    read: ['services:read'],
    write: ['services:write'],
    resource: Service,
    create: ServiceCreate,
    update: ServiceUpdate,
    updateConcurrency: 'cas',
  }),
  f.get('getServiceBillingRates', '/v1/services/{id}/billing-rates', {
    scopes: ['services:read'],
    data: ServiceBillingRates,
  }),
  f.replace('replaceServiceBillingRates', '/v1/services/{id}/billing-rates', {
    summary: 'Atomically replace the billing rates of a service',
    scopes: ['services:write'],
    concurrency: 'cas',
    body: ServiceBillingRatesReplace,
    data: ServiceBillingRates,
  }),
] satisfies readonly OperationDefinition[];
