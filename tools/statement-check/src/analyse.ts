import { loadModule, parseSync } from 'libpg-query';

/** Loads PostgreSQL's parser (WebAssembly) once; analyseStatement needs it loaded. */
export const loadParser: () => Promise<void> = loadModule;

/**
 * The Citus routing rule, checked on PostgreSQL's own parse tree (libpg-query): a statement that touches a
 * distributed table can be sent to one shard when every occurrence of a distributed table in it is tied, through
 * equalities on distribution columns (a join `a.workspace_id = b.workspace_id`, a correlation with an outer query, an
 * INSERT's column), to one workspace value: a parameter or a literal. Equalities count only where they constrain,
 * that is in AND-ed conditions of a WHERE or a JOIN ... ON (not under OR or NOT); a row equality `(a, b) = (c, d)` is
 * two, and `x IN (p, q)` binds x to each element; `= ANY(array)` and ranges bind nothing. Two different workspace
 * values in one statement (literals that differ, or parameters whose recorded values differ) name two workspaces.
 */

/** A distributed table's distribution column: `workspace_id` for tenant tables, `id` for the workspaces table. */
export type Distribution = ReadonlyMap<string, string>;

export interface Violation {
  readonly kind: 'unrouted' | 'two-workspaces' | 'unparsable';
  /** The distributed tables the violation is about. */
  readonly tables: readonly string[];
}

type AstNode = Record<string, unknown>;

interface Entry {
  readonly table: string | null;
  /** The union-find node of the entry's distribution column (a distributed table, or a subquery exposing one). */
  readonly node: string | null;
  readonly distColumn: string | null;
  /** Output column → node, for a subquery or CTE in FROM. */
  readonly outputs?: ReadonlyMap<string, string>;
}

interface Scope {
  readonly entries: Map<string, Entry>;
  readonly ctes: Map<string, ReadonlyMap<string, string>>;
}

class UnionFind {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let root = x;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    this.parent.set(x, root);
    return root;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}

const isObject = (value: unknown): value is AstNode => value !== null && typeof value === 'object' && !Array.isArray(value);
const list = (value: unknown): AstNode[] => (Array.isArray(value) ? (value as AstNode[]) : []);
const str = (node: unknown): string | undefined => (isObject(node) && isObject(node.String) ? (node.String.sval as string) : undefined);

class StatementAnalysis {
  private readonly uf = new UnionFind();
  /** Every occurrence of a distributed table: its node and table. */
  private readonly occurrences: { node: string; table: string }[] = [];
  private counter = 0;

  constructor(
    private readonly distribution: Distribution,
    private readonly values: readonly unknown[],
  ) {}

  run(stmt: AstNode): Violation[] {
    this.statement(stmt, []);
    if (this.occurrences.length === 0) return [];
    const unrouted = new Set<string>();
    const workspaceValues = new Set<string>();
    for (const { node, table } of this.occurrences) {
      const root = this.uf.find(node);
      const bound = [...this.valueNodes].filter((v) => this.uf.find(v) === root);
      if (bound.length === 0) unrouted.add(table);
      for (const value of bound) if (!value.startsWith('n:')) workspaceValues.add(this.valueOf(value));
    }
    const violations: Violation[] = [];
    if (unrouted.size > 0) violations.push({ kind: 'unrouted', tables: [...unrouted].sort() });
    if (workspaceValues.size > 1) violations.push({ kind: 'two-workspaces', tables: [...new Set(this.occurrences.map((o) => o.table))].sort() });
    return violations;
  }

  private readonly valueNodes = new Set<string>();

  private valueOf(node: string): string {
    if (node.startsWith('p:')) return `value:${JSON.stringify(this.values[Number(node.slice(2)) - 1] ?? null)}`;
    return `value:${JSON.stringify(node.slice(2))}`;
  }

  private fresh(prefix: string): string {
    return `${prefix}#${++this.counter}`;
  }

  private statement(wrapper: AstNode, outer: Scope[]): ReadonlyMap<string, string>[] {
    const [kind, body] = Object.entries(wrapper)[0] ?? [];
    if (!isObject(body)) return [];
    switch (kind) {
      case 'SelectStmt':
        return this.select(body, outer);
      case 'InsertStmt':
        this.insert(body, outer);
        return [];
      case 'UpdateStmt':
        this.modify(body, outer, body.fromClause);
        return [];
      case 'DeleteStmt':
        this.modify(body, outer, body.usingClause);
        return [];
      default:
        // Utility statements (BEGIN, SET, LISTEN, DDL) may hold queries (EXPLAIN, CREATE TABLE AS): walk them.
        this.walk(body, outer);
        return [];
    }
  }

