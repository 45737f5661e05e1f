import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { V1_SCOPES } from '@workcell/credentials';
import { projectSourceDirs, sourceFiles } from '@workcell/testing';
import { isRuledResourceType, RESOURCE_RULES } from '@workcell/db';
import { RESOURCE_DOMAINS } from '@workcell/registry';
import { GRANT_DOMAINS } from '../kernel/grants.js';
import { AGGREGATES, EVENT_CATALOG, EVENT_CHANNELS, eventSpec, mayReceive } from './catalog.js';

/**
 * No event type the code can write to the outbox may be missing from the catalog (it decides who learns of an
 * event). The test reads every `appendOutboxEvent(...)` call in the repository's sources and resolves its
 * `eventType`: a string literal; a template over a constant map in the same file (`project.${PAST[kind]}`
 * expands to every value of `const PAST = {...}`); or a pass-through property (`write.event`), whose values are
 * the `event: '...'` literals of the same folder; or `resourceEvent(op, { type: 'x', …, action: 'y' })` (x.y); or a
 * factory's `${<name>.type}.archived` / `resourceEvent(op, { type: <name>.type, …, action })`, whose types are those
 * its families declare (FAMILY_DECLARATIONS: `archivable({ type: … })` for kernel/archival.ts, and so on). Any other
 * form fails the test, so a new way of naming events has to be taught here before it can slip past the catalog.
 */

/** Per factory parameter name (`resource.type`), where the families it serves declare their type. */
const FAMILY_DECLARATIONS: Record<string, RegExp> = {
  resource: /\barchivable\(\{\s*type:\s*'([a-z_]+)'/g,
  family: /:\s*TreeGroupFamily = \{\s*type:\s*'([a-z_]+)'/g,
  entry: /:\s*CalendarEntry<\w+> = \{\s*type:\s*'([a-z_]+)'/g,
};

const here = dirname(fileURLToPath(import.meta.url));
// dist/events -> the repository root (libs/domain/dist/events).
const root = join(here, '..', '..', '..', '..');

function allSources(): string[] {
  return projectSourceDirs(root, ['libs', 'apps']).flatMap((dir) => sourceFiles(dir));
}

/**
 * The argument text of each `appendOutboxEvent(` call and each `op.emit(`/`events.emit(`/`platformEvents(workspaceId).emit(` (an operation's or the
 * platform's, kernel/procedure.ts), and of each `outboxEvent(`/`op.event(`/`events.event(` (an event a writer appends
 * in its own statement), with balanced parentheses.
 */
function calls(text: string): string[] {
  const found: string[] = [];
  const next = (from: number) => {
    const match = /\b(appendOutboxEvent|outboxEvent|(?:op|events|platformEvents\([\w.]*\))\.(?:emit|event))\(/g;
    match.lastIndex = from;
    const m = match.exec(text);
    return m ? { at: m.index, length: m[0].length } : null;
  };
  let hit = next(0);
  while (hit !== null) {
    const start = hit.at + hit.length;
    let depth = 1;
    let i = start;
    while (i < text.length && depth > 0) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
      i++;
    }
    found.push(text.slice(start, i - 1));
    hit = next(i);
  }
  return found;
}

interface Emitted {
  readonly type: string;
  readonly aggregateType: string | null;
  readonly where: string;
}

function emittedEventTypes(): Emitted[] {
  const emitted: Emitted[] = [];
  const unresolved: string[] = [];
  const files = allSources();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const args of calls(text)) {
      // The functions' own declarations (`appendOutboxEvent(tx: Db, …)`, `outboxEvent(event: DomainEvent)`) are no call sites.
      if (/^\s*(tx:\s*Db|event:\s*DomainEvent)/.test(args)) continue;
      // The operation's and the platform's emitters (kernel/procedure.ts) pass on an event their caller stated.
      if (/^\s*tx, (this\.)?event\((event|input)\)\s*$/.test(args)) continue;
      const aggregateType = /aggregateType:\s*'([^']+)'/.exec(args)?.[1] ?? null;
      const literal = /eventType:\s*'([^']+)'/.exec(args);
      const template = /eventType:\s*`([^`$]*)\$\{(\w+)\[[^\]]+\]\}([^`]*)`/.exec(args);
      const passThrough = /eventType:\s*\w+\.(\w+)\s*[,}\n]/.exec(args);
      const factory = /eventType:\s*`\$\{(\w+)\.type\}(\.[a-z_]+)`/.exec(args);
      const resource = /^\s*tx,\s*resourceEvent\(op, \{\s*type:\s*(?:'([a-z_]+)'|(\w+)\.type),[^]*?\baction:\s*'([a-z_]+)'/.exec(args);
      const familyTypes = (name: string): string[] => {
        const declared = FAMILY_DECLARATIONS[name];
        return declared ? files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(declared)].map((m) => m[1]!)) : [];
      };
      if (resource) {
        const [, type, family, action] = resource;
        const types = type ? [type] : familyTypes(family!);
        if (types.length === 0) unresolved.push(`${where}: ${resource[0]}`);
        for (const t of types) emitted.push({ type: `${t}.${action}`, aggregateType: t, where });
      } else if (literal) {
        emitted.push({ type: literal[1]!, aggregateType, where });
      } else if (template) {
        const [, prefix, map, suffix] = template;
        const body = new RegExp(`const ${map} = \\{([^}]*)\\}`).exec(text)?.[1];
        const values = body ? [...body.matchAll(/:\s*'([^']+)'/g)].map((m) => m[1]!) : [];
        if (values.length === 0) unresolved.push(`${where}: ${template[0]}`);
        for (const value of values) emitted.push({ type: `${prefix}${value}${suffix}`, aggregateType, where });
      } else if (passThrough) {
        const field = passThrough[1]!;
        const folder = dirname(file);
        const values = files.filter((f) => dirname(f) === folder).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(new RegExp(`\\b${field}:\\s*'([a-z_]+\\.[a-z_]+)'`, 'g'))].map((m) => m[1]!));
        if (values.length === 0) unresolved.push(`${where}: ${passThrough[0]}`);
        for (const value of values) emitted.push({ type: value, aggregateType, where });
      } else if (factory) {
        // A factory's `${resource.type}.archived`: one event type for each family it serves.
        const types = familyTypes(factory[1]!);
        if (types.length === 0) unresolved.push(`${where}: ${factory[0]}`);
        for (const type of types) emitted.push({ type: `${type}${factory[2]}`, aggregateType: type, where });
      } else {
        unresolved.push(`${where}: appendOutboxEvent(${args.slice(0, 120)}...)`);
      }
    }
  }
  assert.deepEqual(unresolved, [], 'eventType expressions this test cannot resolve: teach it the new form');
  return emitted;
}

