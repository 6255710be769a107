/** Lower-case, accent-free text for matching what people type against names. */
export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Items whose search text contains every word of the query (empty query: all items). */
export function filterBySearch<T>(
  items: readonly T[],
  query: string,
  text: (item: T) => string,
): T[] {
  const words = foldForSearch(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...items];
  return items.filter((item) => {
    const haystack = foldForSearch(text(item));
    return words.every((word) => haystack.includes(word));
  });
}
