import type { metaEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';
import { listCountries } from './countries.js';

/** Versions and countries, for anyone (under maintenance too). */
export function metaHandlers({ services: { flags } }: AppContext): Handlers<typeof metaEndpoints> {
  return {
    version: () => flags.version(),
    countries: () => listCountries(),
  };
}
