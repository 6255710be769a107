import { conversationIdSchema, peerOf } from '@teltlk/protocol';
import { useSearchParams } from 'react-router';

/**
 * The conversation id of the query, checked: null when it is malformed or not one of
 * the user's (a single conversation without them), undefined while the user is unknown.
 */
export function useConversationParam(selfId: string | null): string | null | undefined {
  const [search] = useSearchParams();
  const raw = search.get('conversationId');
  const parsed = conversationIdSchema.safeParse(raw);
  if (!parsed.success) return null;
  if (!selfId) return undefined;
  if (parsed.data.startsWith('si_') && peerOf(parsed.data, selfId) === null) return null;
  return parsed.data;
}
