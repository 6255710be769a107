import type { MessageContent, UiLanguage } from '@teltlk/protocol';

/** What a push says, in the reader's interface language. */
interface PushTexts {
  /** The spec's default offline push title ('you have a new message'). */
  newMessage: string;
  /** A group message with previews: "Sender: text". */
  inGroup: (sender: string, text: string) => string;
  kinds: Record<LabelledKind, string>;
  test: { title: string; body: string };
  miningEnded: { title: string; body: string };
  nudged: { title: string; body: (name: string) => string };
  /** Something sensitive done on the account from another device (what, the activity page says). */
  security: { title: string; body: string };
  /** A call that rings: who calls, voice or video. */
  incomingCall: { title: string; audio: (name: string) => string; video: (name: string) => string };
}

type LabelledKind =
  | 'image'
  | 'voice'
  | 'video'
  | 'file'
  | 'location'
  | 'card'
  | 'face'
  | 'merged'
  | 'transfer'
  | 'envelope'
  | 'nft';

const TEXTS: Record<UiLanguage, PushTexts> = {
  en_US: {
    newMessage: 'You have a new message',
    inGroup: (sender, text) => `${sender}: ${text}`,
    kinds: {
      image: '[Photo]',
      voice: '[Voice]',
      video: '[Video]',
      file: '[File]',
      location: '[Location]',
      card: '[Card]',
      face: '[Sticker]',
      merged: '[Chat history]',
      transfer: '[Transfer]',
      envelope: '[Red envelope]',
      nft: '[NFT]',
    },
    test: { title: 'Teltlk', body: 'Notifications work on this device.' },
    miningEnded: {
      title: 'Mining session ended',
      body: 'Check in again to keep mining.',
    },
    nudged: {
      title: 'Time to mine',
      body: (name) => `${name} reminds you to check in.`,
    },
    security: {
      title: 'Account security',
      body: 'A change was made to your account on another device. Not you? Check your security activity.',
    },
    incomingCall: {
      title: 'Incoming call',
      audio: (name) => `${name} is calling you (voice)`,
      video: (name) => `${name} is calling you (video)`,
    },
  },
  zh_CN: {
    newMessage: '您有一条新消息',
    inGroup: (sender, text) => `${sender}：${text}`,
    kinds: {
      image: '[图片]',
      voice: '[语音]',
      video: '[视频]',
      file: '[文件]',
      location: '[位置]',
      card: '[名片]',
      face: '[表情]',
      merged: '[聊天记录]',
      transfer: '[转账]',
      envelope: '[红包]',
      nft: '[NFT]',
    },
    test: { title: 'Teltlk', body: '此设备的通知功能正常。' },
    miningEnded: { title: '挖矿已结束', body: '再次签到以继续挖矿。' },
    nudged: { title: '该挖矿了', body: (name) => `${name} 提醒您签到。` },
    security: {
      title: '账号安全',
      body: '您的账号在另一台设备上有变更。如非本人操作，请查看安全记录。',
    },
    incomingCall: {
      title: '来电',
      audio: (name) => `${name} 邀请你语音通话`,
      video: (name) => `${name} 邀请你视频通话`,
    },
  },
  zh_TW: {
    newMessage: '您有一則新訊息',
    inGroup: (sender, text) => `${sender}：${text}`,
    kinds: {
      image: '[圖片]',
      voice: '[語音]',
      video: '[影片]',
      file: '[檔案]',
      location: '[位置]',
      card: '[名片]',
      face: '[貼圖]',
      merged: '[聊天記錄]',
      transfer: '[轉帳]',
      envelope: '[紅包]',
      nft: '[NFT]',
    },
    test: { title: 'Teltlk', body: '此裝置的通知功能正常。' },
    miningEnded: { title: '挖礦已結束', body: '再次簽到以繼續挖礦。' },
    nudged: { title: '該挖礦了', body: (name) => `${name} 提醒您簽到。` },
    security: {
      title: '帳號安全',
      body: '您的帳號在另一台裝置上有變更。如非本人操作，請查看安全紀錄。',
    },
    incomingCall: {
      title: '來電',
      audio: (name) => `${name} 邀請你語音通話`,
      video: (name) => `${name} 邀請你視訊通話`,
    },
  },
};

/** A push's text is cut here: notifications show a line or two. */
const BODY_MAX = 160;

export function pushTexts(language: string): PushTexts {
  return TEXTS[language as UiLanguage] ?? TEXTS.en_US;
}

/**
 * A message as one line in a notification, in the reader's language: its text, or its
 * kind's label (with a name where it has one); null for kinds that are not announced
 * (notices, revokes, edits).
 */
export function previewOf(content: MessageContent, language: string): string | null {
  const { kinds } = pushTexts(language);
  const named = (label: string, name: string) => `${label} ${name}`;
  let line: string;
  switch (content.kind) {
    case 'text':
      line = content.text;
      break;
    case 'file':
      line = named(kinds.file, content.file.name);
      break;
    case 'location':
      line = named(kinds.location, content.name);
      break;
    case 'card':
      line = named(kinds.card, content.user.nickname);
      break;
    case 'nft':
      line = named(kinds.nft, content.name);
      break;
    case 'image':
    case 'voice':
    case 'video':
    case 'face':
    case 'merged':
    case 'transfer':
    case 'envelope':
      line = kinds[content.kind];
      break;
    default:
      return null;
  }
  const flat = line.replace(/\s+/g, ' ').trim();
  return [...flat].length > BODY_MAX ? `${[...flat].slice(0, BODY_MAX - 1).join('')}…` : flat;
}
