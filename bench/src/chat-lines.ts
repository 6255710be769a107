/**
 * Chat lines for the load generators: short messages as people write them, in the
 * languages of the product's users, combined so that no two messages of a run are the
 * same text (a cache of any kind answers nothing twice) while the mix of languages, and
 * so the work of detecting them, stays what a real community sends.
 */
const LINES = [
  'Good morning! Did you check in today?',
  'I will send the photos after lunch, ok?',
  'The meeting moved to Thursday at 3 pm.',
  'Thanks a lot, that really helped me.',
  '¿Nos vemos mañana en la plaza?',
  'Acabo de llegar a casa, te llamo luego.',
  '¡Qué buena noticia! Felicidades a todos.',
  '你今天签到了吗？别忘了挖矿。',
  '我下午三点到，到了给你打电话。',
  '這個週末要不要一起去看電影？',
  '謝謝你的幫忙，改天請你吃飯。',
  'Bom dia! Tudo bem com você?',
  'On se retrouve à la gare vers huit heures.',
  'Привет! Как дела, что нового?',
  'مرحبا، هل وصلت الرسالة؟',
  'नमस्ते, आज शाम को मिलते हैं।',
  'Selamat pagi, sudah sarapan belum?',
  'Chào bạn, hôm nay bạn khỏe không?',
  'おはようございます。今日もよろしくお願いします。',
  '안녕하세요, 오늘 시간 괜찮으세요?',
] as const;

/**
 * Message number `n` of a load process: one or two lines, varied, ending in a tag made of
 * the process's `source` and `n`, so texts differ across processes too.
 */
export function chatLine(n: number, source: string): string {
  const first = LINES[n % LINES.length]!;
  const tag = `#${source}${n}`;
  // A second line every third message, from elsewhere in the list: lengths vary too.
  if (n % 3 !== 0) return `${first} ${tag}`;
  const second = LINES[(n * 7 + 3) % LINES.length]!;
  return `${first} ${second} ${tag}`;
}
