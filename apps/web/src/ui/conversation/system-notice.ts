import type { GroupSystemEvent, SystemContent } from '@teltlk/protocol';

/** Names listed in a notice before the rest is summed up as "+n". */
const NAMES_SHOWN = 5;

/** A system notice before translation: a catalog key and its parameters. */
export interface SystemNotice {
  key: `groups.system.${GroupSystemEvent}`;
  params: { actor: string; targets: string; duration: string; text: string };
}

export interface NoticeNames {
  /** The reader's name for a person (remark, group nickname, nickname; "You" for self). */
  nameOf: (userId: string) => string;
  /** Joins names as the reader's language lists them ("A, B and C"). */
  list: (names: string[]) => string;
  /** A mute duration in the reader's language. */
  duration: (seconds: number) => string;
}

/** Names of the people acted on: a few listed, the rest counted, so long lists stay short. */
export function targetNames(ids: readonly string[], names: NoticeNames): string {
  const shown = ids.slice(0, NAMES_SHOWN).map(names.nameOf);
  const rest = ids.length - shown.length;
  return rest > 0 ? `${names.list(shown)} +${rest}` : names.list(shown);
}

/**
 * The notice a system message shows: built from ids when it is read, so each reader sees
 * it in their own language and with their own names for people.
 */
export function systemNotice(content: SystemContent, names: NoticeNames): SystemNotice {
  const actor = names.nameOf(content.actorId);
  // "joined" names who joined: the applicant, or those an admin approved.
  const targetIds =
    content.targetIds.length > 0 || content.event !== 'joined'
      ? content.targetIds
      : [content.actorId];
  return {
    key: `groups.system.${content.event}`,
    params: {
      actor,
      targets: targetNames(targetIds, names),
      duration: content.seconds ? names.duration(content.seconds) : '',
      text: content.text ?? '',
    },
  };
}

/** Every person a notice names, so their names can be looked up before it shows. */
export function noticePeople(content: SystemContent): string[] {
  return [content.actorId, ...content.targetIds.slice(0, NAMES_SHOWN)];
}
