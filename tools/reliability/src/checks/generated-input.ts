import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { PERMISSION_KEYS, V1_SCOPES } from '@workcell/credentials';
import { CUSTOM_FIELD_TEXT_MAX_CHARS, CustomFieldType, listEnvelope, type OperationDefinition, RESOURCE_DOMAINS, type V0OperationDefinition, v0Operations, v1Operations } from '@workcell/registry';
import { assertShape } from '@workcell/e2e/support/v1';
import { z } from 'zod';
import { arbitraryOf, dayArbitrary, type Hints, textArbitrary, timeZoneArbitrary } from '../support/arbitraries.js';
import { type Answer, inParallel, type Probe, send } from '../support/http.js';
import { judge } from '../support/judge.js';
import { type Finding, Ledger } from '../support/ledger.js';
import { currentEtag, currentVersion } from '../support/preconditions.js';
import { refused, type Replayable, resendRefused, settled, verifyUnchanged } from '../support/refusals.js';
import { type JsonSchema, jsonSchemaOf } from '../support/samples.js';
import type { World } from '../support/world.js';
import type { OperationTarget } from '../support/target.js';

/**
 * Check 6: generated valid input (issue 25). Every operation of both generations (the registry's 237 v1
 * operations, the 501 ones included, and 87 v0 operations) is sent requests drawn with fast-check from its own
 * request schemas (support/arbitraries.ts): path parameters, queries, headers and bodies the schema accepts, at
 * the edges where defects live (the first and last representable dates and instants, extreme time zones, minimum
 * and maximum lengths, empty and maximal arrays, numeric bounds, every enum value, optional properties present
 * and absent, null, unicode) and, for task recurrences, rule combinations. A valid-by-schema request may still be
 * refused (a cross-field rule, an id that does not exist): a 4xx with the generation's error document is a fine
 * answer. A finding is a 5xx (a 501 only from an unimplemented v1 operation), no answer or a slow one, a 4xx without
 * the error document, a 2xx whose body is not the documented response, and a write by a refused request
 * (support/refusals.ts). Reads run first and once more after the writes, over what the writes stored.
 *
 * A failing request is shrunk by fast-check to a minimal counterexample, which the finding prints as an entry for
 * src/regressions/generated-input.json; the entries there are replayed first on every run. Draws name A's
 * resources by tokens (`{{existing}}`, `{{id:/v1/projects#0}}`, `{{version}}`, `{{etag}}`), filled in when a request
 * is sent, so an entry means the same in every run.
 */

/** The default seed; `RELIABILITY_SEED` overrides it (the summary line names the seed of the run). */
export const DEFAULT_SEED = 20_260_302;
/** Runs per operation: enough to meet each boundary kind a few times within the suite's budget (docs/testing.md). */
const RUNS = 10;
/** Operations with rich bodies (rule combinations, per-type values, flows) get more. */
const RICH_RUNS = 40;
const RICH_FAMILIES = new Set(['task-recurrences', 'custom-field-definitions', 'custom-field-values', 'automations', 'appointments', 'absences', 'time-entries']);
/** Runs per read in the read-back pass (lists and reads over what the writes stored). */
const READ_BACK_RUNS = 3;
/** Requests a failure may spend on shrinking before the smallest counterexample so far is reported. */
const SHRINK_BUDGET = 150;
/** An answer slower than this is a finding (the slowest honest request here takes about a second). */
const SLOW_MS = 10_000;
/** Refused requests of an operation that are sent again between two digests. */
const REFUSED_BATCH = 8;

const REGRESSIONS = new URL('../../src/regressions/generated-input.json', import.meta.url);

/** What fast-check draws for one request: world-independent (ids and validators are tokens filled in when sent). */
export interface Draw {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
}

/** A shrunk counterexample kept in src/regressions/generated-input.json. */
export interface RegressionCase {
  /** `v1 createTaskRecurrence`, `v0 legacyPutTasksById`. */
  readonly operation: string;
  readonly draw: Draw;
  /** What it found when it was found (documentation only). */
  readonly found?: string;
}

/**
 * Known defects the check tolerates until they are fixed, each named exactly (operation and the input that
 * shows it): an entry here is a finding someone owns, to be removed with its fix.
 */
