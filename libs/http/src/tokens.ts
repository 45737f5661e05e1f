/** Injection tokens of the service runtime (interfaces have no runtime class to inject by). */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const DATABASE = Symbol('DATABASE');
export const REDIS = Symbol('REDIS');
/** The service's name (api-v0, api-v1, auth, worker): the `service` label of its metrics, its traces' service name. */
export const SERVICE_NAME = Symbol('SERVICE_NAME');
/** The ProcedureContext (database, config, clock) domain procedures run with in this service. */
export const PROCEDURE_CONTEXT = Symbol('PROCEDURE_CONTEXT');
/** Class metadata of operational controllers (health) that are not API operations and need no credential. */
export const INFRASTRUCTURE_METADATA = 'workcell:infrastructure';

/** A dependency readiness depends on: resolves when it is usable, rejects with the reason otherwise. */
export interface ReadinessProbe {
  readonly name: string;
  check(): Promise<void>;
}
