import type { Message, ServerFrame } from '@teltlk/protocol';

/** JSON of messages already serialized once, while the message object lives. */
const messageJson = new WeakMap<Message, string>();

function jsonOf(message: Message): string {
  let json = messageJson.get(message);
  if (json === undefined) {
    json = JSON.stringify(message);
    messageJson.set(message, json);
  }
  return json;
}

/**
 * A server frame as sent on the socket. A sent message goes out up to three times (the
 * push to both people and the sender's ack) as the same object: it is serialized once.
 * The text is what JSON.stringify gives for the whole frame.
 */
export function serializeFrame(frame: ServerFrame): string {
  if (frame.t === 'message') return `{"t":"message","message":${jsonOf(frame.message)}}`;
  if (frame.t === 'ack') {
    return `{"t":"ack","rid":${JSON.stringify(frame.rid)},"message":${jsonOf(frame.message)}}`;
  }
  return JSON.stringify(frame);
}
