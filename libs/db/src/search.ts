import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';
import { resourceReadableSql, type RuledResourceType, type Viewer } from './visibility.js';

/**
 * Federated full-text search (issue 14) in PostgreSQL itself: one expression GIN index per searchable table
 * (migration 20261130020000_exports_search_v1, `to_tsvector('simple', …)` over the text columns a person would search),
 * `websearch_to_tsquery` for the query (quoted phrases, `or`, `-word`; never a syntax error), `ts_rank` for the
 * order with (type, id) as the stable tie-breaker of the keyset. The 'simple' configuration neither stems nor drops
 * stop words: names, e-mail addresses and words in any language match as typed. A field the caller may not read is
 * not in the document searched (a user's address without members:pii:read).
 *
 * The document expressions below are the index expressions verbatim; PostgreSQL uses an expression index only when
 * the query repeats its expression, so the two are written once, here, and the migration copies them.
 */

export type SearchDomain =
  | 'projects'
  | 'tasks'
  | 'time-entries'
  | 'contacts'
  | 'call-notes'
  | 'contact-groups'
  | 'lists'
  | 'services'
  | 'tags'
  | 'project-templates'
  | 'products'
  | 'product-groups'
  | 'project-statements'
  | 'documents'
  | 'files'
  | 'comments'
  | 'users';

interface Searchable {
  readonly table: string;
  /** tsvector expression over `r` (the index expression). */
  readonly document: string;
  /** Users only: the document with the personal data too (the e-mail address), for a caller who may read it. */
  readonly personalDocument?: string;
  readonly title: string;
  readonly snippet: string;
}

/** The first 100,000 characters are indexed: a tsvector holds at most 1 MB, and a document's content can be 1,000,000. */
export const SEARCH_INDEXED_CHARS = 100_000;
const vector = (text: string) => `to_tsvector('simple'::regconfig, left(${text}, ${SEARCH_INDEXED_CHARS}))`;

const plain = (table: string, title: string, body: string | null): Searchable => ({
  table,
  document: vector(body === null ? title : `${title} || ' ' || coalesce(${body}, '')`),
  title,
  snippet: body === null ? 'NULL' : `left(${body}, 200)`,
});

/** Title and snippet are never a finance field (prices, costs, amounts): search needs no finance overlay. */
export const SEARCHABLE: Readonly<Record<SearchDomain, Searchable>> = {
  projects: plain('projects', 'r.name', 'r.description'),
  tasks: plain('tasks', 'r.title', 'r.description'),
  'time-entries': { table: 'time_entries', document: vector(`coalesce(r.description, '')`), title: `coalesce(r.description, '')`, snippet: 'NULL' },
  contacts: {
    table: 'contacts',
    document: vector(`r.display_name || ' ' || coalesce(r.first_name, '') || ' ' || coalesce(r.last_name, '') || ' ' || coalesce(r.email, '') || ' ' || coalesce(r.notes, '')`),
    title: 'r.display_name',
    snippet: 'r.email',
  },
  'call-notes': { table: 'call_notes', document: vector(`coalesce(r.title, '') || ' ' || r.content`), title: `coalesce(r.title, left(r.content, 80))`, snippet: 'left(r.content, 200)' },
  'contact-groups': plain('contact_groups', 'r.name', null),
  lists: plain('lists', 'r.name', null),
  services: plain('services', 'r.name', 'r.description'),
  tags: plain('tags', 'r.name', null),
  'project-templates': plain('project_templates', 'r.name', 'r.description'),
  products: plain('products', 'r.name', 'r.description'),
  'product-groups': plain('product_groups', 'r.name', null),
  'project-statements': {
    table: 'project_statements',
    document: vector(`coalesce(r.title, '') || ' ' || coalesce(r.description, '')`),
    title: `coalesce(r.title, '')`,
    snippet: 'left(r.description, 200)',
  },
  documents: plain('documents', 'r.title', 'r.content'),
  files: plain('files', 'r.name', null),
  comments: { table: 'comments', document: vector(`r.body`), title: 'left(r.body, 80)', snippet: 'left(r.body, 200)' },
  // Users are global rows (one person, many workspaces) reached through the workspace's memberships. The name is
  // what users:read shows; the address is personal data, matched only for a caller who may read it (DomainFilter).
  users: { table: 'users', document: vector(`r.name`), personalDocument: vector(`r.name || ' ' || r.email`), title: 'r.name', snippet: 'NULL' },
};

