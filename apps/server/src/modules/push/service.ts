import {
  APP_PAGES,
  chatPage,
  groupIdOf,
  type Message,
  type PushKeyResult,
  type PushPayload,
  type PushSubscriptionBody,
  type UserEventData,
} from '@teltlk/protocol';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import { Semaphore } from '../../lib/semaphore.js';
import { sessionStates } from '../auth/port.js';
import type { AuthInfo, ClientInfo } from '../auth/sessions.js';
import type { PendingEvent } from '../events/service.js';
import type { GroupService } from '../groups/service.js';
import { conversationReaders } from '../messages/port.js';
import { messageFor } from '../messages/visibility.js';
import type { SecurityActivityLog } from '../security/activity.js';
import type { StepUpRule } from '../security/step-up.js';
import { userColumns } from '../users/port.js';
import type { UserService } from '../users/service.js';
import type { PushOptions, PushSender, PushTarget } from './sender.js';
import { previewOf, pushTexts } from './texts.js';

/** A device that may get a push: its subscription and what its person chose. */
interface Recipient extends PushTarget {
  id: string;
  user_id: string;
  session_id: string;
  ui_language: string;
  notification_previews: number;
}

/** A device of a member of a conversation, with how the member hears from it. */
interface MemberDevice extends Recipient {
  conversation_id: string;
  muted: number;
  /** The member's history starts after this seq (cleared, or joined later). */
  min_seq: number;
}

/** Conversations whose subscribed members one query reads. */
const CONVERSATIONS_PER_QUERY = 500;

/**
 * Whether a new message is pushed to a member's device: not their own, theirs to see
 * (the messages module's rule: within their history), and the chat not muted, unless the
 * message mentions them (an @mention breaks through a mute). A member a group's admins
 * silenced for a while still hears the group.
 */
function concerns(message: Message, device: MemberDevice): boolean {
  if (device.user_id === message.senderId || messageFor(message, device.min_seq) === null) {
    return false;
  }
  if (device.muted === 0) return true;
  const { content } = message;
  if (content.kind !== 'text') return false;
  return content.mentionAll === true || (content.mentions ?? []).includes(device.user_id);
}

/** A message waits this long at the push service for a device that is away. */
const MESSAGE_TTL_SECONDS = 24 * 60 * 60;
/** Pushes under way at once; more wait their turn (and past the queue, are dropped). */
const CONCURRENCY = 16;
const QUEUE = 10_000;

/** A topic (RFC 8030: up to 32 URL-safe characters) per conversation, so pushes collapse. */
function topicOf(conversationId: string): string {
  return createHash('sha256').update(conversationId).digest('base64url').slice(0, 32);
}

/**
 * Web Push to devices that are not online: new messages (per conversation's mute, an
 * @mention breaking through it), mining reminders, and a test. One push per device per
 * message, never to a device with an open socket, never to the sender's own devices.
 * Without previews a push says only that a message came (the spec's default title), in
 * the reader's interface language; with them, who sent it and what.
 */
