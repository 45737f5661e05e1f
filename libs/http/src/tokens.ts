/** Injection tokens of the service runtime (interfaces have no runtime class to inject by). */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const DATABASE = Symbol('DATABASE');
export const REDIS = Symbol('REDIS');

/** A dependency readiness depends on: resolves when it is usable, rejects with the reason otherwise. */
export interface ReadinessProbe {
  readonly name: string;
  check(): Promise<void>;
}
