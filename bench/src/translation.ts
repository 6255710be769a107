import { groupConversationId } from '@teltlk/protocol';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { WebSocket } from 'ws';
import { befriend, call, registerAccounts, type Account } from './accounts.js';
import { freePort } from '@teltlk/test-kit';
import { seed, startTeltlk } from './server-process.js';
import { median } from './stats.js';

/** Messages one request may ask translations for (TRANSLATE_SEQS_MAX of the protocol). */
const TRANSLATE_SEQS_MAX = 50;

/**
 * Translation through the cache: a group whose members speak `languages` languages
 * receives `messages` messages; the server's provider (an OpenAI-compatible engine, played
 * by a local HTTP server that counts what it is asked and answers at once) must be asked
 * once per language per message, whatever the group size. Online members speak all but the
 * last language and get translations pushed; offline members speak every language, the
 * last one only them, and ask for their translations when they read, after the pushes,
 * so the stored ones must serve them and only the last language costs a call. The group
 * is filled up to `groupSize` with synthetic offline members (the seeding command `populate-group`, as
 * in the fan-out benchmark). Then the time of a stored translation's lookup over HTTP,
 * against the baseline of reading that one message over HTTP, interleaved.
 */

export interface TranslationOptions {
  /** Online members besides the sender, spread evenly over all languages but the last. */
  members: number;
  /** Members with accounts who stay offline and ask on read, spread over every language. */
  offline: number;
  /** Members in all, the rest synthetic and offline. */
  groupSize: number;
  languages: number;
  messages: number;
  /** Timed lookups of each kind. */
  lookups: number;
}

export const TRANSLATION_DEFAULTS: TranslationOptions = {
  members: 40,
  offline: 10,
  groupSize: 100_000,
  languages: 5,
  messages: 20,
  lookups: 300,
};

/** Mother tongues the members are given, in turn (the sender writes English). */
const LANGUAGES = ['es', 'fr', 'de', 'pt', 'ja', 'ru', 'ar', 'hi', 'id', 'tr', 'it', 'ko'];

export interface TranslationFigures {
  callsPerMessage: number;
  languages: number;
  members: number;
  cachedUs: number;
  baselineUs: number;
}

/**
 * A chat-completions engine that answers `[<code>] <text>` and counts the texts it was
 * asked to translate, per target language (a batched request counts each of its texts).
 */