export class PushService {
  private readonly semaphore = new Semaphore(CONCURRENCY, QUEUE);
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      logger: Logger;
      sender: PushSender;
      publicKey: string;
      /** Hosts (and their subdomains) a subscription may point at; null: any. */
      hosts: readonly string[] | null;
      /** Whether a device (session) has a socket open on any node. */
      online: (userId: string, sessionId: string) => Promise<boolean>;
      users: UserService;
      groups: () => GroupService;
      stepUp: StepUpRule;
      activity: SecurityActivityLog;
    },
  ) {}

  publicKey(): PushKeyResult {
    return { publicKey: this.deps.publicKey };
  }

  /**
   * Subscribes this device. Renewing the same subscription (every start does) changes
   * nothing; a new one is a sensitive action (a step-up first), since pushes carry
   * message previews. An endpoint another account's live session holds is refused: who
   * knows a browser's endpoint cannot move its pushes to an account of theirs.
   */
  async subscribe(auth: AuthInfo, body: PushSubscriptionBody, client: ClientInfo): Promise<void> {
    if (!this.allowed(body.endpoint)) throw new AppError('PUSH_ENDPOINT_REFUSED');
    const { db, clock, stepUp, activity } = this.deps;
    const own = await this.ownSubscription(auth);
    if (
      own?.endpoint === body.endpoint &&
      own.p256dh === body.keys.p256dh &&
      own.auth === body.keys.auth
    ) {
      return;
    }
    await stepUp.require(auth, 'account');
    const pending = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const holder = await trx
        .selectFrom('push_subscriptions as ps')
        .innerJoin(sessionStates(trx).as('s'), 's.id', 'ps.session_id')
        .select(['ps.user_id', 's.revoked_at', 's.expires_at'])
        .where('ps.endpoint', '=', body.endpoint)
        .executeTakeFirst();
      if (
        holder &&
        holder.user_id !== auth.userId &&
        holder.revoked_at === null &&
        holder.expires_at > now
      ) {
        throw new AppError('PUSH_ENDPOINT_IN_USE');
      }
      // This session's old subscription, and the endpoint's under a session of the same
      // person or one that has ended.
      await trx
        .deleteFrom('push_subscriptions')
        .where((eb) =>
          eb.or([eb('session_id', '=', auth.sessionId), eb('endpoint', '=', body.endpoint)]),
        )
        .execute();
      await trx
        .insertInto('push_subscriptions')
        .values({
          id: newId(),
          user_id: auth.userId,
          session_id: auth.sessionId,
          endpoint: body.endpoint,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          created_at: now,
        })
        .execute();
      return activity.record(trx, {
        userId: auth.userId,
        action: 'pushOn',
        sessionId: auth.sessionId,
        client,
      });
    });
    activity.publish([pending]);
  }

  /** No more pushes to this device: a sensitive action when it had a subscription. */
  async unsubscribe(auth: AuthInfo, client: ClientInfo): Promise<void> {
    const { db, stepUp, activity } = this.deps;
    if (!(await this.ownSubscription(auth))) return;
    await stepUp.require(auth, 'account');
    const pending = await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('push_subscriptions').where('session_id', '=', auth.sessionId).execute();
      return activity.record(trx, {
        userId: auth.userId,
        action: 'pushOff',
        sessionId: auth.sessionId,
        client,
      });
    });
    activity.publish([pending]);
  }

  private ownSubscription(auth: AuthInfo) {
    return this.deps.db
      .selectFrom('push_subscriptions')
      .select(['endpoint', 'p256dh', 'auth'])
      .where('session_id', '=', auth.sessionId)
      .where('user_id', '=', auth.userId)
      .executeTakeFirst();
  }

  /** A test notification to this device, now (online or not): proof the path works. */
  async test(auth: AuthInfo): Promise<void> {
    const [device] = await this.recipients((db) => db.where('ps.session_id', '=', auth.sessionId));
    if (!device) throw new AppError('PUSH_NOT_SUBSCRIBED');
    const texts = pushTexts(device.ui_language);
    const payload: PushPayload = { ...texts.test, tag: 'test', path: '/pages/user/message' };
    try {
      await this.deliver(device, payload, { ttlSeconds: 60, urgency: 'high' });
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'test push failed');
      throw new AppError('PUSH_FAILED');
    }
  }

  /** After the commit of new messages: pushes to their offline recipients, in the background. */
  messagesSent(messages: readonly Message[]): void {
    const announced = messages.filter((message) => previewOf(message.content, 'en_US') !== null);
    if (announced.length > 0) this.background(() => this.announce(announced));
  }

  /**
   * After user events are published: mining reminders reach devices that are away, and
   * so does word of a sensitive action, on every device but the one it was done on.
   */
  eventsPublished(events: readonly PendingEvent[]): void {
    for (const { userId, event } of events) {
      const data = event.data;
      if (data.type === 'mining') this.background(() => this.remind(userId, data));
      if (data.type === 'security') {
        this.background(() => this.warn(userId, data.activity.sessionId));
      }
    }
  }

  /**
   * Tells a person's other devices that are away that something sensitive was done. Always,
   * whatever the notification switches say: it is the one push an owner must not miss.
   */
  private async warn(userId: string, doneOn: string | null): Promise<void> {
    const devices = await this.recipients((db) => db.where('ps.user_id', '=', userId));
    await Promise.all(
      devices.map(async (device) => {
        if (device.session_id === doneOn) return;
        if (await this.deps.online(device.user_id, device.session_id)) return;
        const texts = pushTexts(device.ui_language);
        await this.deliver(
          device,
          { ...texts.security, tag: 'security', path: APP_PAGES.securityActivity },
          { ttlSeconds: 7 * 24 * 60 * 60, urgency: 'high' },
        );
      }),
    );
  }

  /**
   * An incoming call, to the invitees' devices that have no socket open (those that do
   * ring by the socket), whatever their notification switches and the chat's mute: a
   * call is answered now or never. A tap opens the chat, which shows the call screen while
   * the call still rings; the push is worth nothing after the ringing, so it waits at the
   * push service no longer than that.
   */
  incomingCall(
    call: {
      id: string;
      conversationId: string;
      media: 'audio' | 'video';
      callerId: string;
      ringSeconds: number;
    },
    userIds: readonly string[],
  ): void {
    if (userIds.length === 0) return;
    this.background(async () => {
      const devices = await this.recipients((db) => db.where('ps.user_id', 'in', [...userIds]));
      if (devices.length === 0) return;
      const caller = (await this.deps.users.cardsOf([call.callerId])).get(call.callerId);
      await Promise.all(
        devices.map(async (device) => {
          if (await this.deps.online(device.user_id, device.session_id)) return;
          const texts = pushTexts(device.ui_language).incomingCall;
          const name = caller?.nickname ?? '';
          const payload: PushPayload = {
            title: texts.title,
            body: call.media === 'video' ? texts.video(name) : texts.audio(name),
            tag: `call:${call.id}`,
            path: chatPage(call.conversationId),
            conversationId: call.conversationId,
          };
          await this.deliver(device, payload, { ttlSeconds: call.ringSeconds, urgency: 'high' });
        }),
      );
    });
  }

  /** Resolves once the pushes under way are done (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private background(work: () => Promise<void>): void {
    const run = work()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'push failed'))
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  /**
   * New messages to the devices of their readers: one query reads the subscribed members
   * of all their conversations (a batch of sends costs one read, not one a message), then
   * each message goes to those of them it concerns.
   */
  private async announce(messages: readonly Message[]): Promise<void> {
    const conversations = [...new Set(messages.map((message) => message.conversationId))];
    const members = new Map<string, MemberDevice[]>();
    for (let at = 0; at < conversations.length; at += CONVERSATIONS_PER_QUERY) {
      const devices = await this.subscribedMembers(
        conversations.slice(at, at + CONVERSATIONS_PER_QUERY),
      );
      for (const device of devices) {
        const own = members.get(device.conversation_id);
        if (own) own.push(device);
        else members.set(device.conversation_id, [device]);
      }
    }
    const due = messages
      .map((message) => ({
        message,
        devices: (members.get(message.conversationId) ?? []).filter((device) =>
          concerns(message, device),
        ),
      }))
      .filter(({ devices }) => devices.length > 0);
    if (due.length === 0) return;
    // Who wrote, and the groups' names, read once for the batch.
    const senders = await this.deps.users.cardsOf([
      ...new Set(due.map(({ message }) => message.senderId)),
    ]);
    const groupNames = new Map<string, Promise<string | null>>();
    const groupNameOf = (message: Message): Promise<string | null> => {
      const groupId = groupIdOf(message.conversationId);
      if (groupId === null) return Promise.resolve(null);
      let name = groupNames.get(groupId);
      if (!name) {
        name = this.deps
          .groups()
          .get(message.senderId, groupId)
          .then(
            (group) => group.name,
            () => null,
          );
        groupNames.set(groupId, name);
      }
      return name;
    };
    await Promise.all(
      due.map(async ({ message, devices }) => {
        const from = {
          name: senders.get(message.senderId)?.nickname ?? '',
          group: await groupNameOf(message),
        };
        await this.announceTo(message, devices, from).catch((error: unknown) =>
          this.deps.logger.warn({ err: error }, 'push failed'),
        );
      }),
    );
  }

  /** Subscribed devices of members of these conversations who take notifications. */
  private subscribedMembers(conversationIds: readonly string[]): Promise<MemberDevice[]> {
    return this.baseQuery()
      .innerJoin(
        conversationReaders(this.deps.db, conversationIds).as('cm'),
        'cm.user_id',
        'ps.user_id',
      )
      .where('u.notifications', '=', 1)
      .select(['cm.conversation_id', 'cm.muted', 'cm.min_seq'])
      .execute();
  }

  /** One message to the devices it concerns, named by its sender and group (if any). */
  private async announceTo(
    message: Message,
    devices: readonly Recipient[],
    from: { name: string; group: string | null },
  ): Promise<void> {
    const options: PushOptions = {
      ttlSeconds: MESSAGE_TTL_SECONDS,
      urgency: 'high',
      topic: topicOf(message.conversationId),
    };
    await Promise.all(
      devices.map(async (device) => {
        if (await this.deps.online(device.user_id, device.session_id)) return;
        const texts = pushTexts(device.ui_language);
        const preview = previewOf(message.content, device.ui_language) ?? '';
        const shown = device.notification_previews === 1;
        const payload: PushPayload = {
          title: shown ? (from.group ?? from.name) : texts.newMessage,
          body: shown ? (from.group === null ? preview : texts.inGroup(from.name, preview)) : '',
          tag: message.conversationId,
          path: chatPage(message.conversationId),
          conversationId: message.conversationId,
        };
        await this.deliver(device, payload, options);
      }),
    );
  }

  private async remind(userId: string, data: Extract<UserEventData, { type: 'mining' }>) {
    const devices = await this.recipients((db) =>
      db.where('ps.user_id', '=', userId).where('u.notifications', '=', 1),
    );
    await Promise.all(
      devices.map(async (device) => {
        if (await this.deps.online(device.user_id, device.session_id)) return;
        const texts = pushTexts(device.ui_language);
        const payload: PushPayload =
          data.reason === 'ended'
            ? { ...texts.miningEnded, tag: 'mining', path: APP_PAGES.find }
            : {
                title: texts.nudged.title,
                body: texts.nudged.body(data.by?.nickname ?? ''),
                tag: 'mining',
                path: APP_PAGES.find,
              };
        await this.deliver(device, payload, { ttlSeconds: 12 * 60 * 60, urgency: 'normal' });
      }),
    );
  }

  /** Subscriptions of live sessions, narrowed by `where`. */
  private recipients(
    where: (query: ReturnType<PushService['baseQuery']>) => ReturnType<PushService['baseQuery']>,
  ): Promise<Recipient[]> {
    return where(this.baseQuery()).execute();
  }

  private baseQuery() {
    const now = this.deps.clock.now();
    return this.deps.db
      .selectFrom('push_subscriptions as ps')
      .innerJoin(sessionStates(this.deps.db).as('s'), 's.id', 'ps.session_id')
      .innerJoin(userColumns(this.deps.db).as('u'), 'u.id', 'ps.user_id')
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .select([
        'ps.id',
        'ps.user_id',
        'ps.session_id',
        'ps.endpoint',
        'ps.p256dh',
        'ps.auth',
        'u.ui_language',
        'u.notification_previews',
      ]);
  }

  /** One push, its turn taken in the semaphore; a subscription the service dropped goes. */
  private async deliver(device: Recipient, payload: PushPayload, options: PushOptions) {
    const place = this.semaphore.take();
    if (!place) {
      this.deps.logger.warn('push queue full: a push was dropped');
      return;
    }
    try {
      await place.ready;
      const result = await this.deps.sender.send(device, JSON.stringify(payload), options);
      if (result === 'gone') {
        await this.deps.db.deleteFrom('push_subscriptions').where('id', '=', device.id).execute();
      }
    } finally {
      place.release();
    }
  }

  /**
   * The server posts to a subscription's endpoint, so only push services' hosts are
   * taken, over https (plain http only on loopback, where a local push service runs).
   */
  private allowed(endpoint: string): boolean {
    const url = new URL(endpoint);
    const host = url.hostname.toLowerCase();
    const loopback = host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
    if (url.protocol !== 'https:' && !loopback) return false;
    const hosts = this.deps.hosts;
    if (hosts === null) return true;
    return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
  }
}
