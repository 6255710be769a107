import { beforeAll, describe, expect, it } from 'vitest';
import type { Cast } from '../cast.js';
import { dialects, expectError } from '../harness.js';
import { matrixApp } from './app.js';
import { fresh } from './arrange.js';
import { cases, OK, type Row, rowName, type Want } from './cells.js';
import { covers, isPublic, PUBLIC } from './public-routes.js';
import { ACCOUNT_ROWS } from './rows-account.js';
import { CHAT_ROWS } from './rows-chats.js';
import { DEVICE_ROWS } from './rows-devices.js';
import { GROUP_ROWS } from './rows-groups.js';
import { GROWTH_ROWS } from './rows-growth.js';
import { MEDIA_ROWS } from './rows-media.js';
import { MONEY_ROWS } from './rows-money.js';
import { PAYMENT_ROWS } from './rows-payments.js';
import { UPLOAD_ROWS } from './rows-uploads.js';
import { CALL_ROWS } from './rows-calls.js';

/** The rows of every route, by topic, in the order they run. */
const ROWS: Row[] = [
  ...ACCOUNT_ROWS,
  ...CHAT_ROWS,
  ...GROUP_ROWS,
  ...MEDIA_ROWS,
  ...MONEY_ROWS,
  ...GROWTH_ROWS,
  ...DEVICE_ROWS,
  ...PAYMENT_ROWS,
  ...UPLOAD_ROWS,
  ...CALL_ROWS,
];

describe.each(dialects)('permission matrix on $dialect', ({ dialect }) => {
  const matrix = matrixApp(dialect);
  const { routes, sensitiveRoutes } = matrix;
  let w: Cast;
  beforeAll(() => {
    ({ w } = matrix);
  });

  it('has a row or a public entry for every route, and none for a route that is gone', () => {
    expect(routes.size).toBeGreaterThan(50);
    const rowRoutes = new Set(ROWS.map((row) => row.route));
    const uncovered = [...routes].filter((route) => !rowRoutes.has(route) && !isPublic(route));
    expect(uncovered, 'routes with no row in the permission matrix').toEqual([]);
    const stale = [...rowRoutes].filter((route) => !routes.has(route));
    expect(stale, 'rows for routes the app does not have').toEqual([]);
    const unused = Object.keys(PUBLIC).filter(
      (entry) => ![...routes].some((route) => covers(entry, route)),
    );
    expect(unused, 'public entries for routes the app does not have').toEqual([]);
    expect([...rowRoutes].filter(isPublic), 'rows for public routes').toEqual([]);
  });

  describe('routes', () => {
    for (const { row, as, want, todo } of cases<Row, Want>(ROWS, 'UNAUTHENTICATED')) {
      const test = todo ? it.skip : it;
      test(`${rowName(row)} as ${as}${todo ? ` (todo: ${todo})` : ''}`, async () => {
        try {
          if (sensitiveRoutes.has(row.route)) await fresh(w, as);
          const response = await row.run(w, as);
          if (want === OK) expect(response.statusCode, response.body).toBeLessThan(300);
          else expectError(response, want);
          if (as !== 'anonymous') await row.check?.(w, as, response);
        } finally {
          if (as !== 'anonymous' && want === OK) await row.restore?.(w, as);
        }
      });
    }
  });
});