  private newScope(withClause: unknown, outer: Scope[]): Scope {
    const scope: Scope = { entries: new Map(), ctes: new Map() };
    if (isObject(withClause)) {
      for (const cte of list(withClause.ctes)) {
        const def = cte.CommonTableExpr as AstNode | undefined;
        if (!def || !isObject(def.ctequery)) continue;
        const outputs = this.statement(def.ctequery, [scope, ...outer]);
        scope.ctes.set(def.ctename as string, this.named(outputs));
      }
    }
    return scope;
  }

  /** A SELECT: returns its output columns by position, each a map holding its name → node when it carries one. */
  private select(select: AstNode, outer: Scope[]): ReadonlyMap<string, string>[] {
    if (select.op && select.op !== 'SETOP_NONE') {
      const left = isObject(select.larg) ? this.select(select.larg, outer) : [];
      const right = isObject(select.rarg) ? this.select(select.rarg, outer) : [];
      return left.map((l, i) => {
        const r = right[i];
        const [ln] = [...l.values()];
        const [rn] = r ? [...r.values()] : [];
        if (ln && rn) this.uf.union(ln, rn);
        return l;
      });
    }
    const scope = this.newScope(select.withClause, outer);
    const scopes = [scope, ...outer];
    const quals: unknown[] = [select.whereClause];
    for (const item of list(select.fromClause)) this.fromItem(item, scope, outer, quals);
    for (const q of quals) this.constrain(q, scopes);
    for (const q of quals) this.walk(q, scopes);
    for (const row of list(select.valuesLists)) this.walk(row, scopes);
    this.walk(select.targetList, scopes);
    this.walk(select.havingClause, scopes);
    this.walk(select.sortClause, scopes);
    this.walk(select.limitCount, scopes);
    if (list(select.valuesLists).length > 0) {
      // VALUES rows: each column a value node when it is a parameter or literal.
      const rows = list(select.valuesLists).map((row) => list((row.List as AstNode | undefined)?.items));
      const width = rows[0]?.length ?? 0;
      return Array.from({ length: width }, (_, i) => {
        const nodes = rows.map((row) => this.operand(row[i], scopes)).filter((n): n is string => n !== null);
        for (const n of nodes.slice(1)) this.uf.union(nodes[0]!, n);
        return new Map(nodes[0] ? [[`$${i}`, nodes[0]]] : []);
      });
    }
    // An unnamed output (a parameter, a literal) still binds by position (INSERT ... SELECT $1, ...).
    return list(select.targetList).map((target, i) => {
      const res = target.ResTarget as AstNode | undefined;
      const node = res ? this.operand(res.val, scopes) : null;
      const name = (res?.name as string | undefined) ?? this.columnName(res?.val) ?? `$${i}`;
      return new Map(node ? [[name, node]] : []);
    });
  }

  private named(outputs: ReadonlyMap<string, string>[]): ReadonlyMap<string, string> {
    const merged = new Map<string, string>();
    for (const output of outputs) for (const [name, node] of output) merged.set(name, node);
    return merged;
  }

  private columnName(val: unknown): string | undefined {
    if (!isObject(val)) return undefined;
    if (isObject(val.TypeCast)) return this.columnName(val.TypeCast.arg);
    const ref = val.ColumnRef as AstNode | undefined;
    return ref ? str(list(ref.fields).at(-1)) : undefined;
  }

  /** One FROM item: tables join the scope; subqueries and CTE references expose their outputs; ON conditions constrain. */
  private fromItem(item: AstNode, scope: Scope, outer: Scope[], quals: unknown[]): void {
    if (isObject(item.RangeVar)) {
      const rv = item.RangeVar;
      const table = rv.relname as string;
      const alias = (isObject(rv.alias) ? (rv.alias.aliasname as string) : undefined) ?? table;
      const cte = rv.schemaname === undefined ? this.cte(table, [scope, ...outer]) : undefined;
      if (cte) {
        scope.entries.set(alias, { table: null, node: null, distColumn: null, outputs: cte });
        return;
      }
      scope.entries.set(alias, this.tableEntry(table, rv.schemaname as string | undefined));
    } else if (isObject(item.RangeSubselect)) {
      const sub = item.RangeSubselect;
      const alias = isObject(sub.alias) ? (sub.alias.aliasname as string) : this.fresh('subquery');
      // A subquery sees the CTEs of its level; its FROM entries only when LATERAL.
      const visible = sub.lateral ? [scope, ...outer] : [{ entries: new Map<string, Entry>(), ctes: scope.ctes }, ...outer];
      const outputs = isObject(sub.subquery) ? this.statement(sub.subquery, visible) : [];
      scope.entries.set(alias, { table: null, node: null, distColumn: null, outputs: this.named(outputs) });
    } else if (isObject(item.JoinExpr)) {
      const join = item.JoinExpr;
      if (isObject(join.larg)) this.fromItem(join.larg, scope, outer, quals);
      if (isObject(join.rarg)) this.fromItem(join.rarg, scope, outer, quals);
      quals.push(join.quals);
    } else {
      // A function in FROM (unnest, generate_series): its arguments may hold subqueries.
      this.walk(item, [scope, ...outer]);
    }
  }

