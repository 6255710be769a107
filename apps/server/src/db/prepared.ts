import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Db } from './schema.js';

/** Stands for a parameter while a query is built once; no real value starts so. */
const MARK = '\u0000prepared:';

interface Plan<S> {
  sql: string;
  /** Each parameter of the SQL text, in order: a slot to fill, or a constant of the query. */
  parameters: ({ slot: S } | { value: unknown })[];
}

/**
 * A query built and compiled by Kysely once per dialect, then run with new values many
 * times: building and compiling cost about as much as running a small query on SQLite,
 * and the send path runs a few per batch. The query is written once with the query
 * builder, with `param(slot)` where a value goes; `execute` fills each slot with
 * `value(slot)`. Each dialect gets its own SQL text (placeholders, quoting), so the
 * callers keep one code path for both.
 */
export class Prepared<S, R = unknown> {
  /** Keyed by the dialect's adapter, which a database and its transactions share. */
  private readonly plans = new WeakMap<object, Plan<S>>();

  constructor(private readonly build: (db: Db, param: (slot: S) => never) => Compilable<R>) {}

  execute(db: Db, value: (slot: S) => unknown): Promise<QueryResult<R>> {
    const plan = this.planFor(db);
    const parameters = plan.parameters.map((parameter) =>
      'slot' in parameter ? value(parameter.slot) : parameter.value,
    );
    return db.executeQuery<R>(CompiledQuery.raw(plan.sql, parameters));
  }

  private planFor(db: Db): Plan<S> {
    const adapter = db.getExecutor().adapter;
    let plan = this.plans.get(adapter);
    if (plan) return plan;
    const slots: S[] = [];
    const compiled = this.build(db, (slot) => {
      slots.push(slot);
      return `${MARK}${slots.length - 1}` as never;
    }).compile();
    if (compiled.sql.includes(MARK)) throw new Error('a prepared value was inlined in the SQL');
    plan = {
      sql: compiled.sql,
      parameters: compiled.parameters.map((parameter) =>
        typeof parameter === 'string' && parameter.startsWith(MARK)
          ? { slot: slots[Number(parameter.slice(MARK.length))]! }
          : { value: parameter },
      ),
    };
    this.plans.set(adapter, plan);
    return plan;
  }
}
