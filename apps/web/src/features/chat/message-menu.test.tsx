import { PENDING_MEDIA_ID, type LocalMessage } from '@teltlk/im-sdk';
import type { MessageContent } from '@teltlk/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { savedMedia, useMessageMenu, type MenuAction } from './message-menu';
import type { PendingReply } from './use-text-send';
import type { TranslationRowContext } from './use-translation';
import { messageKey } from '../../ui/conversation/messages';
import { receivedText, storedTranslation } from '../../ui/conversation/test-fixtures';

// Adding a sticker goes to the server; not here.
vi.mock('./faces', () => ({ useAddFavourite: () => ({ mutate() {} }) }));

const image = { id: 'img1', width: 300, height: 200, size: 1000, mime: 'image/jpeg' };
const CONTENTS: Record<string, MessageContent> = {
  text: { kind: 'text', text: 'Hi Li Hua! Nice to meet you' },
  photo: { kind: 'image', image },
  video: {
    kind: 'video',
    video: {
      id: 'vid1',
      width: 640,
      height: 360,
      durationMs: 5000,
      size: 9000,
      mime: 'video/quicktime',
      poster: image,
    },
  },
  voice: { kind: 'voice', voice: { id: 'voc1', durationMs: 3000, size: 100, mime: 'audio/webm' } },
  file: {
    kind: 'file',
    file: { id: 'fil1', name: 'plan.pdf', size: 100, mime: 'application/pdf' },
  },
  location: { kind: 'location', latitude: 48.8, longitude: 2.3, name: 'Tour Eiffel' },
  card: {
    kind: 'card',
    user: {
      id: 'c',
      nickname: 'Cat',
      avatarUrl: null,
      teltlkId: 'cat1234',
      country: 'FR',
      motherTongue: 'fr',
      official: false,
    },
  },
  sticker: { kind: 'face', sticker: 'smile' },
  transfer: {
    kind: 'transfer',
    transferId: 't1',
    currency: 'PI',
    amount: 5,
    note: 'Lunch',
    toId: 'a',
  },
  envelope: {
    kind: 'envelope',
    envelopeId: 'e1',
    currency: 'PI',
    total: 8,
    count: 2,
    split: 'equal',
    greeting: 'Best wishes',
  },
};

const message = (kind: string, patch: Partial<LocalMessage> = {}): LocalMessage =>
  receivedText({ content: CONTENTS[kind]!, lang: kind === 'text' ? 'en' : null, ...patch });

interface Probe {
  actions: MenuAction[];
  replies: PendingReply[];
  forwarded: LocalMessage[];
}

/** The menu a message gets 1 s after it was sent, as the user `a`. */
function menuOf(shown: LocalMessage, translation?: TranslationRowContext): Probe {
  const probe: Probe = { actions: [], replies: [], forwarded: [] };
  function Menu() {
    const menu = useMessageMenu({
      selfId: 'a',
      now: shown.createdAt + 1000,
      handle: undefined,
      personOf: (id) => ({ name: id === 'a' ? 'You' : 'Bob', avatarUrl: null }),
      translation,
      onReply: (reply) => probe.replies.push(reply),
      onEdit: () => {},
      onSelect: () => {},
      onForward: (forwarded) => probe.forwarded.push(forwarded),
    });
    probe.actions = menu(shown);
    return null;
  }
  renderToStaticMarkup(<Menu />);
  return probe;
}

const keys = (shown: LocalMessage, translation?: TranslationRowContext) =>
  menuOf(shown, translation).actions.map((action) => action.key);

function run(probe: Probe, key: string): void {
  const action = probe.actions.find((each) => each.key === key);
  if (!action?.onClick) throw new Error(`no ${key} to run`);
  action.onClick();
}

