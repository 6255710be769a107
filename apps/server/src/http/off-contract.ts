/**
 * Routes the server answers outside the REST contract (the endpoints declared in
 * packages/protocol), by module, each with why: web pages and stored files, not the JSON
 * API, so no typed client calls them and the API docs leave them out. `METHOD /url` as
 * registered; a GET stands for its HEAD too. off-contract.test.ts holds each module to its
 * list.
 */
export const OFF_CONTRACT = {
  landing: {
    'GET /home': "the landing site's door: a redirect to its pages in the browser's language",
    'GET /home/download/:platform':
      'a redirect to the app download link the config names, or an HTML page saying there is none',
    'GET /home/*': "the landing site's pages, prerendered HTML with this host's address written in",
    'POST /home/cooperate':
      'the partnership form of a plain HTML page: a URL-encoded body, answered by a redirect or a page',
  },
  files: {
    'GET /files/*':
      'stored files (avatars, group pictures) read from disk under names that are never reused',
  },
} satisfies Record<string, Record<string, string>>;

export type OffContractModule = keyof typeof OFF_CONTRACT;