async function startFakeEngine(): Promise<{ url: string; calls: string[]; server: Server }> {
  const calls: string[] = [];
  const port = await freePort();
  const server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const body = JSON.parse(raw) as { messages: { role: string; content: string }[] };
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      const to = /to [^\n]*?\(([A-Za-z-]+)\)\./.exec(system)?.[1] ?? '?';
      const batch = system.includes('JSON array');
      const texts = batch ? (JSON.parse(user) as string[]) : [user];
      // A batch asks for several translations in one request; each counts.
      for (let i = 0; i < texts.length; i += 1) calls.push(to);
      const content = batch
        ? JSON.stringify(texts.map((text) => `[${to}] ${text}`))
        : `[${to}] ${user}`;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/v1`, calls, server };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => resolve(raw));
    request.on('error', reject);
  });
}

interface Member {
  account: Account;
  lang: string;
  socket: WebSocket;
  /** Message ids this member has a translation frame for. */
  translated: Set<string>;
}

function connect(wsUrl: string, account: Account, translated: Set<string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl);
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as {
        t: string;
        translation?: { messageId: string; status: string };
      };
      if (frame.t === 'hello') resolve(socket);
      if (frame.t === 'translation' && frame.translation?.status === 'done') {
        translated.add(frame.translation.messageId);
      }
    });
    socket.once('open', () => socket.send(JSON.stringify({ t: 'auth', token: account.token })));
    socket.once('error', reject);
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

interface TranslationRow {
  seq: number;
  lang: string;
  status: string;
}

/** One reader's translations of `seqs`, asked again until each is done (in `lang`). */
async function readTranslations(
  base: string,
  reader: Account,
  conversationId: string,
  seqs: readonly number[],
  lang: string,
): Promise<void> {
  for (let start = 0; start < seqs.length; start += TRANSLATE_SEQS_MAX) {
    const page = seqs.slice(start, start + TRANSLATE_SEQS_MAX);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { translations } = await call<{ translations: TranslationRow[] }>(
        base,
        'POST',
        '/translations',
        { token: reader.token, body: { conversationId, seqs: page } },
      );
      const done = translations.filter((row) => row.lang === lang && row.status === 'done');
      if (done.length === page.length) break;
      if (Date.now() > deadline) throw new Error(`timed out waiting for translations into ${lang}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

export async function benchTranslation(options: TranslationOptions): Promise<TranslationFigures> {
  if (options.languages > LANGUAGES.length || options.languages < 2) {
    throw new Error(`from 2 to ${LANGUAGES.length} languages`);
  }
  if (options.offline < options.languages) {
    throw new Error('--translation-offline must be at least the number of languages');
  }
  const engine = await startFakeEngine();
  const server = await startTeltlk({
    env: { TRANSLATE_OPENAI_URL: engine.url, TRANSLATE_DAILY_CHARACTERS: '100000000' },
  });
  const members: Member[] = [];
  try {
    const base = server.baseUrl;
    const [sender, ...accounts] = await registerAccounts(
      base,
      options.members + options.offline + 1,
    );
    const online = accounts.slice(0, options.members);
    const offline = accounts.slice(options.members);
    await call(base, 'PATCH', '/me', { token: sender!.token, body: { motherTongue: 'en' } });
    const offlineLangs: string[] = [];
    for (const [index, account] of offline.entries()) {
      const lang = LANGUAGES[index % options.languages]!;
      offlineLangs.push(lang);
      await call(base, 'PATCH', '/me', { token: account.token, body: { motherTongue: lang } });
      await befriend(base, sender!, account);
    }
    for (const [index, account] of online.entries()) {
      const lang = LANGUAGES[index % (options.languages - 1)]!;
      await call(base, 'PATCH', '/me', { token: account.token, body: { motherTongue: lang } });
      await befriend(base, sender!, account);
      const translated = new Set<string>();
      members.push({
        account,
        lang,
        translated,
        socket: await connect(server.wsUrl, account, translated),
      });
    }
    const group = await call<{ id: string }>(base, 'POST', '/groups', {
      token: sender!.token,
      body: { memberIds: accounts.map((account) => account.userId) },
    });
    const conversationId = groupConversationId(group.id);
    const synthetic = options.groupSize - (accounts.length + 1);
    if (synthetic > 0) {
      await seed(server, ['populate-group', '--group', group.id, '--members', String(synthetic)]);
    }

    const before = engine.calls.length;
    let last: { id: string; seq: number } | null = null;
    const seqs: number[] = [];
    for (let index = 0; index < options.messages; index += 1) {
      last = await call<{ id: string; seq: number }>(base, 'POST', '/messages', {
        token: sender!.token,
        body: {
          conversationId,
          clientMsgId: `bench-translation-${index}`,
          content: {
            kind: 'text',
            text: `Message number ${index} of the benchmark: the meeting moves to the big hall.`,
          },
        },
      });
      seqs.push(last.seq);
      const id = last.id;
      await until(
        () => members.every((member) => member.translated.has(id)),
        `every member's translation of message ${index}`,
      );
    }
    // The offline members read: each asks for every message, until all are done.
    for (const [index, account] of offline.entries()) {
      await readTranslations(base, account, conversationId, seqs, offlineLangs[index]!);
    }
    const callsPerMessage = (engine.calls.length - before) / options.messages;

    // A stored translation against reading the same message, interleaved.
    const reader = members[0]!;
    const cached: number[] = [];
    const baseline: number[] = [];
    for (let index = 0; index < options.lookups; index += 1) {
      let start = process.hrtime.bigint();
      await call(base, 'POST', '/translations', {
        token: reader.account.token,
        body: { conversationId, seqs: [last!.seq] },
      });
      cached.push(Number(process.hrtime.bigint() - start) / 1000);
      start = process.hrtime.bigint();
      await call(
        base,
        'GET',
        `/conversations/${conversationId}/messages?after=${last!.seq - 1}&limit=1`,
        { token: reader.account.token },
      );
      baseline.push(Number(process.hrtime.bigint() - start) / 1000);
    }
    if (engine.calls.length - before !== callsPerMessage * options.messages) {
      throw new Error('a stored translation was made again');
    }
    return {
      callsPerMessage,
      languages: options.languages,
      members: Math.max(options.groupSize, options.members + 1),
      cachedUs: median(cached),
      baselineUs: median(baseline),
    };
  } finally {
    for (const member of members) member.socket.close();
    await server.stop();
    await new Promise((resolve) => engine.server.close(resolve));
  }
}
