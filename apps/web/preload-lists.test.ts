import { describe, expect, it } from 'vitest';
import { loadedBefore, preloadList, type StaticImports } from './preload-lists';

// main imports react and i18n (which imports the runtime); the chat page, loaded by main
// with import(), imports react, the runtime and a chunk of its own; the runtime and react
// import each other, as chunks may.
const imports: StaticImports = new Map([
  ['assets/main.js', ['assets/react.js', 'assets/i18n.js']],
  ['assets/i18n.js', ['assets/runtime.js']],
  ['assets/runtime.js', ['assets/react.js']],
  ['assets/react.js', ['assets/runtime.js']],
  ['assets/chat-page.js', ['assets/react.js', 'assets/runtime.js', 'assets/bubbles.js']],
  ['assets/bubbles.js', []],
]);

describe('preload lists', () => {
  it('knows what a chunk has loaded before its code runs, through cycles', () => {
    expect([...loadedBefore(imports, 'assets/main.js')].sort()).toEqual([
      'assets/i18n.js',
      'assets/main.js',
      'assets/react.js',
      'assets/runtime.js',
    ]);
    expect([...loadedBefore(imports, 'assets/bubbles.js')]).toEqual(['assets/bubbles.js']);
  });

  it('leaves out of a dynamic import’s list what its importer has loaded, in order', () => {
    const deps = [
      'assets/chat-page.js',
      'assets/react.js',
      'assets/runtime.js',
      'assets/bubbles.js',
    ];
    expect(preloadList(imports, 'assets/main.js', deps)).toEqual([
      'assets/chat-page.js',
      'assets/bubbles.js',
    ]);
    // From a chunk that has loaded none of them, the list stays whole.
    expect(preloadList(imports, 'assets/search-page.js', deps)).toEqual(deps);
  });
});
