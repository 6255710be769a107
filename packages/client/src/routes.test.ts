import { ENDPOINT_GROUPS, type Endpoint, type Endpoints } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import type { ResultKind, Route } from './route.js';
import { routes } from './routes.js';

/** The route of a declaration, as the table holds it. */
function routeOf(endpoint: Endpoint): Route {
  const result: ResultKind =
    endpoint.result === null ? null : endpoint.result === 'bytes' ? 'bytes' : 'json';
  return { method: endpoint.method, path: endpoint.path, result };
}

/** The route table's source, as written from the declarations. */
function tableSource(groups: Record<string, Endpoints>): string {
  const lines = [
    "// Written from the protocol's ENDPOINT_GROUPS by routes.test.ts, which fails when the two",
    '// differ; to write it again: `npx vitest run packages/client/src/routes.test.ts -u`.',
    "import type { ENDPOINT_GROUPS } from '@teltlk/protocol';",
    "import type { RoutesOf } from './route.js';",
    '',
    '/** Every endpoint of the contract, as the client calls it: `api.call(routes.groups.update, …)`. */',
    '// prettier-ignore',
    'export const routes: RoutesOf<typeof ENDPOINT_GROUPS> = {',
  ];
  for (const [group, endpoints] of Object.entries(groups)) {
    lines.push(`  ${group}: {`);
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const { method, path, result } = routeOf(endpoint);
      const kind = result === null ? 'null' : `'${result}'`;
      lines.push(`    ${name}: { method: '${method}', path: '${path}', result: ${kind} },`);
    }
    lines.push('  },');
  }
  lines.push('};', '');
  return lines.join('\n');
}

describe('the route table', () => {
  it('holds each declaration of the contract, without its schemas', async () => {
    await expect(tableSource(ENDPOINT_GROUPS)).toMatchFileSnapshot('./routes.ts');
  });

  it('has what each declaration says of its method, path and answer', () => {
    const groups: Record<string, Endpoints> = ENDPOINT_GROUPS;
    for (const [group, endpoints] of Object.entries(groups)) {
      const table: Record<string, unknown> = routes[group as keyof typeof routes];
      for (const [name, endpoint] of Object.entries(endpoints)) {
        expect(table[name], `${group}.${name}`).toEqual(routeOf(endpoint));
      }
    }
  });
});