interface KnownDefect {
  readonly operation: string;
  /** The finding classes it shows as. */
  readonly kinds: readonly string[];
  readonly matches: (draw: Draw) => boolean;
  readonly why: string;
}
const KNOWN_DEFECTS: readonly KnownDefect[] = [];

const EXISTING = '{{existing}}';
const VERSION = '{{version}}';
const ETAG = '{{etag}}';
const ID_TOKEN = /^\{\{id:(.+)#(\d+)\}\}$/;
const FRESH_KEY = /^\{\{fresh-key:(\d+)\}\}$/;

interface Target extends OperationTarget {
  readonly runs: number;
  readonly draw: fc.Arbitrary<Draw>;
  /** The request of a draw, with A's ids, the current validators and fresh keys filled in. */
  probe(draw: Draw): Promise<Probe>;
  /** What is wrong with a 2xx answer (status and body against the registry), or null. */
  answerProblem(answer: Answer): string | null;
}

/** A small stable hash, so each operation's seed depends on the run's seed and its name only. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Replaces every token string of a draw's value, deeply. */
function fill(value: unknown, token: (s: string) => unknown): unknown {
  if (typeof value === 'string') return token(value);
  if (Array.isArray(value)) return value.map((v) => fill(v, token));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, token)]));
  return value;
}

/** A key of `n` characters the Idempotency-Key pattern takes, new each time (a reused key would replay). */
const freshKey = (n: number) =>
  `k${randomBytes(n)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}`.slice(0, n);

const queryString = (query: Readonly<Record<string, unknown>>) => {
  const entries = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
};

/** The properties of an object schema as arbitraries of one value each (path and query parameters, headers). */
function parameters(schema: z.ZodType | null, hints: Hints, parameter: (name: string, derived: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> = (_n, d) => d): fc.Arbitrary<Record<string, unknown>> {
  const root = schema ? jsonSchemaOf(schema) : null;
  if (!root) return fc.constant({});
  return arbitraryOf(root, {
    ...hints,
    special: (name, component, node, derived) => (node === root || name === '' ? undefined : parameter(name, hints.special?.(name, component, node, derived) ?? derived())),
  }) as fc.Arbitrary<Record<string, unknown>>;
}

/** The recurrence rules worth drawing: each frequency with byWeekday × byMonthDay × bySetPosition × interval × until/count. */
const recurrenceRule: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ frequency: 'external' }) },
  {
    weight: 8,
    arbitrary: fc
      .record({
        frequency: fc.constantFrom('daily', 'weekly', 'monthly', 'yearly'),
        interval: fc.option(fc.oneof(fc.constantFrom(1, 2, 7, 53, 366), fc.integer({ min: 1, max: 366 })), { nil: undefined }),
        byWeekday: fc.option(fc.uniqueArray(fc.constantFrom('mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'), { minLength: 1, maxLength: 7 }), { nil: undefined }),
        byMonthDay: fc.option(
          fc.uniqueArray(fc.oneof(fc.constantFrom(1, 28, 29, 30, 31, -1, -31), fc.integer({ min: 1, max: 31 }), fc.integer({ min: -31, max: -1 })), { minLength: 1, maxLength: 6 }),
          { nil: undefined },
        ),
        bySetPosition: fc.option(
          fc.uniqueArray(fc.oneof(fc.constantFrom(1, -1, 2, -2, 5, -5, 53, 366, -366), fc.integer({ min: 1, max: 366 }), fc.integer({ min: -366, max: -1 })), { minLength: 1, maxLength: 4 }),
          { nil: undefined },
        ),
        end: fc.oneof(fc.constant(undefined), fc.record({ count: fc.oneof(fc.constantFrom(1, 2, 10_000), fc.integer({ min: 1, max: 10_000 })) }), fc.record({ until: dayArbitrary })),
      })
      .map(({ end, ...rule }) => {
        const out: Record<string, unknown> = { ...(end ?? {}) };
        for (const [k, v] of Object.entries(rule)) if (v !== undefined) out[k] = v;
        // What RFC 5545 and the service refuse (drawn by the schema's own arbitrary): month days in a daily or weekly
        // rule, a set position without byWeekday or byMonthDay to pick from.
        if (out['frequency'] === 'daily' || out['frequency'] === 'weekly') delete out['byMonthDay'];
        if (out['bySetPosition'] && !out['byWeekday'] && !out['byMonthDay']) delete out['bySetPosition'];
        return out;
      }),
  },
);

