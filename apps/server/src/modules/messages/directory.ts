import type { UploadedMedia } from '@teltlk/protocol';
import type { Db, GroupRow } from '../../db/schema.js';

/**
 * What messaging reads of the tables other modules own, asked of those modules: the
 * groups module answers for groups, the users module for users.
 */

/** A group as messaging needs it: its brief, and the rules for writing to it. */
export type GroupFacts = Pick<
  GroupRow,
  'id' | 'name' | 'avatar_path' | 'member_count' | 'owner_id' | 'all_muted' | 'allowed_kinds'
>;

export interface GroupReads {
  /** These groups (dismissed ones too), in the given transaction when there is one. */
  groupsByIds(ids: readonly string[], db?: Db): Promise<GroupFacts[]>;
  /** A group's member count (0 for none). */
  memberCount(groupId: string): Promise<number>;
}

export interface UserReads {
  /** Each of these users' mother tongue (the fallback when a text's language is unclear). */
  motherTongues(userIds: readonly string[]): Promise<Map<string, string>>;
  /** Ids of users who are not official accounts, after `afterId` in id order. */
  regularUserIds(afterId: string, limit: number): Promise<string[]>;
}

export interface MediaReads {
  /**
   * The stored media of these ids the sender may send (their uploads, or what they can see
   * in a chat), read in the sending transaction.
   */
  forSend(senderId: string, ids: readonly string[], db: Db): Promise<Map<string, UploadedMedia>>;
  /** Records which messages carry which media, in the sending transaction. */
  linkMessages(
    links: readonly { mediaId: string; conversationId: string; seq: number }[],
    db: Db,
  ): Promise<void>;
}