/** Who may see what in one domain: the caller's Viewer and the domain's visibility rule (visibility.ts; users: none). */
export interface DomainFilter {
  readonly domain: SearchDomain;
  readonly viewer: Viewer;
  readonly rule: RuledResourceType | null;
  /** Comments only: the target types the caller may read, each with its granted ids (null: all). */
  /** Project statements only: leave budget statements out (finance data, contract 5.3). */
  readonly withoutBudget?: boolean;
  readonly commentTargets?: readonly { readonly targetType: 'contact' | 'project' | 'task'; readonly onlyIds: readonly string[] | null }[];
  /**
   * Users only: the caller may read personal data, so the e-mail address is matched too. Without it the address is
   * neither matched nor ranked on: a hit (or its absence, or its score) would reveal what the caller cannot read.
   */
  readonly personalData?: boolean;
}

export interface SearchHitRecord {
  readonly type: SearchDomain;
  readonly id: string;
  readonly title: string;
  readonly snippet: string | null;
  readonly score: number;
  readonly updatedAt: Date;
}

/** Where the previous page ended: its last hit's score, type and id. */
export interface SearchAfter {
  readonly score: number;
  readonly type: string;
  readonly id: string;
}

const ids = (list: readonly string[]) => Prisma.sql`${[...list]}::uuid[]`;

function domainSelect(filter: DomainFilter): Prisma.Sql {
  const s = SEARCHABLE[filter.domain];
  const document = filter.personalData === true && s.personalDocument !== undefined ? s.personalDocument : s.document;
  const type = Prisma.sql`${filter.domain}::text`;
  const columns = Prisma.raw(`${s.title} AS title, ${s.snippet} AS snippet, ts_rank(${document}, q.query)::float8 AS score`);
  const matches = Prisma.raw(`${document} @@ q.query`);
  if (filter.domain === 'users') {
    return Prisma.sql`SELECT ${type} AS type, m.id, ${columns}, greatest(m.updated_at, r.updated_at) AS "updatedAt"
      FROM q, ws, workspace_members m JOIN users r ON r.id = m.user_id
      WHERE m.workspace_id = ws.id AND m.removed_at IS NULL AND ${matches}`;
  }
  const where = [Prisma.sql`r.workspace_id = ws.id`, Prisma.sql`r.archived_at IS NULL`, matches];
  // The domain's rule (grants, project sharing) in the statement, as its own list applies it.
  if (filter.rule !== null) where.push(resourceReadableSql(filter.rule, Prisma.sql`r.workspace_id`, Prisma.sql`r.id`, filter.viewer));
  if (filter.withoutBudget === true) where.push(Prisma.sql`r.kind <> 'budget'`);
  if (filter.commentTargets !== undefined) {
    const readable = filter.commentTargets.map((t) =>
      t.onlyIds === null
        ? Prisma.sql`r.target_type = ${t.targetType}::comment_target_type`
        : Prisma.sql`(r.target_type = ${t.targetType}::comment_target_type AND r.target_id = ANY(${ids(t.onlyIds)}))`,
    );
    where.push(readable.length === 0 ? Prisma.sql`false` : Prisma.sql`(${Prisma.join(readable, ' OR ')})`);
  }
  return Prisma.sql`SELECT ${type} AS type, r.id, ${columns}, r.updated_at AS "updatedAt"
    FROM q, ws, ${Prisma.raw(s.table)} r WHERE ${Prisma.join(where, ' AND ')}`;
}

/**
 * One page of hits over the given domains, best first: score descending, then type and id ascending (a total
 * order, so the keyset `after` never skips or repeats a hit while the rows stay the same).
 */
export async function searchPage(client: Db, workspaceId: string, text: string, domains: readonly DomainFilter[], after: SearchAfter | undefined, take: number): Promise<SearchHitRecord[]> {
  if (domains.length === 0) return [];
  const seek =
    after === undefined ? Prisma.sql`true` : Prisma.sql`(h.score < ${after.score}::float8 OR (h.score = ${after.score}::float8 AND (h.type, h.id) > (${after.type}::text, ${after.id}::uuid)))`;
  return client.rows<SearchHitRecord>(Prisma.sql`WITH q AS (SELECT websearch_to_tsquery('simple'::regconfig, ${text}) AS query), ws AS (SELECT ${workspaceId}::uuid AS id)
      SELECT h.type, h.id::text AS id, h.title, h.snippet, h.score, h."updatedAt"
      FROM (${Prisma.join(
        domains.map((d) => Prisma.sql`(${domainSelect(d)})`),
        ' UNION ALL ',
      )}) h
      WHERE ${seek}
      ORDER BY h.score DESC, h.type, h.id
      LIMIT ${take}`);
}
