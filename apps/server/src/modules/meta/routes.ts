import { countryListResult } from '@teltlk/protocol';
import type { App } from '../../http/types.js';
import { listCountries } from './countries.js';

export function metaRoutes(app: App): void {
  app.get(
    '/meta/countries',
    {
      schema: {
        tags: ['meta'],
        summary: 'Countries with their dial codes',
        response: { 200: countryListResult },
      },
    },
    () => listCountries(),
  );
}
