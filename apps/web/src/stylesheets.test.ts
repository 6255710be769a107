import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Styles live beside their components: a feature's stylesheet styles that feature's
 * classes (and the shared ui/ and app/ ones it sits among), never another feature's, and
 * the stylesheet loaded at boot is the shell's and the sign-in page's, with no feature's
 * styles in it: those come with the feature's chunk.
 */

const src = dirname(fileURLToPath(import.meta.url));

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => relative(src, join(entry.parentPath, entry.name)));
}

const read = (file: string) => readFileSync(join(src, file), 'utf8');

/** `features/chat/x.tsx` → `chat`; null outside the features. */
function featureOf(file: string): string | null {
  const [top, feature] = file.split('/');
  return top === 'features' && feature !== undefined ? feature : null;
}

/** `tt-` classes a stylesheet names, in any part of any selector. */
function classesNamed(css: string): Set<string> {
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return new Set([...withoutComments.matchAll(/\.(tt-[a-z0-9-]+)/g)].map((match) => match[1]!));
}

/** `tt-msg-own` → `tt-msg`: what a feature's classes start with. */
const prefixOf = (className: string) => /^tt-[a-z0-9]+/.exec(className)![0];

const sources = filesUnder(src, (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name));

/** Which features' components use each class (written out whole in their source). */
const classUsers = new Map<string, Set<string>>();
/** Which places (`features/chat`, or `ui`, `app`… for the shared code) use each class prefix. */
const prefixUsers = new Map<string, Set<string>>();
for (const file of sources) {
  const feature = featureOf(file);
  const place = feature ? `features/${feature}` : file.split('/')[0]!;
  for (const [className] of read(file).matchAll(/(?<![\w-])tt-[a-z0-9]+(?:-[a-z0-9]+)*/g)) {
    if (feature) {
      const users = classUsers.get(className) ?? new Set();
      classUsers.set(className, users.add(feature));
    }
    const users = prefixUsers.get(prefixOf(className)) ?? new Set();
    prefixUsers.set(prefixOf(className), users.add(place));
  }
}

/** The feature whose alone a prefix is (only its components use classes with it), if any. */
function prefixOwner(prefix: string): string | null {
  const [place, ...others] = prefixUsers.get(prefix) ?? [];
  return place !== undefined && others.length === 0 ? featureOf(`${place}/`) : null;
}

const featureStylesheets = filesUnder(join(src, 'features'), (name) => name.endsWith('.css'));

describe("a feature's stylesheet", () => {
  it.each(featureStylesheets)('%s names no class prefix that is another feature’s', (file) => {
    const feature = featureOf(file);
    const foreign = [...classesNamed(read(file))].filter((className) => {
      const owner = prefixOwner(prefixOf(className));
      return owner !== null && owner !== feature;
    });
    expect(foreign).toEqual([]);
  });

  it.each(featureStylesheets)('%s styles no class only other features use', (file) => {
    const feature = featureOf(file) ?? '';
    const foreign = [...classesNamed(read(file))].filter((className) => {
      const users = classUsers.get(className);
      return users !== undefined && !users.has(feature) && !sharedClass(className);
    });
    expect(foreign).toEqual([]);
  });
});

/** A class the shared code (ui/, app/) uses too: a feature may style it in its own context. */
function sharedClass(className: string): boolean {
  return sources.some(
    (file) =>
      featureOf(file) === null && new RegExp(`(?<![\\w-])${className}(?![\\w-])`).test(read(file)),
  );
}

/** The stylesheets a module or stylesheet brings in, followed through `@import`s. */
function stylesheetsOf(file: string, seen = new Set<string>()): Set<string> {
  const text = read(file);
  const imported = file.endsWith('.css')
    ? [...text.matchAll(/@import\s+['"]([^'"]+)['"]/g)]
    : [...text.matchAll(/^import\s+['"]([^'"]+\.css)['"]/gm)];
  for (const [, path] of imported) {
    const target = relative(src, resolve(src, dirname(file), path!));
    if (!seen.has(target)) {
      seen.add(target);
      stylesheetsOf(target, seen);
    }
  }
  return seen;
}

describe('the boot stylesheet', () => {
  const atBoot = [...stylesheetsOf('app/boot.ts')];

  it("is the shell's and the sign-in page's, with no feature's styles", () => {
    expect(atBoot).toContain('app/shell.css');
    expect(atBoot).toContain('app/sign-in.css');
    expect(atBoot.filter((file) => featureOf(file) !== null)).toEqual([]);
  });

  it('styles the sign-in page written into index.html', () => {
    const styled = new Set(atBoot.flatMap((file) => [...classesNamed(read(file))]));
    const markup = read('features/auth/login-markup.ts');
    const used = [...markup.matchAll(/(?<![\w-])tt-[a-z0-9]+(?:-[a-z0-9]+)*/g)].map(
      ([className]) => className,
    );
    expect(used.filter((className) => !styled.has(className))).toEqual([]);
  });
});