describe('event catalog', () => {
  it('has a spec for every event type the code can write to the outbox', () => {
    const emitted = emittedEventTypes();
    // A scanner that silently found nothing would prove nothing.
    assert.ok(emitted.length >= 60, `only ${emitted.length} outbox writes found`);
    for (const name of [
      'project.completed',
      'project.reopened',
      'task.completed',
      'task.moved',
      'project_template.updated',
      'project_template.archived',
      'tag.archived',
      'time_entry.restored',
      'tag.created',
      'contact_group.moved',
      'product_group.updated',
      'absence.deleted',
      'appointment.deleted',
      'tag.restored',
    ]) {
      assert.ok(
        emitted.some((e) => e.type === name),
        `the scanner resolves ${name}`,
      );
    }
    const missing = [...new Set(emitted.filter((e) => eventSpec(e.type) === undefined).map((e) => `${e.type} (${e.where})`))];
    assert.deepEqual(missing, [], 'event types written to the outbox but missing from events/catalog.ts');
  });

  it('files each event under the aggregate its writer names', () => {
    for (const e of emittedEventTypes()) {
      const spec = eventSpec(e.type)!;
      if (e.aggregateType === null || spec.channels.length === 0) continue;
      const aggregate = AGGREGATES[e.aggregateType as keyof typeof AGGREGATES];
      assert.ok(aggregate, `${e.where}: aggregate type ${e.aggregateType} is not in AGGREGATES`);
      assert.equal(spec.resourceType, aggregate.resourceType, `${e.type} (${e.where})`);
    }
  });

  it('is consistent: unique types, known scopes and channels', () => {
    assert.equal(new Set(EVENT_CATALOG.map((s) => s.type)).size, EVENT_CATALOG.length);
    const scopes = new Set<string>(V1_SCOPES);
    const channels = new Set(EVENT_CHANNELS.map((c) => c.name));
    for (const spec of EVENT_CATALOG) {
      for (const scope of spec.readScopes) assert.ok(scopes.has(scope), `${spec.type}: unknown scope ${scope}`);
      for (const channel of spec.channels) assert.ok(channels.has(channel), `${spec.type}: unknown channel ${channel}`);
      if (spec.channels.length > 0) assert.ok(spec.readScopes.length > 0, `${spec.type} reaches a channel without a read scope`);
    }
    for (const channel of EVENT_CHANNELS) if (channel.scope !== null) assert.ok(scopes.has(channel.scope), channel.name);
  });

  it('lets only finance readers learn of a budget statement', () => {
    const spec = eventSpec('project_statement.archived')!;
    assert.equal(mayReceive(['project-statements:read'], spec, { kind: 'budget' }), false);
    assert.equal(mayReceive(['project-statements:read', 'project-statements:finance:read'], spec, { kind: 'budget' }), true);
    assert.equal(mayReceive(['project-statements:read'], spec, { projectStatement: { kind: 'expense' } }), true);
    assert.equal(mayReceive(['project-statements:read'], eventSpec('project_statement.created')!, { projectStatement: { kind: 'budget' } }), false);
  });

  it("lets only readers of a comment's target learn of the comment (contract 5.3)", () => {
    for (const type of ['comment.created', 'comment.updated', 'comment.deleted']) {
      const spec = eventSpec(type)!;
      const onTask = { comment: { targetType: 'tasks', targetId: 'x' } };
      assert.equal(mayReceive(['comments:read'], spec, onTask), false, type);
      assert.equal(mayReceive(['comments:read', 'contacts:read', 'projects:read'], spec, onTask), false, type);
      assert.equal(mayReceive(['comments:read', 'tasks:read'], spec, onTask), true, type);
      assert.equal(mayReceive(['tasks:read'], spec, onTask), false, type);
      assert.equal(mayReceive(['comments:read', 'contacts:read'], spec, { comment: { targetType: 'contacts' } }), true, type);
      assert.equal(mayReceive(['comments:read', 'contacts:read', 'projects:read'], spec, {}), false, `${type}: a payload naming no target needs every target scope`);
    }
  });
});

