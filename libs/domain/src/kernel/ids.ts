const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else names nothing, without asking the database. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * The one spelling of a resource id: UUIDs are case-insensitive, and lower case is how the database writes them,
 * so `ABC…` and `abc…` are one resource, one rate-limit budget and one id in audit entries and events. Anything
 * else is left as it is (it names nothing).
 */
export function canonicalId(id: string): string {
  return UUID.test(id) ? id.toLowerCase() : id;
}
