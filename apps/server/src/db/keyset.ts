import type { ExpressionBuilder, ReferenceExpression } from 'kysely';

/*
 * Keyset paging of lists shown newest first, ordered by (time desc, id desc): a page's
 * cursor is `<time>:<id>` of its last row, and the next page holds the rows after it.
 */

/** The `<time>:<id>` cursor of a page's last row. */
export function cursorOf(at: number, id: string): string {
  return `${at}:${id}`;
}

/**
 * The rows after `cursor` (checked as `<digits>:<id>` by the schema), as a where-clause:
 * `.where((eb) => after(eb, cursor, 'created_at', 'id'))`.
 */
export function after<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  cursor: string,
  at: ReferenceExpression<DB, TB>,
  id: ReferenceExpression<DB, TB>,
) {
  const [time = '0', key = ''] = cursor.split(':');
  const when = Number(time);
  return eb.or([eb(at, '<', when), eb.and([eb(at, '=', when), eb(id, '<', key)])]);
}
