import { groupSystemEventSchema, type SystemContent } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { en_US } from '../../i18n/en_US';
import { zh_CN } from '../../i18n/zh_CN';
import { systemNotice, targetNames, type NoticeNames } from './system-notice';

const people: Record<string, string> = { a: 'Ann', b: 'Bob', c: 'Cai', me: 'You' };
const names: NoticeNames = {
  nameOf: (id) => people[id] ?? id,
  list: (items) => new Intl.ListFormat('en', { type: 'conjunction' }).format(items),
  duration: (seconds) => `${seconds / 60} minutes`,
};

function render(
  catalog: { groups: { system: Record<string, string> } },
  content: SystemContent,
): string {
  const notice = systemNotice(content, names);
  const template = catalog.groups.system[notice.key.slice('groups.system.'.length)] ?? '';
  return template.replace(
    /\{(\w+)\}/g,
    (_, name: keyof typeof notice.params) => notice.params[name],
  );
}

function content(patch: Partial<SystemContent>): SystemContent {
  return { kind: 'system', event: 'created', actorId: 'a', targetIds: [], ...patch };
}

describe('group system notices', () => {
  it('has a text for every event in every catalog', () => {
    for (const event of groupSystemEventSchema.options) {
      expect(en_US.groups.system[event]).toBeTruthy();
      expect(zh_CN.groups.system[event]).toBeTruthy();
    }
  });

  it('names the actor and the people acted on', () => {
    expect(render(en_US, content({ event: 'invited', targetIds: ['b', 'c'] }))).toBe(
      'Ann invited Bob and Cai to the group',
    );
    expect(render(en_US, content({ event: 'removed', actorId: 'me', targetIds: ['b'] }))).toBe(
      'You removed Bob from the group',
    );
  });

  it('states the mute duration and the new name', () => {
    expect(render(en_US, content({ event: 'muted', targetIds: ['b'], seconds: 600 }))).toBe(
      'Ann muted Bob for 10 minutes',
    );
    expect(render(en_US, content({ event: 'renamed', text: 'Pioneers' }))).toBe(
      'Ann renamed the group to "Pioneers"',
    );
    expect(render(zh_CN, content({ event: 'renamed', text: 'Pioneers' }))).toBe(
      'Ann 将群名称修改为“Pioneers”',
    );
  });

  it('names the joiner when a join carries no targets', () => {
    expect(render(en_US, content({ event: 'joined', actorId: 'c' }))).toBe('Cai joined the group');
    expect(render(en_US, content({ event: 'joined', actorId: 'a', targetIds: ['b'] }))).toBe(
      'Bob joined the group',
    );
  });

  it('sums up long target lists', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(targetNames(ids, names)).toBe('Ann, Bob, Cai, d, and e +2');
  });
});