  private cte(name: string, scopes: Scope[]): ReadonlyMap<string, string> | undefined {
    for (const scope of scopes) if (scope.ctes.has(name)) return scope.ctes.get(name);
    return undefined;
  }

  private tableEntry(table: string, schema: string | undefined): Entry {
    const distColumn = schema === undefined || schema === 'public' ? this.distribution.get(table) : undefined;
    if (!distColumn) return { table, node: null, distColumn: null };
    const node = this.fresh(`t:${table}`);
    this.occurrences.push({ node, table });
    return { table, node, distColumn };
  }

  private insert(insert: AstNode, outer: Scope[]): void {
    const scope = this.newScope(insert.withClause, outer);
    const rv = insert.relation as AstNode;
    const target = this.tableEntry(rv.relname as string, rv.schemaname as string | undefined);
    const alias = (isObject(rv.alias) ? (rv.alias.aliasname as string) : undefined) ?? (rv.relname as string);
    const outputs = isObject(insert.selectStmt) ? this.statement(insert.selectStmt, [scope, ...outer]) : [];
    if (target.node && target.distColumn) {
      const at = list(insert.cols).findIndex((c) => (c.ResTarget as AstNode | undefined)?.name === target.distColumn);
      const [value] = at >= 0 ? [...(outputs[at]?.values() ?? [])] : [];
      if (value) this.uf.union(target.node, value);
    }
    scope.entries.set(alias, target);
    const scopes = [scope, ...outer];
    const conflict = insert.onConflictClause as AstNode | undefined;
    if (conflict) {
      scope.entries.set('excluded', { ...target, node: target.node });
      this.walk(conflict.targetList, scopes);
      this.walk(conflict.whereClause, scopes);
    }
    this.walk(insert.returningList, scopes);
  }

  /** UPDATE and DELETE: the target and the FROM/USING tables are one scope under the WHERE. */
  private modify(stmt: AstNode, outer: Scope[], from: unknown): void {
    const scope = this.newScope(stmt.withClause, outer);
    const rv = stmt.relation as AstNode;
    const alias = (isObject(rv.alias) ? (rv.alias.aliasname as string) : undefined) ?? (rv.relname as string);
    scope.entries.set(alias, this.tableEntry(rv.relname as string, rv.schemaname as string | undefined));
    const quals: unknown[] = [stmt.whereClause];
    for (const item of list(from)) this.fromItem(item, scope, outer, quals);
    const scopes = [scope, ...outer];
    for (const q of quals) this.constrain(q, scopes);
    for (const q of quals) this.walk(q, scopes);
    this.walk(stmt.targetList, scopes);
    this.walk(stmt.returningList, scopes);
  }

  /** Unions the two sides of every AND-ed equality (and one-element IN) of a condition. */
  private constrain(condition: unknown, scopes: Scope[]): void {
    if (!isObject(condition)) return;
    if (isObject(condition.BoolExpr)) {
      if (condition.BoolExpr.boolop === 'AND_EXPR') for (const arg of list(condition.BoolExpr.args)) this.constrain(arg, scopes);
      if (condition.BoolExpr.boolop === 'OR_EXPR') this.constrainEither(list(condition.BoolExpr.args), scopes);
      return;
    }
    const expr = condition.A_Expr as AstNode | undefined;
    if (!expr || str(list(expr.name)[0]) !== '=') return;
    if (expr.kind === 'AEXPR_OP') {
      // (a, b) = (c, d) is a = c AND b = d.
      const left = isObject(expr.lexpr) && isObject(expr.lexpr.RowExpr) ? list(expr.lexpr.RowExpr.args) : [expr.lexpr];
      const right = isObject(expr.rexpr) && isObject(expr.rexpr.RowExpr) ? list(expr.rexpr.RowExpr.args) : [expr.rexpr];
      if (left.length === right.length) left.forEach((l, i) => this.equate(l, right[i], scopes));
    } else if (expr.kind === 'AEXPR_IN') {
      // x IN (a, b, …) binds x to every element: one shard only when they all are one workspace (checked on the
      // recorded values), as Prisma's batched relation loads send it.
      const items = isObject(expr.rexpr) && isObject(expr.rexpr.List) ? list(expr.rexpr.List.items) : list(expr.rexpr);
      for (const item of items) this.equate(expr.lexpr, item, scopes);
    }
  }