describe('the message menu', () => {
  it.each(Object.keys(CONTENTS))('lets a received %s be replied to', (kind) => {
    const probe = menuOf(message(kind));
    run(probe, 'reply');
    expect(probe.replies).toEqual([expect.objectContaining({ name: 'Bob', quote: { seq: 4 } })]);
  });

  it('labels what a reply quotes by its kind', () => {
    const excerpt = (kind: string) => {
      const probe = menuOf(message(kind));
      run(probe, 'reply');
      return probe.replies[0]?.text;
    };
    expect(excerpt('text')).toBe('Hi Li Hua! Nice to meet you');
    expect(excerpt('photo')).toBe('[Photo]');
    expect(excerpt('location')).toBe('[Location] Tour Eiffel');
    expect(excerpt('envelope')).toBe('[Red envelope] Best wishes');
  });

  it.each(['text', 'photo', 'video', 'voice', 'file', 'location', 'card', 'sticker'])(
    'forwards a %s, and offers to pick it with others',
    (kind) => {
      const shown = message(kind);
      const probe = menuOf(shown);
      run(probe, 'forward');
      expect(probe.forwarded).toEqual([shown]);
      expect(keys(shown)).toContain('select');
    },
  );

  it('forwards no money: a transfer or red envelope is taken once, by its receiver', () => {
    expect(keys(message('transfer'))).toEqual(['reply', 'delete']);
    expect(keys(message('envelope'))).toEqual(['reply', 'delete']);
  });

  it('saves photos, videos and files under a name, and nothing else', () => {
    const saved = (kind: string) =>
      menuOf(message(kind)).actions.find((action) => action.key === 'save')?.save;
    expect(saved('photo')).toEqual({ mediaId: 'img1', name: 'photo-4.jpg' });
    expect(saved('video')).toEqual({ mediaId: 'vid1', name: 'video-4.mov' });
    expect(saved('file')).toEqual({ mediaId: 'fil1', name: 'plan.pdf' });
    for (const kind of ['text', 'voice', 'location', 'card', 'sticker', 'transfer']) {
      expect(saved(kind)).toBeUndefined();
    }
    // One still uploading, or recalled, has nothing to save.
    expect(
      savedMedia(
        message('photo', { content: { kind: 'image', image: { ...image, id: PENDING_MEDIA_ID } } }),
      ),
    ).toBeNull();
    expect(keys(message('photo', { revokedAt: 2000 }))).not.toContain('save');
  });

  it('says "Recall" for one\'s own recent message, and "Delete"', () => {
    const own = menuOf(message('text', { senderId: 'a' }));
    const texts = Object.fromEntries(own.actions.map((action) => [action.key, action.text]));
    expect(texts.revoke).toBe('Recall');
    expect(texts.delete).toBe('Delete');
    expect(own.actions.map((action) => action.key)).toEqual([
      'reply',
      'copy',
      'forward',
      'edit',
      'select',
      'revoke',
      'delete',
    ]);
  });

  it('offers only copying before the message is acknowledged', () => {
    expect(keys(message('text', { senderId: 'a', seq: null, status: 'sending' }))).toEqual([
      'copy',
    ]);
  });

  it('switches a translated message between original first and translation first', () => {
    const switched: string[] = [];
    const translation = (first: boolean): TranslationRowContext => ({
      scope: { selfId: 'a', translate: true, target: 'en' },
      source: 'server',
      translations: new Map([[4, storedTranslation()]]),
      motherTongueFirst: first,
      switched: new Set(),
      onSwitch: (key) => switched.push(key),
      request: () => {},
      retry: () => {},
    });
    const french = receivedText();
    const translated = menuOf(french, translation(true));
    expect(translated.actions.map((action) => action.key)).toEqual([
      'reply',
      'copy',
      'copyTranslation',
      'showOriginal',
      'retranslate',
      'forward',
      'select',
      'delete',
    ]);
    expect(translated.actions.find((action) => action.key === 'showOriginal')?.text).toBe(
      'Show original first',
    );
    run(translated, 'showOriginal');
    expect(switched).toEqual([messageKey(french)]);
    const originalFirst = menuOf(french, translation(false));
    expect(originalFirst.actions.find((action) => action.key === 'showTranslation')?.text).toBe(
      'Show translation first',
    );
    // Not translated (yet): nothing to switch.
    expect(keys(french, { ...translation(true), translations: new Map() })).not.toContain(
      'showOriginal',
    );
  });
});
