import type { ImEngine, LocalMessage } from '@teltlk/im-sdk';
import type { Settings } from '@teltlk/protocol';
import { i18n } from '../i18n/index';
import { alertLine, conversationName } from '../ui/conversation/messages';
import { paths, withQuery } from './paths';

/*
 * What a new message does while the app is open: vibration and the alert sound as the
 * settings say (not for the chat being read), and a system notification while the tab
 * is in the background. A muted chat stays quiet unless the message mentions the person.
 * Loaded with the first message, not with the app.
 */

let audio: AudioContext | null = null;

/** A short two-tone chime, made on the spot (no sound file to download). */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const context = audio;
    void context.resume().catch(() => undefined);
    const start = context.currentTime;
    [880, 1320].forEach((frequency, index) => {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.08, start + index * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + index * 0.12 + 0.18);
      tone.connect(gain).connect(context.destination);
      tone.start(start + index * 0.12);
      tone.stop(start + index * 0.12 + 0.2);
    });
  } catch {
    // No audio here (or not yet allowed): the notification still says it.
  }
}

/** Whether this conversation is on screen now. */
function isOpen(conversationId: string): boolean {
  if (document.visibilityState !== 'visible') return false;
  const query = window.location.hash.split('?')[1] ?? '';
  return new URLSearchParams(query).get('conversationId') === conversationId;
}

async function notify(title: string, body: string, tag: string, path: string): Promise<void> {
  const options: NotificationOptions = { body, tag, icon: './icon-192.png', data: { path } };
  // Through the service worker where there is one (Android allows no other way).
  const worker =
    'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (worker) {
    await worker.showNotification(title, options);
    return;
  }
  const shown = new Notification(title, options);
  shown.onclick = () => {
    window.focus();
    window.location.hash = `#${path}`;
    shown.close();
  };
}

export function alertMessage(
  engine: ImEngine,
  message: LocalMessage,
  settings: Settings,
  selfId: string,
): void {
  if (message.senderId === selfId) return;
  const conversation = engine
    .getSnapshot()
    .conversations.find((candidate) => candidate.id === message.conversationId);
  const t = i18n.t.bind(i18n);
  const line = alertLine(message, t);
  // A chat's first message may come before the chat itself is synced: not muted then.
  if (line === null) return;
  const { content } = message;
  const mentioned =
    content.kind === 'text' &&
    (content.mentionAll === true || (content.mentions ?? []).includes(selfId));
  if (conversation?.muted && !mentioned) return;
  if (isOpen(message.conversationId)) return;
  if (settings.vibration) navigator.vibrate?.(200);
  if (settings.alertSound) chime();
  const background = document.visibilityState === 'hidden';
  if (!background || !settings.notifications) return;
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  const previews = settings.notificationPreviews;
  const title = previews
    ? (conversationName(conversation) ?? t('common.appName'))
    : t('notify.newMessage');
  const body = previews ? line : '';
  const path = withQuery(paths.chat, { conversationId: message.conversationId });
  void notify(title, body, message.conversationId, path).catch(() => undefined);
}
