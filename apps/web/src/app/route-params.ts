import {
  codePurposeSchema,
  destinationSchemaFor,
  type Channel,
  type CodePurpose,
} from '@teltlk/protocol';

export interface DestinationParams {
  channel: Channel;
  destination: string;
}

/**
 * Channel and destination from a code page's query, checked with the shared rules.
 * A "+" typed into a URL by hand arrives as a space; it is put back for phones.
 */
export function readDestination(search: URLSearchParams): DestinationParams | null {
  const channel = search.get('channel');
  let destination = search.get('destination');
  if ((channel !== 'phone' && channel !== 'email') || !destination) return null;
  if (channel === 'phone' && /^ \d/.test(destination)) destination = `+${destination.slice(1)}`;
  const parsed = destinationSchemaFor(channel).safeParse(destination);
  return parsed.success ? { channel, destination: parsed.data } : null;
}

/** The purpose of the sendCode page; registration unless the query says otherwise. */
export function readPurpose(
  search: URLSearchParams,
  fallback: CodePurpose = 'register',
): CodePurpose {
  const parsed = codePurposeSchema.safeParse(search.get('purpose'));
  return parsed.success ? parsed.data : fallback;
}
