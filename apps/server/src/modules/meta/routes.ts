import { countryListResult, versionResult } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { byAddress, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { listCountries } from './countries.js';

export function metaRoutes(app: App, { services: { flags }, limits }: AppContext): void {
  const reads = limitBy(limits, ['publicInfoPerAddress', byAddress]);
  app.get(
    '/meta/version',
    {
      schema: {
        tags: ['meta'],
        summary: 'The version served, the oldest app still supported, and maintenance',
        response: { 200: versionResult },
      },
      onRequest: reads,
    },
    () => flags.version(),
  );
  app.get(
    '/meta/countries',
    {
      schema: {
        tags: ['meta'],
        summary: 'Countries with their dial codes',
        response: { 200: countryListResult },
      },
      onRequest: reads,
    },
    () => listCountries(),
  );
}
