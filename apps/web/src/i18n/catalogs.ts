import type { UiLanguage } from '@teltlk/protocol';
import type { Catalog } from './en_US';

/*
 * The catalogs, each in a chunk of its own, and the plain lookup the sign-in page uses
 * before the app (and i18next with it) has loaded. i18next reads the same chunks.
 */

const loaders: Record<UiLanguage, () => Promise<Catalog>> = {
  en_US: () => import('./en_US').then((module) => module.en_US),
  zh_CN: () => import('./zh_CN').then((module) => module.zh_CN),
  zh_TW: () => import('./zh_TW').then((module) => module.zh_TW),
};

export function loadCatalog(language: UiLanguage): Promise<Catalog> {
  return loaders[language]();
}

export type TextParams = Record<string, string | number>;

type KeysOf<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${KeysOf<T[K]>}`;
}[keyof T & string];

/** Every text of the catalogs by its dotted key, e.g. `login.title`. */
export type CatalogKey = KeysOf<Catalog>;

/**
 * A catalog's text for a dotted key with its `{name}` placeholders filled, as i18next
 * gives it with the app's settings (catalogs.test.ts holds the two to the same answers).
 * An unknown key comes back as itself, as in i18next.
 */
export function catalogText(catalog: Catalog, key: CatalogKey, params?: TextParams): string {
  let node: unknown = catalog;
  for (const part of key.split('.')) {
    node =
      typeof node === 'object' && node !== null
        ? (node as Record<string, unknown>)[part]
        : undefined;
  }
  if (typeof node !== 'string') return key;
  return node.replace(/\{\s*(\w+)\s*\}/g, (placeholder, name: string) =>
    params && name in params ? String(params[name]) : placeholder,
  );
}
