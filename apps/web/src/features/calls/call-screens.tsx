import type { ImEngine } from '@teltlk/im-sdk';
import { useCalls } from '../../app/engine';
import type { Call, CallMedia } from '@teltlk/protocol';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useMe, useSettings } from '../../api/queries';
import { useGroupPeople } from '../../api/use-people';
import { useCallTexts } from '../../i18n/calls';
import { conversationName } from '../../ui/conversation/messages';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';
import { CallSession, type SessionDeps } from './call-session';
import { InCallView, MinimizedCall, RemoteAudio, useOutputs, type Face } from './call-view';
import { IncomingCall } from './incoming-call';
import { localMedia, MediaUnavailable } from './local-media';
import { ring } from './ringtone';
import { openJanusLink } from './group-link';
import { ensureMediaPermission } from '../../api/media-permission';
import './calls.css';

/** How long the end of a call stays on screen ("Call declined", "No answer"). */
const ENDED_SHOWN_MS = 2_500;

export interface CallRequest {
  conversationId: string;
  media: CallMedia;
  /** Distinguishes two requests for the same chat. */
  key: number;
}

/** My part in a call: rung (and not yet answered anywhere), in it, or neither. */
function myState(call: Call, selfId: string) {
  return call.participants.find((p) => p.userId === selfId)?.state ?? null;
}

/**
 * Everything about calls on screen: the incoming call, the call in progress (or
 * minimized), and a call's end. It holds this device's one call session; the calls
 * themselves are the engine's.
 */
