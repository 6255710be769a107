import type { Plugin } from 'vite';

/** A chunk's file name and the chunks it imports statically, as the bundle has them. */
export type StaticImports = ReadonlyMap<string, readonly string[]>;

/** The chunks a chunk's code cannot run without: itself and all it imports, transitively. */
export function loadedBefore(imports: StaticImports, host: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (name: string) => {
    if (loaded.has(name)) return;
    loaded.add(name);
    for (const imported of imports.get(name) ?? []) visit(imported);
  };
  visit(host);
  return loaded;
}

/**
 * The files a dynamic import in `host` is to fetch side by side: `deps` without those the
 * host's own static imports have loaded already (by the time the host's code runs, they
 * are in the module map, and a preload of them fetches nothing).
 */
export function preloadList(
  imports: StaticImports,
  host: string,
  deps: readonly string[],
): string[] {
  const loaded = loadedBefore(imports, host);
  return deps.filter((dep) => !loaded.has(dep));
}

/**
 * Keeps out of every script's preload lists (Vite's `__vite__mapDeps`, the chunks a
 * dynamic import fetches in parallel with its own) the chunks that script already needed
 * to start. The app's router lazily loads dozens of pages, each list naming react, the
 * router, i18n and the rest of what `main` itself imports: that list is downloaded before
 * the first screen, so every name in it costs. What the browser fetches is unchanged.
 */
export function preloadListsPlugin(): Plugin {
  let imports: StaticImports = new Map();
  return {
    name: 'teltlk-preload-lists',
    apply: 'build',
    config() {
      return {
        build: {
          modulePreload: {
            resolveDependencies: (_file, deps, { hostId, hostType }) =>
              hostType === 'js' ? preloadList(imports, hostId, deps) : deps,
          },
        },
      };
    },
    // Before Vite's own generateBundle, which writes the lists (a build plugin, it runs
    // after the config's plugins).
    generateBundle(_options, bundle) {
      imports = new Map(
        Object.values(bundle).flatMap((item) =>
          item.type === 'chunk' ? [[item.fileName, item.imports] as const] : [],
        ),
      );
    },
  };
}