/** A series with its rule's `until` moved to its start where it lay before it. */
function untilAfterStart(series: unknown): unknown {
  const value = series as { startsOn?: unknown; rule?: { until?: unknown } } | null;
  const until = value?.rule?.until;
  if (typeof value?.startsOn !== 'string' || typeof until !== 'string' || until >= value.startsOn) return series;
  return { ...value, rule: { ...value.rule, until: value.startsOn } };
}

interface Catalogues {
  readonly eventTypes: readonly string[];
  readonly actions: readonly { id: string; inputSchema: JsonSchema }[];
  /** Read again before the custom-field-values operations: definitions made earlier in the run (a required one) count. */
  customFields: readonly { key: string; fieldType: string; targetTypes: readonly string[]; options: readonly string[]; required: boolean }[];
}

/**
 * `seed`: the run's seed (each operation's is derived from it and its name); `runs`: a factor on the runs per
 * operation (a longer hunt than CI's); `only`: the operations to run; `record`: append the run's shrunk
 * counterexamples to the regression file.
 */
export async function generatedInput(world: World, options: { seed?: number; runs?: number; only?: (name: string) => boolean; record?: boolean } = {}): Promise<Ledger> {
  const ledger = new Ledger('generated-input');
  const { cell, a } = world;
  const database = cell.database;
  const seed = options.seed ?? DEFAULT_SEED;
  ledger.notes.push(`seed ${seed}`);
  const v1Get = (path: string, token = a.pat) => send(world.v1.url, { method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
  const v1Post = (path: string, body: unknown) =>
    send(world.v1.url, { method: 'POST', path, headers: { authorization: `Bearer ${a.pat}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  // A custom field of every type on every target type, so values are drawn for each type (dates at the bounds,
  // numbers at the double's edges, options, members).
  for (const fieldType of CustomFieldType.options) {
    const options =
      fieldType === 'select' || fieldType === 'multi-select'
        ? [
            { key: 'first', label: 'First' },
            { key: 'last', label: 'Last' },
          ]
        : undefined;
    await v1Post('/v1/custom-field-definitions', {
      key: `generated_${fieldType.replace('-', '_')}`,
      label: `Generated ${fieldType}`,
      fieldType,
      targetTypes: ['contacts', 'projects', 'tasks'],
      ...(options ? { options } : {}),
    });
  }
  const dataOf = <T>(answer: Answer) => ((answer.json as { data?: T } | undefined)?.data ?? undefined) as T | undefined;
  const definitions = async () =>
    (
      dataOf<{ key: string; fieldType: string; targetTypes: string[]; options?: { key: string }[]; required: boolean; archivedAt: string | null }[]>(
        await v1Get('/v1/custom-field-definitions?limit=200'),
      ) ?? []
    )
      .filter((d) => d.archivedAt === null)
      .map((d) => ({ key: d.key, fieldType: d.fieldType, targetTypes: d.targetTypes, options: (d.options ?? []).map((o) => o.key), required: d.required === true }));
  const catalogues: Catalogues = {
    eventTypes: (dataOf<{ eventTypes?: { name: string }[] }>(await v1Get('/v1/event-catalog'))?.eventTypes ?? []).map((e) => e.name),
    actions: (dataOf<{ id: string; inputSchema: JsonSchema }[]>(await v1Get('/v1/automation-actions?limit=200')) ?? []).map(({ id, inputSchema }) => ({ id, inputSchema })),
    customFields: await definitions(),
  };

  // A's ids as tokens (`{{id:/v1/projects#0}}`), so a draw (and a regression entry) means the same in every run.
  const tokenOf = new Map<string, string>();
  for (const [collection, list] of world.ids) list.forEach((id, i) => tokenOf.set(id, `{{id:${collection}#${i}}}`));
  const idTokens = (property: string): string[] => {
    const id = world.resolve(property);
    if (id === undefined) return [];
    const collection = [...world.ids].find(([, list]) => list.includes(id))?.[0];
    return (collection ? world.ids.get(collection)!.slice(0, 3) : [id]).map((i) => tokenOf.get(i) ?? i);
  };
  const idOfToken = (token: string): string | undefined => {
    const match = ID_TOKEN.exec(token);
    return match ? world.ids.get(match[1]!)?.[Number(match[2])] : undefined;
  };

  /** What the services know beyond the JSON Schema: catalogues, existing custom fields, coherent rules. */
  const hintsFor = (generation: 'v0' | 'v1', path: string): Hints => ({
    ids: idTokens,
    presence: (name) => (name === 'cursor' ? 1 / 6 : 0.5),
    special: (name, component, node, derived) => {
      const mix = (own: fc.Arbitrary<unknown>, weight = 4) => fc.oneof({ weight, arbitrary: own }, { weight: 1, arbitrary: derived() });
      // The current version mostly, so a compare-and-set write gets past its precondition (v0 ignores it).
      if (name === 'expectedVersion' && generation === 'v1') return mix(fc.constant(VERSION), 9);
      if (component === 'RecurrenceRule') return mix(recurrenceRule, 3);
      // A series' until lies on or after its start, mostly (a 400 otherwise).
      if (component?.startsWith('TaskRecurrence')) return fc.tuple(derived(), fc.nat(3)).map(([series, free]) => (free === 0 ? series : untilAfterStart(series)));
      // One step of many with a drawn action id refuses the whole flow: the catalogue's actions nearly always.
      if (component === 'AutomationStep' && catalogues.actions.length > 0) {
        return mix(fc.oneof(...catalogues.actions.map((action) => fc.record({ actionId: fc.constant(action.id), input: arbitraryOf(action.inputSchema, hintsFor(generation, path)) }))), 30);
      }
      if (component === 'AutomationTrigger' && catalogues.eventTypes.length > 0)
        return fc.tuple(derived(), fc.constantFrom(...catalogues.eventTypes)).map(([trigger, type]) => ({ ...(trigger as object), eventType: type }));
      // A webhook's filter also takes `*`, every event type.
      if (name === 'eventType' && catalogues.eventTypes.length > 0) return mix(fc.constantFrom('*', ...catalogues.eventTypes));
      if (name === 'values' && typeof node['additionalProperties'] === 'object') {
        const target = /^\/v1\/(contacts|projects|tasks)\//.exec(path)?.[1];
        if (target === undefined) return undefined;
        const valueOf = (f: Catalogues['customFields'][number]): fc.Arbitrary<unknown> => {
          const typed: Record<string, fc.Arbitrary<unknown>> = {
            text: textArbitrary(0, CUSTOM_FIELD_TEXT_MAX_CHARS),
            number: fc.oneof(fc.constantFrom(0, -0.5, 1e15, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324), fc.double({ noNaN: true, noDefaultInfinity: true })),
            date: dayArbitrary,
            boolean: fc.boolean(),
            select: fc.constantFrom(...f.options, 'missing'),
            'multi-select': f.options.length > 0 ? fc.uniqueArray(fc.constantFrom(...f.options), { maxLength: f.options.length }) : fc.constant([]),
            member: fc.constantFrom(...idTokens('memberId'), '00000000-0000-4000-8000-000000000000'),
          };
          return fc.oneof({ weight: 6, arbitrary: typed[f.fieldType] ?? fc.constant(null) }, { weight: 1, arbitrary: fc.constant(null) });
        };
        // Built when drawn, from the definitions as they are then. A required field must keep a value: it is always
        // among the keys written.
        const own = fc.constant(null).chain(() => {
          const fields = catalogues.customFields.filter((f) => f.targetTypes.includes(target));
          const required = fields.filter((f) => f.required);
          const chosen = fc.subarray(fields.filter((f) => !f.required)).map((optional) => [...required, ...optional]);
          return chosen.chain((list) => fc.tuple(...list.map(valueOf)).map((values) => Object.fromEntries(list.map((f, i) => [f.key, values[i]]))));
        });
        return mix(own);
      }
      if (name === 'permission') return mix(fc.constantFrom(...PERMISSION_KEYS));
      if (name === 'scope' && !Array.isArray(node['enum'])) return mix(fc.constantFrom(...V1_SCOPES));
      if (name === 'types' && node['type'] === 'string') return mix(fc.uniqueArray(fc.constantFrom(...RESOURCE_DOMAINS), { minLength: 1 }).map((d) => d.join(',')));
      if (/currency$/i.test(name) && node['type'] === 'string') return mix(fc.constantFrom('EUR', 'USD', 'JPY', 'BHD', 'CLF'));
      if (name === 'idempotency-key') return fc.constantFrom(8, 36, 255).map((n) => `{{fresh-key:${n}}}`);
      // The current ETag mostly, so the write gets past If-Match; a drawn one is a 412.
      if (name === 'if-match') return mix(fc.constant(ETAG), 9);
      if (/timeZone$/i.test(name) && node['type'] === 'string') return mix(timeZoneArbitrary, 8);
      return undefined;
    },
  });

  /** Path parameters: A's resource mostly (`{{existing}}`), sometimes a drawn id (a random UUID: a 404 is fine). */
  const pathDraw = (schema: z.ZodType | null, generation: 'v0' | 'v1', path: string) =>
    parameters(schema, { ...hintsFor(generation, path), ids: () => [] }, (_name, derived) => fc.oneof({ weight: 8, arbitrary: fc.constant(EXISTING) }, { weight: 2, arbitrary: derived }));

  const fillPath = (template: string, existingPath: string, params: Readonly<Record<string, unknown>>) => {
    const existing = existingPath.split('/');
    return template
      .split('/')
      .map((segment, i) => {
        const name = /\{(\w+)\}/.exec(segment)?.[1];
        if (name === undefined) return segment;
        // A's resource is the whole segment as the world fills it (`<token>.ics`); a drawn value replaces the parameter.
        return params[name] === EXISTING || params[name] === undefined ? existing[i]! : segment.replace(`{${name}}`, encodeURIComponent(String(params[name])));
      })
      .join('/');
  };

  /** A comment's (an automation step's) target id follows its target type: A's resource of that type. */
  const coherent = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(coherent);
    if (value === null || typeof value !== 'object') return value;
    const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, coherent(v)])) as Record<string, unknown>;
    const type = out['targetType'];
    if (typeof type === 'string' && typeof out['targetId'] === 'string' && ID_TOKEN.test(out['targetId']) && world.ids.has(`/v1/${type}`)) out['targetId'] = `{{id:/v1/${type}#0}}`;
    return out;
  };

  const v1Target = (op: OperationDefinition): Target => {
    const hints = hintsFor('v1', op.path);
    const bodyRoot = op.request.body ? jsonSchemaOf(op.request.body) : null;
    const body = bodyRoot ? arbitraryOf(bodyRoot, hints) : fc.constant(undefined);
    const draw = fc
      .record({ path: pathDraw(op.request.path, 'v1', op.path), query: parameters(op.request.query, hints), headers: parameters(op.request.headers, hints), body })
      .map((d) => (d.body === undefined ? { path: d.path, query: d.query, headers: d.headers } : { ...d, body: coherent(d.body) }));
    const inputs = Number(Boolean(op.request.path)) + Number(Boolean(op.request.query)) + Number(Boolean(op.request.body)) + Number(Boolean(op.request.headers));
    let token: string | undefined;
    return {
      generation: 'v1',
      name: `v1 ${op.operationId}`,
      method: op.method,
      unimplemented: !world.served.has(op.operationId),
      async: op.async,
      runs: inputs === 0 ? 2 : RICH_FAMILIES.has(op.family) && op.request.body ? RICH_RUNS : RUNS,
      draw,
      async probe(d) {
        // A credential of the operation's own: some operations revoke the credential that calls them.
        token ??= await world.mintToken('generated');
        const path = fillPath(op.path, await world.pathFor(op), d.path);
        let version: string | undefined;
        const filled = fill(d.body, (s) => (s === VERSION ? s : (idOfToken(s) ?? s)));
        const bodyText = filled === undefined ? undefined : JSON.stringify(filled);
        if (bodyText?.includes(VERSION)) version = (await currentVersion(world.v1.url, op.path, path, token)) ?? 'none';
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        for (const [name, value] of Object.entries(d.headers)) {
          if (value === ETAG) headers[name] = (await currentEtag(world.v1.url, op.path, path, token)) ?? '"none"';
          else if (typeof value === 'string') headers[name] = FRESH_KEY.test(value) ? freshKey(Number(FRESH_KEY.exec(value)![1])) : value;
        }
        if (bodyText !== undefined) headers['content-type'] = 'application/json';
        const query = fill(d.query, (s) => idOfToken(s) ?? s) as Record<string, unknown>;
        return {
          method: op.method,
          path: `${path}${queryString(query)}`,
          headers,
          ...(bodyText === undefined ? {} : { body: version === undefined ? bodyText : bodyText.replaceAll(JSON.stringify(VERSION), JSON.stringify(version)) }),
        };
      },
      answerProblem: (answer) => v1AnswerProblem(op, answer),
    };
  };

  const v0Target = (op: V0OperationDefinition): Target => {
    const hints = hintsFor('v0', op.path);
    const v1 = v1Operations.find((o) => o.operationId === op.v1OperationId);
    // v0 bodies are any JSON object; the v1 operation's body is what the v0 adapter passes on (its declared
    // attributes), so it is drawn from that schema, with fields v0 ignores (a team, an id) besides.
    const v1Body = v1?.request.body ? jsonSchemaOf(v1.request.body) : null;
    const ignored = fc.dictionary(
      fc.oneof(fc.constantFrom('team', 'teamId', 'workspaceId', '_team', 'id', 'createdAt', 'revision'), fc.string({ minLength: 1, maxLength: 12 })),
      fc.jsonValue({ maxDepth: 1 }),
      { maxKeys: 3 },
    );
    const takesBody = op.body === 'required' || op.bodyAlias;
    const aliasId = fc.oneof({ weight: 8, arbitrary: fc.constant(EXISTING) }, { weight: 2, arbitrary: fc.oneof(fc.uuid(), textArbitrary(1, 64)) });
    const body = takesBody
      ? fc
          .record({ attributes: v1Body ? arbitraryOf(v1Body, hints) : fc.constant({}), ignored, alias: op.bodyAlias ? aliasId : fc.constant(undefined) })
          .map(({ attributes, ignored: extra, alias }) => ({ ...extra, ...(attributes as object), ...(alias === undefined ? {} : { _id: alias }) }))
      : fc.constant(undefined);
    const draw = fc
      .record({ path: pathDraw(op.request.path, 'v0', op.path), query: parameters(op.request.query, hints), body })
      .map((d) => ({ path: d.path, query: d.query, headers: {}, ...(d.body === undefined ? {} : { body: coherent(d.body) }) }));
    // The alias writes name their resource in the body: A's, as the `/{_id}` operation of the same resource finds it.
    const sibling = v0Operations.find((o) => o.path === `${op.path}/{_id}` && o.method === 'GET');
    return {
      generation: 'v0',
      name: `v0 ${op.operationId}`,
      method: op.method,
      unimplemented: false,
      async: false,
      runs: op.pathParams.length === 0 && !op.pageQuery && !takesBody ? 2 : RUNS,
      draw,
      async probe(d) {
        const existing = world.pathForV0(op).replace('{token}', cell.demo.calendarFeedToken);
        const path = fillPath(op.path, existing, d.path).replace('{token}', cell.demo.calendarFeedToken);
        const aliasOf = sibling ? world.pathForV0(sibling).split('/').pop() : undefined;
        const filled = fill(d.body, (s) => (s === EXISTING ? (aliasOf ?? s) : (idOfToken(s) ?? s)));
        return {
          method: op.method,
          path: `${path}${queryString(d.query)}`,
          // Each request takes the next team token: v0 limits a token to 100 requests a minute per path.
          headers: { authorization: `Bearer ${a.teamToken()}`, ...(filled === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(filled === undefined ? {} : { body: JSON.stringify(filled) }),
        };
      },
      answerProblem: (answer) => v0AnswerProblem(op, answer),
    };
  };

  // Reads first, then writes, then deletes (an accepted delete would leave later operations only 404s; v0's first,
  // whose archived resources v1's deletes then meet), restores last, when there is something archived to restore.
  const rank = (t: Target) => (t.method === 'GET' ? 0 : t.name.startsWith('v1 restore') ? 4 : t.method !== 'DELETE' ? 1 : t.generation === 'v0' ? 2 : 3);
  const targets = [...v1Operations.map(v1Target), ...v0Operations.map(v0Target)].filter((t) => !options.only || options.only(t.name)).sort((x, y) => rank(x) - rank(y));
  const byName = new Map(targets.map((t) => [t.name, t]));
  const url = (t: Target) => (t.generation === 'v1' ? world.v1.url : cell.v0.url);

  interface Outcome {
    readonly draw: Draw;
    readonly probe: Probe;
    readonly answer: Answer;
    readonly findings: readonly Finding[];
  }
  /** Sends one draw and judges its answer into a ledger of its own (shrinking sends many; only the last failure is reported). */
  const attempt = async (target: Target, draw: Draw, label: string): Promise<Outcome> => {
    const probe = await target.probe(draw);
    const answer = await send(url(target), probe);
    const scratch = new Ledger(ledger.check);
    judge(scratch, target.generation, target.name, probe, answer, { unimplemented: target.unimplemented, label });
    const problem = answer.status >= 200 && answer.status < 300 ? target.answerProblem(answer) : null;
    if (problem) scratch.find('response-not-documented', target.name, probe, answer, problem, label);
    // A hang in all but name: one request holding the service this long (its event loop, a lock) stalls the others.
    if (answer.status !== 0 && answer.ms > SLOW_MS) scratch.find('slow-answer', target.name, probe, answer, `answered ${answer.status} after ${answer.ms} ms (more than ${SLOW_MS})`, label);
    ledger.requests += scratch.requests;
    for (const [k, v] of scratch.answers) ledger.answers.set(k, (ledger.answers.get(k) ?? 0) + v);
    const known = KNOWN_DEFECTS.find((k) => k.operation === target.name && k.matches(draw) && scratch.findings.every((f) => k.kinds.includes(f.kind)));
    if (known && scratch.findings.length > 0) {
      ledger.bump('known defects met (allow-listed)');
      // A blocked service answers again once its work is done: wait for that, or the next request pays for it.
      if (answer.status === 0) await send(url(target), { method: 'GET', path: target.generation === 'v1' ? '/v1' : '/' }, 120_000);
      return { draw, probe, answer, findings: [] };
    }
    return { draw, probe, answer, findings: scratch.findings };
  };
  const report = (outcome: Outcome, how: string) => {
    const entry: RegressionCase = { operation: outcome.findings[0]!.operation, draw: outcome.draw, found: `${outcome.answer.status || 'no answer'}: ${outcome.findings[0]!.problem}`.slice(0, 300) };
    for (const f of outcome.findings) ledger.findings.push({ ...f, problem: `${f.problem}\n      ${how}\n      regression entry: ${JSON.stringify(entry)}` });
    return entry;
  };

  // 1. The kept counterexamples, every run, before anything random.
  const regressions = JSON.parse(readFileSync(REGRESSIONS, 'utf8')) as RegressionCase[];
  for (const entry of regressions) {
    const target = byName.get(entry.operation);
    if (!target) {
      if (!options.only) ledger.find('stale-regression', entry.operation, JSON.stringify(entry.draw), undefined, 'no operation of the registry has this name any more', 'regression case');
      continue;
    }
    ledger.bump('regression cases');
    const outcome = await attempt(target, entry.draw, 'regression case');
    if (outcome.findings.length > 0) report(outcome, 'a kept regression case (src/regressions/generated-input.json) fails again');
  }

  // 2. Drawn requests, operation by operation, each with a seed of its own derived from the run's; then the reads
  // once more (read-back), over everything the writes stored at its boundaries, once the worker is done with it
  // (occurrences materialised, exports written).
  const found: RegressionCase[] = [];
  const passes = [...targets.map((target) => ({ target, readBack: false })), ...targets.filter((t) => t.method === 'GET').map((target) => ({ target, readBack: true }))];
  let settledForReadBack = false;
  for (const { target, readBack } of passes) {
    if (readBack && !settledForReadBack) {
      await settled(database, a.workspaceId);
      settledForReadBack = true;
    }
    ledger.bump(readBack ? 'operations read back' : 'operations');
    if (target.name.endsWith('CustomFieldValues')) catalogues.customFields = await definitions();
    const refusedDraws: Draw[] = [];
    let failure: Outcome | undefined;
    let shrinking = 0;
    const label = readBack ? 'read back after the writes' : 'generated valid input';
    const property = fc.asyncProperty(target.draw, async (draw) => {
      // Past the budget a candidate "passes" unsent: fast-check stops there and reports the smallest failure so far.
      if (failure && ++shrinking > SHRINK_BUDGET) return true;
      const outcome = await attempt(target, draw, label);
      if (target.method !== 'GET' && refused(outcome.answer) && refusedDraws.length < REFUSED_BATCH && !failure) refusedDraws.push(draw);
      if (outcome.findings.length === 0) return true;
      failure = outcome;
      return false;
    });
    const operationSeed = (seed + hash(readBack ? `${target.name} read back` : target.name)) | 0;
    const runs = readBack ? Math.min(target.runs, READ_BACK_RUNS) : target.runs;
    const details = await fc.check(property, { numRuns: Math.max(1, Math.round(runs * (options.runs ?? 1))), seed: operationSeed });
    if (details.failed && failure) {
      found.push(
        report(
          failure,
          `shrunk in ${details.numShrinks} steps (seed ${seed}, operation seed ${operationSeed}, path ${details.counterexamplePath}${readBack ? ', read back after the writes' : ''}; RELIABILITY_SEED=${seed} reproduces the run)`,
        ),
      );
    } else if (details.failed) {
      ledger.find('check-error', target.name, 'the property', undefined, `the property threw: ${String(details.errorInstance)}`);
    }

    // 3. Refused writes wrote nothing: the first refused draws again, on their own, between two digests.
    if (target.method !== 'GET' && refusedDraws.length > 0) {
      const batch: Replayable[] = refusedDraws.map((draw) => ({ label: 'refused generated input', request: () => target.probe(draw) }));
      const sendAll = (items: readonly Replayable[]) => inParallel(items, 1, async (item) => send(url(target), await item.request()));
      const start = await resendRefused(ledger, database, a.workspaceId, batch, sendAll, target.async);
      if (start !== null) await verifyUnchanged(ledger, database, a.workspaceId, target.name, batch, (probe) => send(url(target), probe), start);
    }
  }
  if (options.record && found.length > 0) writeFileSync(REGRESSIONS, `${JSON.stringify([...regressions, ...found], null, 2)}\n`);
  return ledger;
}

const listBody = listEnvelope(z.unknown());

/** A v1 2xx: the operation's success status and its documented body (`{ data }` parsed by the response schema, a list's envelope, an empty 204). */
function v1AnswerProblem(op: OperationDefinition, answer: Answer): string | null {
  if (answer.status !== op.success) return `answered ${answer.status}; the registry documents ${op.success}`;
  const response = op.response;
  const shape = (data: unknown): string | null => {
    try {
      assertShape(op.operationId, data);
      return null;
    } catch (error) {
      // The first issues with the values they are about (`to: Invalid ISO datetime ("+010000-01-01T13:59+14:00")`).
      const parsed = (response as { schema: z.ZodType }).schema.safeParse(data);
      if (parsed.success) return (error as Error).message.split('\n')[0]!.slice(0, 300);
      const at = (path: readonly PropertyKey[]) => path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), data);
      return `the response schema refuses ${parsed.error.issues.length} values: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message} (${JSON.stringify(at(i.path))})`)
        .join('; ')}`;
    }
  };
  switch (response.kind) {
    case 'empty':
      return answer.text === '' ? null : 'a 204 with a body';
    case 'single': {
      const json = answer.json as Record<string, unknown> | undefined;
      if (!json || typeof json !== 'object' || Object.keys(json).join() !== 'data') return 'not the `{ data }` envelope';
      return shape(json['data']);
    }
    case 'list': {
      const parsed = listBody.safeParse(answer.json);
      if (!parsed.success) return `not the list envelope: ${parsed.error.message.slice(0, 300)}`;
      for (const item of parsed.data.data) {
        const problem = shape(item);
        if (problem) return problem;
      }
      return null;
    }
    case 'document':
      return answer.json !== null && typeof answer.json === 'object' ? null : 'not a JSON document';
    default:
      return null;
  }
}

/** A v0 2xx: a JSON object or array (the broad legacy shape), a calendar for the feed, nothing for a 204. */
function v0AnswerProblem(op: V0OperationDefinition, answer: Answer): string | null {
  if (answer.status === 204) return answer.text === '' ? null : 'a 204 with a body';
  if (op.path.endsWith('.ics')) return answer.text.startsWith('BEGIN:VCALENDAR') ? null : 'not an iCalendar feed';
  return answer.json !== null && typeof answer.json === 'object' ? null : 'not a JSON object or array';
}
