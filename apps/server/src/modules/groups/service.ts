import type { MyGroup } from '@teltlk/protocol';
import { GroupApplications } from './applications.js';
import { GroupCore, type GroupDeps } from './core.js';
import { GroupRoster } from './roster.js';
import { GroupSettings } from './settings.js';

/**
 * Groups: a group and its settings, its members and their roles, and the applications to
 * join it, each a part over one shared core. Every rule of who may do what comes from
 * GROUP_PERMISSIONS and GROUP_ROLE_RANK; a non-member sees no group at all
 * (GROUP_NOT_FOUND). Membership is the conversation's member rows; member_count moves in
 * the same transaction. Changes members should see are system notices in the group's seq
 * stream, written through the message service.
 */
export class GroupService {
  readonly settings: GroupSettings;
  readonly roster: GroupRoster;
  readonly applications: GroupApplications;

  constructor(deps: GroupDeps) {
    const core = new GroupCore(deps);
    this.settings = new GroupSettings(core);
    this.roster = new GroupRoster(core);
    this.applications = new GroupApplications(core);
  }

  /** A group as one of its members sees it (push names a group's messages by it). */
  get(userId: string, groupId: string): Promise<MyGroup> {
    return this.settings.get(userId, groupId);
  }
}
