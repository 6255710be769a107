import { ERROR_CODES, ERRORS, RULE_KEYS, UI_LANGUAGES } from '@teltlk/protocol';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { catalogText, loadCatalog, type CatalogKey } from './catalogs';
import { en_US } from './en_US';
import { zh_CN } from './zh_CN';
import { zh_TW } from './zh_TW';
import { security_en_US } from './security-en_US';
import { security_zh_CN } from './security-zh_CN';
import { security_zh_TW } from './security-zh_TW';
import { calls_en_US } from './calls-en_US';
import { calls_zh_CN } from './calls-zh_CN';
import { calls_zh_TW } from './calls-zh_TW';
import { pages_en_US } from './pages-en_US';
import { pages_zh_CN } from './pages-zh_CN';
import { pages_zh_TW } from './pages-zh_TW';

type Tree = { readonly [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [inner, text] of flatten(value, path)) entries.set(inner, text);
  }
  return entries;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

const catalogs = { en_US, zh_CN, zh_TW } satisfies Record<(typeof UI_LANGUAGES)[number], Tree>;
const flat = Object.fromEntries(
  Object.entries(catalogs).map(([name, tree]) => [name, flatten(tree)]),
) as Record<keyof typeof catalogs, Map<string, string>>;
const reference = flat.en_US;

describe('i18n catalogs', () => {
  it('has a catalog for every interface language', () => {
    expect(Object.keys(catalogs).sort()).toEqual([...UI_LANGUAGES].sort());
  });

  it.each(Object.keys(catalogs) as (keyof typeof catalogs)[])(
    '%s has exactly the English keys',
    (name) => {
      const keys = [...flat[name].keys()];
      const missing = [...reference.keys()].filter((key) => !flat[name].has(key));
      const extra = keys.filter((key) => !reference.has(key));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    },
  );

  it.each(Object.keys(catalogs) as (keyof typeof catalogs)[])('%s has no empty texts', (name) => {
    const empty = [...flat[name]].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it.each(Object.keys(catalogs) as (keyof typeof catalogs)[])(
    '%s has a message for every protocol error code and no others',
    (name) => {
      const errorKeys = [...flat[name].keys()].filter((key) => key.startsWith('error.'));
      expect(errorKeys.sort()).toEqual(ERROR_CODES.map((code) => `error.${code}`).sort());
    },
  );

  it.each(Object.keys(catalogs) as (keyof typeof catalogs)[])(
    '%s has a text for every rule key and no others',
    (name) => {
      const ruleKeys = [...flat[name].keys()].filter((key) => key.startsWith('rule.'));
      expect(ruleKeys.sort()).toEqual(RULE_KEYS.map((key) => `rule.${key}`).sort());
    },
  );

  it.each(['zh_CN', 'zh_TW'] as const)('%s uses the same {placeholders} as English', (name) => {
    const differing = [...reference]
      .filter(
        ([key, text]) =>
          placeholders(text).join() !== placeholders(flat[name].get(key) ?? '').join(),
      )
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it('error messages take the parameters the server sends', () => {
    for (const code of ERROR_CODES) {
      for (const [name, entries] of Object.entries(flat)) {
        expect(placeholders(entries.get(`error.${code}`) ?? ''), `${name} error.${code}`).toEqual(
          placeholders(ERRORS[code].message),
        );
      }
    }
  });

  it('uses the specification’s exact English texts', () => {
    // Wherever they live: the main catalog or the pages' namespace.
    const texts = new Set([...reference.values(), ...flatten(pages_en_US).values()]);
    for (const text of [
      'Verification code error',
      'This account has been registered',
      'TeltlkID can only be modified once a month',
      'Invalid invitation code',
      'The account you entered is incorrect, Please re-enter it',
      'The password you entered is incorrect, Please re-enter it',
      'Verification code sending failed',
      'The current network connection is poor',
      'Content copied',
      'Copy failed, please copy manually',
      'Login failed',
      'Registration failed',
      'Modification failed',
      'The passwords entered twice are inconsistent',
      'Network connection timed out.',
      'This feature is currently not available',
      'Failed to load',
    ]) {
      expect(texts.has(text), text).toBe(true);
    }
  });

  it('names each interface language the same way in every catalog (native names)', () => {
    for (const language of UI_LANGUAGES) {
      const names = Object.values(flat).map((entries) => entries.get(`language.${language}`));
      expect(new Set(names).size, language).toBe(1);
    }
  });

  it.each(UI_LANGUAGES)(
    'the plain lookup of the sign-in page gives what i18next gives, in %s',
    async (language) => {
      const catalog = await loadCatalog(language);
      expect(catalog).toBe(catalogs[language]);
      // i18next as the app sets it up (i18n/index.ts).
      const i18n = i18next.createInstance();
      await i18n.init({
        lng: language,
        resources: { [language]: { translation: catalog } },
        interpolation: { prefix: '{', suffix: '}', escapeValue: false },
        showSupportNotice: false,
      });
      // Keys read from the catalog itself, so untyped here.
      const t = i18n.t.bind(i18n) as unknown as (key: string, params?: object) => string;
      for (const [key, text] of flat[language]) {
        const params = Object.fromEntries(
          placeholders(text).map((name, index) => [name, index % 2 ? index : `<${name} & 'x'>`]),
        );
        expect(catalogText(catalog, key as CatalogKey, params), key).toBe(t(key, params));
        // A missing parameter stays as it is written, as i18next leaves it.
        if (placeholders(text).length > 0) {
          expect(catalogText(catalog, key as CatalogKey), key).toBe(t(key, {}));
        }
      }
      expect(catalogText(catalog, 'login.nothing' as CatalogKey)).toBe(t('login.nothing'));
    },
  );
});

const namespaces = {
  security: [security_en_US, security_zh_CN, security_zh_TW],
  calls: [calls_en_US, calls_zh_CN, calls_zh_TW],
  pages: [pages_en_US, pages_zh_CN, pages_zh_TW],
} as const;

describe.each(Object.keys(namespaces) as (keyof typeof namespaces)[])('the %s namespace', (ns) => {
  const [en, cn, tw] = namespaces[ns];
  const texts = {
    en_US: flatten(en),
    zh_CN: flatten(cn),
    zh_TW: flatten(tw),
  } satisfies Record<(typeof UI_LANGUAGES)[number], Map<string, string>>;

  it.each(['zh_CN', 'zh_TW'] as const)('%s has exactly the English keys', (name) => {
    expect([...texts[name].keys()].sort()).toEqual([...texts.en_US.keys()].sort());
  });

  it.each(Object.keys(texts) as (keyof typeof texts)[])('%s has no empty texts', (name) => {
    expect([...texts[name]].filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it.each(['zh_CN', 'zh_TW'] as const)('%s uses the same {placeholders} as English', (name) => {
    const differing = [...texts.en_US]
      .filter(
        ([key, text]) =>
          placeholders(text).join() !== placeholders(texts[name].get(key) ?? '').join(),
      )
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it('holds no text the main catalog has too: each text lives in one place', () => {
    const main = new Set(reference.keys());
    expect([...texts.en_US.keys()].filter((key) => main.has(key))).toEqual([]);
  });
});