/**
 * Every write path of a resource emits its resource's events (issue 10: task timers wrote time entries without
 * `time_entry.*`). The data functions of libs/db that write a resource table (a Prisma create/update/upsert/
 * delete on its model, or raw INSERT/UPDATE/DELETE on its table) are found by reading their source; every
 * domain file that calls one must also append an outbox event of that resource's aggregate type. A new write
 * path that forgets its event fails here, whatever it is named.
 */
describe('every write path of a resource emits its resource’s events', () => {
  const MODELS: Record<string, { model: string; table: string }> = {
    project: { model: 'project', table: 'projects' },
    task: { model: 'task', table: 'tasks' },
    time_entry: { model: 'timeEntry', table: 'time_entries' },
    contact: { model: 'contact', table: 'contacts' },
    contact_group: { model: 'contactGroup', table: 'contact_groups' },
    call_note: { model: 'callNote', table: 'call_notes' },
    list: { model: 'list', table: 'lists' },
    service: { model: 'service', table: 'services' },
    tag: { model: 'tag', table: 'tags' },
    product: { model: 'product', table: 'products' },
    product_group: { model: 'productGroup', table: 'product_groups' },
    project_statement: { model: 'projectStatement', table: 'project_statements' },
    project_template: { model: 'projectTemplate', table: 'project_templates' },
    comment: { model: 'comment', table: 'comments' },
    document: { model: 'document', table: 'documents' },
    custom_field_definition: { model: 'customFieldDefinition', table: 'custom_field_definitions' },
    file: { model: 'file', table: 'files' },
    invitation: { model: 'invitation', table: 'invitations' },
    task_recurrence: { model: 'taskRecurrence', table: 'task_recurrences' },
    appointment: { model: 'appointment', table: 'appointments' },
    absence: { model: 'absence', table: 'absences' },
    export: { model: 'export', table: 'exports' },
  };
  // Deliberate exceptions, each with its reason; keep this list short.
  const EXEMPT: Record<string, string> = {};

  /** Exported functions of libs/db/src and the aggregates whose tables each writes. */
  function writers(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const dbSrc = join(root, 'libs', 'db', 'src');
    for (const file of sourceFiles(dbSrc)) {
      const text = readFileSync(file, 'utf8');
      const starts = [...text.matchAll(/^export (?:async )?function (\w+)/gm)];
      starts.forEach((m, i) => {
        const body = text.slice(m.index, starts[i + 1]?.index ?? text.length);
        for (const [aggregate, { model, table }] of Object.entries(MODELS)) {
          const prisma = new RegExp(`\\.${model}\\.(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\\(`);
          const sql = new RegExp(`(INSERT INTO|UPDATE|DELETE FROM)\\s+${table}\\b`);
          if (prisma.test(body) || sql.test(body)) out.set(m[1]!, (out.get(m[1]!) ?? new Set()).add(aggregate));
        }
      });
    }
    return out;
  }

  it('finds the writers (a scanner that finds nothing proves nothing)', () => {
    const found = writers();
    assert.ok(found.get('insertRunningTimer')?.has('time_entry'), 'insertRunningTimer writes time entries');
    assert.ok(found.get('stopRunningTimer')?.has('time_entry'), 'stopRunningTimer writes time entries');
    assert.ok(found.size >= 30, `only ${found.size} writers found`);
  });

  it('every domain file calling a writer appends an event of the aggregate it writes', () => {
    const found = writers();
    const missing: string[] = [];
    for (const file of sourceFiles(join(root, 'libs', 'domain', 'src'))) {
      const text = readFileSync(file, 'utf8');
      const where = relative(root, file);
      const emitted = new Set(
        calls(text)
          .map((args) => (/aggregateType:\s*'([^']+)'/.exec(args) ?? /\bresourceEvent\(op, \{\s*type:\s*'([^']+)'/.exec(args))?.[1])
          .filter((a): a is string => a !== undefined),
      );
      // The pass-through form (see above): the file names `event: '<aggregate>.<action>'` for a helper of its folder.
      for (const m of text.matchAll(/\bevent:\s*'([a-z_]+)\.[a-z_]+'/g)) emitted.add(m[1]!);
      for (const [fn, aggregates] of found) {
        if (!new RegExp(`\\b${fn}\\(`).test(text)) continue;
        for (const aggregate of aggregates) {
          const key = `${where}: ${fn} -> ${aggregate}`;
          if (!emitted.has(aggregate) && !(key in EXEMPT)) missing.push(key);
        }
      }
    }
    assert.deepEqual(missing, [], 'domain write paths that write a resource without appending its event (aggregateType) to the outbox');
  });
});

describe('every resource the catalog names declares its visibility rule (libs/db visibility.ts, docs/sharing.md)', () => {
  it('each outbox aggregate type has a rule, so no event can reach a credential by default', () => {
    const missing = Object.keys(AGGREGATES).filter((aggregate) => !isRuledResourceType(aggregate));
    assert.deepEqual(missing, [], `aggregate types without a rule in RESOURCE_RULES: ${missing.join(', ')}`);
    assert.deepEqual(Object.keys(RESOURCE_RULES).sort(), Object.keys(AGGREGATES).sort(), 'a rule for a type no event names is dead');
  });

  it('each search and export domain is filtered by a rule, except users (workspace members, their personal data by members:pii:read)', () => {
    const missing = RESOURCE_DOMAINS.filter((domain) => domain !== 'users' && !isRuledResourceType(String(GRANT_DOMAINS[domain])));
    assert.deepEqual(missing, []);
  });
});
