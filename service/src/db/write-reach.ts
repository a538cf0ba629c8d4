// Which tables' writes reach a table, read from the migrated schema itself: a write to `contact_channels` changes
// `users` through the summary triggers (drizzle/0003), a delete from `projects` deletes `users` by cascade. The read
// cache (db/read-cache.ts) watches, for each cached read, the tables it reads from plus every table whose writes reach
// them, so a new trigger or foreign key is watched the moment its migration runs, with no list to keep by hand.
import { sql } from 'drizzle-orm';
import { rowsOf, type DB } from './handle';

export type Verb = 'insert' | 'update' | 'delete';

/** What the reach is derived from: the schema's triggers, its functions and its foreign key actions. */
export interface SchemaCatalog {
  triggers: { table: string; source: string }[];
  functions: { name: string; source: string }[];
  /** Foreign keys with an action: a delete (or update) of `parent` writes `child`. */
  actions: { child: string; parent: string; onDelete: boolean; onUpdate: boolean }[];
}

/** The tables whose writes reach `start` (themselves included), and why each other one does. */
export interface Reach { tables: string[]; reasons: string[] }

/** Reads the catalog of the database's `public` schema. */
export async function readSchemaCatalog(db: DB): Promise<SchemaCatalog> {
  const triggers = rowsOf<{ table: string; source: string }>(await db.execute(sql`
    select c.relname as table, p.prosrc as source from pg_trigger t
    join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid where not t.tgisinternal`));
  const functions = rowsOf<{ name: string; source: string }>(await db.execute(sql`
    select p.proname as name, p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'`));
  const actions = rowsOf<{ child: string; parent: string; on_delete: boolean; on_update: boolean }>(await db.execute(sql`
    select c.relname as child, p.relname as parent, k.confdeltype in ('c', 'n', 'd') as on_delete, k.confupdtype in ('c', 'n', 'd') as on_update
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    where k.contype = 'f' and (k.confdeltype in ('c', 'n', 'd') or k.confupdtype in ('c', 'n', 'd'))`));
  return { triggers, functions, actions: actions.map((a) => ({ child: a.child, parent: a.parent, onDelete: a.on_delete, onUpdate: a.on_update })) };
}

const VERB_PATTERN: Record<Verb, string> = { insert: 'insert\\s+into', update: 'update', delete: 'delete\\s+from' };
const writesTo = (source: string, table: string, verbs: Set<Verb>) => [...verbs].some((verb) =>
  new RegExp(`\\b(?:${VERB_PATTERN[verb]}|merge\\s+into)\\s+(?:only\\s+)?(?:public\\.)?"?${table}\\b`, 'i').test(source));

/**
 * The tables whose writes reach `start` through triggers (with the functions they call, transitively) or foreign key
 * actions. A table reached through a foreign key action matters only for the writes that fire it (a delete, for ON
 * DELETE CASCADE): a trigger that updates `users` reaches the user row, not the sessions a delete of it would cascade to.
 */
export function reachOf(catalog: SchemaCatalog, start: readonly string[]): Reach {
  const functions = new Map(catalog.functions.map((f) => [f.name, f.source]));
  const expand = (source: string, seen = new Set<string>()): string => {
    let all = source;
    for (const [fn, body] of functions) if (!seen.has(fn) && new RegExp(`\\b${fn}\\s*\\(`).test(source)) { seen.add(fn); all += expand(body, seen); }
    return all;
  };
  const triggers = catalog.triggers.map((t) => ({ table: t.table, source: expand(t.source) }));
  const every = (): Verb[] => ['insert', 'update', 'delete'];
  const closure = new Map(start.map((t) => [t, new Set<Verb>(every())]));
  const reasons: string[] = [];
  // Adds the verbs that matter for `table`; true if that added any.
  const add = (table: string, verbs: Verb[], reason: string) => {
    const known = closure.get(table) ?? new Set<Verb>();
    const fresh = verbs.filter((v) => !known.has(v));
    if (fresh.length === 0) return false;
    for (const v of fresh) known.add(v);
    closure.set(table, known);
    if (!reasons.includes(reason)) reasons.push(reason);
    return true;
  };
  let grew = true;
  while (grew) {
    grew = false;
    for (const t of triggers) for (const [target, verbs] of [...closure]) {
      if (t.table !== target && writesTo(t.source, target, verbs)) grew = add(t.table, every(), `${t.table} (trigger writing ${target})`) || grew;
    }
    for (const a of catalog.actions) if (closure.has(a.child)) {
      const verbs: Verb[] = [...(a.onDelete ? ['delete' as const] : []), ...(a.onUpdate ? ['update' as const] : [])];
      grew = add(a.parent, verbs, `${a.parent} (foreign key action on ${a.child})`) || grew;
    }
  }
  return { tables: [...closure.keys()], reasons };
}

/** The schema's write reach as the read cache uses it: the tables whose writes reach `reads`. */
export type WriteReach = (reads: readonly string[]) => readonly string[];

export async function readWriteReach(db: DB): Promise<WriteReach> {
  const catalog = await readSchemaCatalog(db);
  return (reads) => reachOf(catalog, reads).tables;
}
