import { describe, expect, it } from 'vitest';
import { paths, sectionOf } from './paths';
import { isSearchShortcut } from './shortcuts';

describe('the tab a page belongs to (the desktop rail marks it)', () => {
  it('is the tab of its folder: a chat and its settings are the chats’', () => {
    expect(sectionOf(paths.root)).toBe('home');
    expect(sectionOf(paths.home)).toBe('home');
    expect(sectionOf(paths.chat)).toBe('home');
    expect(sectionOf(paths.chatSetting)).toBe('home');
    expect(sectionOf(paths.groupSetting)).toBe('home');
    expect(sectionOf(paths.contacts)).toBe('contacts');
    expect(sectionOf(paths.seeMeans)).toBe('contacts');
    expect(sectionOf(paths.find)).toBe('find');
    expect(sectionOf(paths.coin)).toBe('find');
    expect(sectionOf(paths.user)).toBe('user');
    expect(sectionOf(paths.wallet)).toBe('user');
  });

  it('is none for pages outside the tabs', () => {
    expect(sectionOf(paths.verification)).toBeNull();
    expect(sectionOf(paths.upgradation)).toBeNull();
    expect(sectionOf(paths.mobileDevice)).toBeNull();
    expect(sectionOf(paths.securityUndo)).toBeNull();
    expect(sectionOf('/pages/homework/x')).toBeNull();
  });
});

describe('the search shortcut', () => {
  const key = (pressed: { key: string } & Partial<Omit<KeyboardEvent, 'key'>>) => ({
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    isComposing: false,
    ...pressed,
  });

  it('is Ctrl+K, or ⌘K on a Mac, caps lock or not', () => {
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(key({ key: 'k', metaKey: true }))).toBe(true);
    expect(isSearchShortcut(key({ key: 'K', ctrlKey: true }))).toBe(true);
  });

  it('is not K alone, another letter, or K with Shift or Alt', () => {
    expect(isSearchShortcut(key({ key: 'k' }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'j', ctrlKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'K', ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true, isComposing: true }))).toBe(false);
  });
});