  /**
   * `(c = a AND …) OR (c = b AND …)`, as Prisma batches lookups: a distribution column bound to a value in every
   * branch is bound to each of them (like `c IN (a, b)`); one branch without it leaves it unbound.
   */
  private constrainEither(branches: unknown[], scopes: Scope[]): void {
    const perBranch = branches.map((branch) => this.bindings(branch, scopes));
    const [first, ...rest] = perBranch;
    for (const column of first?.keys() ?? []) {
      if (!rest.every((b) => b.has(column))) continue;
      for (const b of perBranch) for (const value of b.get(column)!) this.uf.union(column, value);
    }
  }

  /** The values each distribution column is set equal to by a condition's AND-ed equalities. */
  private bindings(condition: unknown, scopes: Scope[]): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const visit = (c: unknown) => {
      if (!isObject(c)) return;
      if (isObject(c.BoolExpr) && c.BoolExpr.boolop === 'AND_EXPR') return list(c.BoolExpr.args).forEach(visit);
      const expr = c.A_Expr as AstNode | undefined;
      if (!expr || expr.kind !== 'AEXPR_OP' || str(list(expr.name)[0]) !== '=') return;
      const a = this.operand(expr.lexpr, scopes);
      const b = this.operand(expr.rexpr, scopes);
      const [column, value] = a && this.valueNodes.has(a) ? [b, a] : [a, b];
      if (column && value && !this.valueNodes.has(column) && this.valueNodes.has(value)) found.set(column, [...(found.get(column) ?? []), value]);
    };
    visit(condition);
    return found;
  }

  private equate(left: unknown, right: unknown, scopes: Scope[]): void {
    const a = this.operand(left, scopes);
    const b = this.operand(right, scopes);
    if (a && b) this.uf.union(a, b);
  }

  /** The node an operand stands for: a distribution column, a parameter or a literal; null for anything else. */
  private operand(value: unknown, scopes: Scope[]): string | null {
    if (!isObject(value)) return null;
    if (isObject(value.TypeCast)) return this.operand(value.TypeCast.arg, scopes);
    if (isObject(value.ParamRef)) return this.valueNode(`p:${value.ParamRef.number as number}`);
    if (isObject(value.A_Const)) {
      const c = value.A_Const;
      // NULL matches no row: `x IN (NULL)` (Prisma's empty relation load) reads nothing, on any one shard.
      if (c.isnull) return this.valueNode('n:null');
      const literal = isObject(c.sval) ? c.sval.sval : isObject(c.ival) ? (c.ival.ival ?? 0) : undefined;
      return literal === undefined ? null : this.valueNode(`c:${String(literal)}`);
    }
    if (isObject(value.ColumnRef)) return this.column(list(value.ColumnRef.fields).map(str), scopes);
    return null;
  }

  private valueNode(node: string): string {
    this.valueNodes.add(node);
    return node;
  }

  private column(fields: (string | undefined)[], scopes: Scope[]): string | null {
    const column = fields.at(-1);
    if (!column) return null;
    const qualifier = fields.length >= 2 ? fields.at(-2) : undefined;
    for (const scope of scopes) {
      if (qualifier !== undefined) {
        const entry = scope.entries.get(qualifier);
        if (!entry) continue;
        return this.columnOf(entry, column);
      }
      const holders = [...scope.entries.values()].filter((e) => (e.outputs ? e.outputs.has(column) : e.distColumn === column));
      const only = scope.entries.size === 1 || column === 'workspace_id';
      if (holders.length === 1 && only) return this.columnOf(holders[0]!, column);
      if (holders.length > 1) return null;
    }
    return null;
  }

  private columnOf(entry: Entry, column: string): string | null {
    if (entry.outputs) return entry.outputs.get(column) ?? null;
    return entry.distColumn === column ? entry.node : null;
  }

  /** Finds the queries nested in an expression (sublinks) and analyses each with the scopes it may correlate to. */
  private walk(node: unknown, scopes: Scope[]): void {
    if (Array.isArray(node)) {
      for (const item of node) this.walk(item, scopes);
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.SubLink)) {
      if (isObject(node.SubLink.subselect)) this.statement(node.SubLink.subselect, scopes);
      this.walk(node.SubLink.testexpr, scopes);
      return;
    }
    for (const key of ['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt']) {
      if (isObject(node[key])) {
        this.statement({ [key]: node[key] }, scopes);
        return;
      }
    }
    for (const value of Object.values(node)) this.walk(value, scopes);
  }
}

/** Violations of one statement text, with the values it was sent with; a text PostgreSQL cannot parse is one too. */
export function analyseStatement(text: string, values: readonly unknown[], distribution: Distribution): Violation[] {
  let parsed: { stmts?: { stmt?: AstNode }[] };
  try {
    parsed = parseSync(text) as unknown as { stmts?: { stmt?: AstNode }[] };
  } catch {
    return [{ kind: 'unparsable', tables: [] }];
  }
  return (parsed.stmts ?? []).flatMap(({ stmt }) => (stmt ? new StatementAnalysis(distribution, values).run(stmt) : []));
}
