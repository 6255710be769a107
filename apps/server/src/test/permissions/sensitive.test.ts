import { beforeAll, describe, expect, it } from 'vitest';
import type { Cast } from '../cast.js';
import { dialects, expectError } from '../harness.js';
import { matrixApp } from './app.js';
import { OK } from './cells.js';
import { owner, provenAs, SENSITIVE, STEP_UP } from './sensitive-rows.js';

describe.each(dialects)('permission matrix on $dialect', ({ dialect }) => {
  const matrix = matrixApp(dialect);
  const { sensitiveRoutes } = matrix;
  let w: Cast;
  beforeAll(() => {
    ({ w } = matrix);
  });

  describe('sensitive', () => {
    it('has a row for every sensitive route, as each route declares it', () => {
      const declared = Object.fromEntries(sensitiveRoutes);
      const rows = Object.fromEntries(
        SENSITIVE.map((row) => [row.route, { level: row.level, proof: row.proof }]),
      );
      expect(rows).toEqual(declared);
    });

    for (const row of SENSITIVE) {
      for (const state of ['stale', 'held'] as const) {
        it(`${row.route} (${row.on}) from a ${state} session`, async () => {
          const user = await (row.as ?? owner)(w);
          await row.arrange?.(w, user);
          await provenAs(w, user, state);
          try {
            const response = await row.run(w, user);
            const want = row[state];
            if (want === OK) expect(response.statusCode, response.body).toBeLessThan(300);
            else {
              const error = expectError(response, want);
              if (want === STEP_UP) {
                expect(error.params).toEqual({ reason: state === 'held' ? 'hold' : 'stale' });
              }
            }
          } finally {
            await provenAs(w, user, 'fresh');
          }
        });
      }
    }
  });
});