export function CallScreens({
  engine,
  selfId,
  request,
}: {
  engine: ImEngine;
  selfId: string;
  request: CallRequest | null;
}) {
  const { t } = useCallTexts();
  const calls = useCalls();
  const settings = useSettings().data;
  const me = useMe().data;
  const [session, setSession] = useState<CallSession | null>(null);
  /** What a call's end says for a moment ("Call declined", "Answered on another device"). */
  const [notice, setNotice] = useState<{ text: string; forget: string | null } | null>(null);
  const [elsewhere, setElsewhere] = useState<ReadonlySet<string>>(() => new Set());
  const [declined, setDeclined] = useState<ReadonlySet<string>>(() => new Set());
  const handled = useRef<number | null>(null);
  const output = useOutputs();

  const conversations = engine.getSnapshot().conversations;
  const titleOf = useCallback(
    (conversationId: string) =>
      conversationName(conversations.find((c) => c.id === conversationId)) ?? t('screen'),
    [conversations, t],
  );

  const deps = useMemo<SessionDeps>(
    () => ({
      calls: engine.calls,
      selfId,
      localMedia: (media) => localMedia(media, ensureMediaPermission),
      openGroupLink: openJanusLink,
    }),
    [engine, selfId],
  );

  const fail = useCallback(
    (error: unknown) => {
      if (error instanceof MediaUnavailable) showToast(t(`problem.${error.problem}`));
      else toastFailure(error);
    },
    [t],
  );

  // Another device took the call: this one stops ringing and says so.
  useEffect(
    () =>
      engine.calls.on('answeredElsewhere', ({ callId }) => {
        setElsewhere((known) => new Set(known).add(callId));
        setNotice({ text: t('answeredElsewhere'), forget: null });
      }),
    [engine, t],
  );

  const view = useSyncExternalStore(
    useCallback((listener: () => void) => session?.subscribe(listener) ?? (() => {}), [session]),
    () => session?.getSnapshot() ?? null,
  );

  // The session closed (the call ended, or this device left it): show how it ended.
  useEffect(() => {
    if (!session || !view?.closed) return;
    const call = session.call();
    setSession(null);
    if (call) {
      const outcome = call.outcome ?? 'completed';
      setNotice({
        text: `${titleOf(call.conversationId)} · ${t(`ended.${outcome}`)}`,
        forget: call.id,
      });
    }
  }, [session, view, titleOf, t]);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => {
      if (notice.forget !== null) engine.calls.forget(notice.forget);
      setNotice(null);
    }, ENDED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [notice, engine]);

  const start = useCallback(
    async (conversationId: string, media: CallMedia) => {
      if (session) {
        session.setMinimized(false);
        return;
      }
      const conversation = engine.getSnapshot().conversations.find((c) => c.id === conversationId);
      const group = Boolean(conversation?.group);
      const running = engine.calls
        .getSnapshot()
        .find((call) => call.conversationId === conversationId && call.state !== 'ended');
      try {
        const next =
          group && running
            ? await CallSession.answer(deps, running)
            : await CallSession.outgoing(deps, { conversationId, media, group });
        setSession(next);
      } catch (error) {
        fail(error);
      }
    },
    [session, engine, deps, fail],
  );

  useEffect(() => {
    if (!request || handled.current === request.key) return;
    handled.current = request.key;
    void start(request.conversationId, request.media);
  }, [request, start]);

  // Hanging up when the page goes away leaves no one waiting out the media grace.
  useEffect(() => {
    if (!session) return;
    const leave = () => void session.hangup().catch(() => undefined);
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [session]);

  const incoming = session
    ? null
    : (calls.find(
        (call) =>
          call.state !== 'ended' &&
          myState(call, selfId) === 'ringing' &&
          !elsewhere.has(call.id) &&
          !declined.has(call.id),
      ) ?? null);

  // Ringing: as the settings say, and for a muted chat too.
  const sound = settings?.alertSound ?? true;
  const vibrate = settings?.vibration ?? true;
  const outgoingRinging =
    view && session?.call()?.state === 'ringing' && session.call()?.callerId === selfId;
  useEffect(() => {
    if (!incoming) return;
    return ring({ sound, vibrate });
  }, [incoming?.id, sound, vibrate]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!outgoingRinging) return;
    return ring({ sound: true, vibrate: false, ringBack: true });
  }, [outgoingRinging]);

  const callerIds = useMemo(
    () => [
      ...new Set(
        [incoming?.callerId, ...(view?.remotes.map((r) => r.userId) ?? [])].filter(
          (id): id is string => Boolean(id),
        ),
      ),
    ],
    [incoming?.callerId, view?.remotes],
  );
  const people = useGroupPeople(null, callerIds);
  const faceOf = useCallback(
    (userId: string): Face => {
      const conversation = conversations.find((c) => c.peer?.id === userId);
      const person = people(userId);
      return {
        name: person?.name ?? conversation?.peer?.nickname ?? '',
        avatarUrl: person?.avatarUrl ?? conversation?.peer?.avatarUrl ?? null,
      };
    },
    [people, conversations],
  );

  const liveCall = session?.call();
  const peerFace = useMemo(() => {
    if (!view || view.group) return null;
    const conversation = conversations.find((c) => c.id === view.conversationId);
    return conversation?.peer
      ? { name: conversationName(conversation) ?? '', avatarUrl: conversation.peer.avatarUrl }
      : null;
  }, [view, conversations]);

  return (
    <>
      {session && view && !session.isClosed ? (
        <>
          {view.minimized ? (
            <MinimizedCall session={session} view={view} title={titleOf(view.conversationId)} />
          ) : (
            <InCallView
              session={session}
              view={view}
              call={liveCall}
              title={titleOf(view.conversationId)}
              faceOf={faceOf}
              selfFace={{ name: me?.nickname ?? '', avatarUrl: me?.avatarUrl ?? null }}
              peerFace={peerFace}
              output={output}
            />
          )}
          {view.remotes.map((person) =>
            person.stream ? (
              <RemoteAudio
                key={person.userId}
                stream={person.stream}
                sinkId={output?.sinkId ?? null}
              />
            ) : null,
          )}
        </>
      ) : null}
      {incoming ? (
        <IncomingCall
          call={incoming}
          title={titleOf(incoming.conversationId)}
          caller={faceOf(incoming.callerId)}
          onAccept={(media) => {
            void CallSession.answer(deps, incoming)
              .then((next) => {
                if (media === 'audio') next.setCamera(false);
                setSession(next);
              })
              .catch(fail);
          }}
          onDecline={() => {
            setDeclined((known) => new Set(known).add(incoming.id));
            const leave =
              incoming.kind === 'group'
                ? engine.calls.hangup(incoming.id)
                : engine.calls.reject(incoming.id);
            void leave.catch(() => undefined);
          }}
        />
      ) : null}
      {notice ? (
        <p className="tt-call-ended" role="status">
          {notice.text}
        </p>
      ) : null}
    </>
  );
}
