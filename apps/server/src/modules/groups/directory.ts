import type { Db } from '../../db/schema.js';
import type { GroupFacts, GroupReads } from '../messages/directory.js';
import type { GroupRepo } from './repo.js';

/** What other modules read of groups: messaging, for its views and its send rules. */
export class GroupDirectory implements GroupReads {
  constructor(private readonly repo: GroupRepo) {}

  groupsByIds(ids: readonly string[], db?: Db): Promise<GroupFacts[]> {
    return (db ? this.repo.in(db) : this.repo).factsByIds(ids);
  }

  memberCount(groupId: string): Promise<number> {
    return this.repo.memberCount(groupId);
  }
}
