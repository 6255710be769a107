import type { ConversationView, LocalMessage } from '@teltlk/im-sdk';
import { useQueryClient } from '@tanstack/react-query';
import { isQuoteAvailable, mayInGroup, type MyGroup, type SystemContent } from '@teltlk/protocol';
import { useEffect, useMemo } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { ApiError } from '@teltlk/im-sdk';
import { paths, withQuery } from '../../app/paths';
import { useUiLocale } from '../../ui/use-ui-locale';
import type { GroupMessageKind } from '@teltlk/protocol';
import type { MentionSupport } from './composer';
import type { GroupRowContext, Person } from './message-row';
import { clockTime, formatDuration } from '../../ui/conversation/time-labels';
import { GroupReadState } from './group-reads';
import { mayUseKind, sendBlock } from '../../ui/conversation/group-controls';
import { collectMentions, type Mentionable } from './mentions';
import { noticePeople, systemNotice } from '../../ui/conversation/system-notice';
import { groupKeys, groupTitle, useGroup } from '../../api/use-groups';
import { useGroupPeople } from '../../api/use-people';

export interface GroupChat {
  group: MyGroup | undefined;
  title: string | null;
  settingsTo: string;
  personOf: (senderId: string) => Person;
  rowContext: GroupRowContext;
  mention: MentionSupport | undefined;
  /** Why the caller cannot send, in their language; null when they can. */
  blocked: string | null;
  /** Whether the caller may share a location or a card here (allowed kind, or an admin). */
  mayShare: (kind: GroupMessageKind) => boolean;
  /** The mentions a text carries, from the people picked in the @ list. */
  mentionsOf: (
    text: string,
    picked: readonly Mentionable[],
  ) => { mentions?: string[]; mentionAll?: true };
}

/** Ids a timeline needs names for: senders, people notices name, people quoted. */
function peopleIn(messages: readonly LocalMessage[]): string[] {
  const ids = new Set<string>();
  for (const message of messages) {
    ids.add(message.senderId);
    const content = message.content;
    if (content.kind === 'system') for (const id of noticePeople(content)) ids.add(id);
    if (content.kind === 'text' && content.quote && isQuoteAvailable(content.quote)) {
      ids.add(content.quote.senderId);
    }
  }
  return [...ids];
}

/** Whether a failure means the caller is no longer in the group. */
function isGone(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === 'GROUP_NOT_FOUND' || error.code === 'FORBIDDEN' || error.status === 404)
  );
}

/** What the chat page adds in a group: title, names, notices, mentions, reads, mutes. */
export function useGroupChat(
  groupId: string | null,
  selfId: string,
  messages: readonly LocalMessage[] | undefined,
  view: ConversationView | undefined,
  now: number,
): GroupChat | null {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const group = useGroup(groupId);
  const ids = useMemo(() => peopleIn(messages ?? []), [messages]);
  const people = useGroupPeople(groupId, ids);

  // Renames, mutes and role changes arrive as system notices: the group data follows them.
  const lastSystemSeq = useMemo(() => {
    for (let index = (messages?.length ?? 0) - 1; index >= 0; index -= 1) {
      const message = messages![index]!;
      if (message.content.kind === 'system') return message.seq ?? 0;
    }
    return 0;
  }, [messages]);
  useEffect(() => {
    if (groupId && lastSystemSeq > 0) {
      void queryClient.invalidateQueries({ queryKey: groupKeys.group(groupId) });
      void queryClient.invalidateQueries({ queryKey: groupKeys.allMembers(groupId) });
    }
  }, [groupId, lastSystemSeq, queryClient]);

  const data = group.data;
  const maxSeq = view?.maxSeq ?? 0;
  return useMemo(() => {
    if (!groupId) return null;
    const nameOf = (id: string) => (id === selfId ? t('chat.you') : (people(id)?.name ?? '…'));
    const list = (names: string[]) =>
      new Intl.ListFormat(locale, { type: 'conjunction' }).format(names);
    const allLabel = t('groups.mentionAll');
    const rowContext: GroupRowContext = {
      systemText: (content: SystemContent) => {
        const notice = systemNotice(content, {
          nameOf,
          list,
          duration: (seconds) => formatDuration(seconds, locale),
        });
        return t(notice.key, notice.params);
      },
      mentionNames: (content) => [
        ...(content.mentions ?? []).flatMap((id) =>
          id === selfId ? [] : (people(id)?.aliases ?? []),
        ),
        ...(content.mentions?.includes(selfId) ? (people(selfId)?.aliases ?? []) : []),
        ...(content.mentionAll ? [allLabel] : []),
      ],
      readState: (message) =>
        message.seq !== null ? (
          <GroupReadState groupId={groupId} seq={message.seq} version={maxSeq} />
        ) : null,
    };
    let blocked: string | null = null;
    if (group.error && isGone(group.error)) blocked = t('groups.left');
    else if (data) {
      const block = sendBlock(data, data.me, now);
      if (block?.reason === 'muted') {
        blocked = t('groups.mutedComposer', { time: clockTime(block.until, locale) });
      } else if (block?.reason === 'allMuted') blocked = t('groups.allMutedComposer');
      else if (block?.reason === 'textNotAllowed') blocked = t('groups.textNotAllowed');
    }
    const mayAll = data ? mayInGroup(data.me.role, 'mentionAll') : false;
    const baseTitle = data ? groupTitle(data) : (view?.group?.name ?? null);
    const count = data?.memberCount ?? view?.group?.memberCount;
    return {
      group: data,
      title: baseTitle && count ? `${baseTitle} (${count})` : baseTitle,
      settingsTo: withQuery(paths.groupSetting, { groupId }),
      personOf: (senderId: string): Person =>
        senderId === selfId
          ? { name: t('chat.you'), avatarUrl: null }
          : { name: nameOf(senderId), avatarUrl: people(senderId)?.avatarUrl ?? null },
      rowContext,
      mention: { groupId, selfId, allLabel: mayAll ? allLabel : null },
      blocked,
      mayShare: (kind) => (data ? mayUseKind(data, data.me.role, kind) : false),
      mentionsOf: (text, picked) =>
        collectMentions(text, picked, { label: allLabel, allowed: mayAll }),
    };
  }, [groupId, selfId, t, locale, people, view?.group, data, group.error, now, maxSeq]);
}
