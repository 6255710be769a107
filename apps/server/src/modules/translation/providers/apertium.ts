import type { Clock } from '../../../lib/clock.js';
import {
  getJson,
  isRecord,
  joinUrl,
  malformed,
  postForm,
  statusError,
  type HttpEngine,
} from './http.js';
import { enginePairs } from './pair-cache.js';
import type { TranslationProvider } from './provider.js';

export interface ApertiumProviderOptions {
  /** Base URL of an Apertium APY server, e.g. `http://127.0.0.1:2737`. */
  url: string;
  fetch?: typeof fetch;
  /** Time source for how long the server's pair list is kept. */
  clock?: Clock;
}

/**
 * Product code → ISO 639-3 codes Apertium may list it under, in order of preference. The
 * first is the language's own code; for macrolanguages the individual languages Apertium
 * pairs actually use follow (Persian `pes`, Malay `zlm`, Kurmanji `kmr`, Bokmål `nob`, …).
 * Traditional Chinese has no ISO 639-3 code of its own, so Apertium never gets it.
 */
const ISO_639_3_TABLE = `
  aa=aar ab=abk af=afr ak=aka am=amh an=arg ar=ara,arb as=asm av=ava ay=aym az=aze,azj
  ba=bak be=bel bg=bul bi=bis bm=bam bn=ben bo=bod br=bre bs=bos
  ca=cat ce=che ch=cha co=cos cs=ces cu=chu cv=chv cy=cym
  da=dan de=deu dv=div dz=dzo ee=ewe el=ell en=eng eo=epo es=spa et=est,ekk eu=eus
  fa=fas,pes ff=ful fi=fin fj=fij fo=fao fr=fra fy=fry
  ga=gle gd=gla gl=glg gn=grn gu=guj gv=glv ha=hau he=heb hi=hin ho=hmo hr=hrv ht=hat
  hu=hun hy=hye hz=her ia=ina id=ind ie=ile ig=ibo ii=iii ik=ipk io=ido is=isl it=ita iu=iku
  ja=jpn jv=jav ka=kat kg=kon ki=kik kj=kua kk=kaz kl=kal km=khm kn=kan ko=kor kr=kau
  ks=kas ku=kur,kmr,ckb kv=kom kw=cor ky=kir
  la=lat lb=ltz lg=lug li=lim ln=lin lo=lao lt=lit lu=lub lv=lav,lvs
  mg=mlg mh=mah mi=mri mk=mkd ml=mal mn=mon,khk mr=mar ms=msa,zlm mt=mlt my=mya
  na=nau nb=nob,nor nd=nde ne=nep,npi ng=ndo nl=nld nn=nno no=nor,nob nr=nbl nv=nav ny=nya
  oc=oci oj=oji om=orm or=ori os=oss pa=pan pi=pli pl=pol ps=pus pt=por qu=que
  rm=roh rn=run ro=ron ru=rus rw=kin
  sa=san sc=srd sd=snd se=sme sg=sag si=sin sk=slk sl=slv sm=smo sn=sna so=som sq=sqi
  sr=srp ss=ssw st=sot su=sun sv=swe sw=swa,swh
  ta=tam te=tel tg=tgk th=tha ti=tir tk=tuk tn=tsn to=ton tr=tur ts=tso tt=tat ty=tah
  ug=uig uk=ukr ur=urd uz=uzb,uzn ve=ven vi=vie vo=vol wa=wln wo=wol xh=xho
  yi=yid yo=yor za=zha zh=zho,cmn zu=zul
  fil=fil haw=haw ceb=ceb hmn=hmn yue=yue
`;

const ISO_639_3 = new Map(
  ISO_639_3_TABLE.trim()
    .split(/\s+/)
    .map((entry) => {
      const [code = '', codes = ''] = entry.split('=');
      return [code, codes.split(',')] as const;
    }),
);

/** The ISO 639-3 codes Apertium may know a product language by, best first. */
export function apertiumCodes(code: string): readonly string[] | undefined {
  return ISO_639_3.get(code);
}

/** One direction APY can translate, in its own codes (`eng`, `eng_US`, `cat_valencia`). */
interface EnginePair {
  readonly source: string;
  readonly target: string;
}

/**
 * An Apertium APY server. It translates one text per request, between the few pairs it
 * has installed, which it lists at `/listPairs`.
 */
export function apertiumProvider(options: ApertiumProviderOptions): TranslationProvider {
  const engine: HttpEngine = { name: 'apertium', fetch: options.fetch ?? fetch };
  const pairs = enginePairs({
    name: engine.name,
    load: async (signal) =>
      parsePairs(await getJson(engine, joinUrl(options.url, 'listPairs'), signal)),
    find: enginePair,
    guess: preferredPair,
    clock: options.clock,
  });

  async function translateOne(text: string, pair: EnginePair, signal: AbortSignal) {
    const fields = { langpair: `${pair.source}|${pair.target}`, q: text, markUnknown: 'no' };
    const answer = await postForm(engine, joinUrl(options.url, 'translate'), fields, signal);
    const data = checkStatus(answer);
    const translated = isRecord(data) ? data.translatedText : undefined;
    if (typeof translated !== 'string') throw malformed(engine.name, 'no translatedText');
    return translated;
  }

  return {
    name: 'apertium',
    maxBatch: 1,
    llm: false,
    supports: pairs.supports,
    coverage: pairs.coverage,
    async translate(texts, from, to, signal) {
      if (texts.length === 0) return [];
      const pair = await pairs.resolve(from, to, signal);
      const translations: string[] = [];
      for (const text of texts) translations.push(await translateOne(text, pair, signal));
      return translations;
    },
  };
}

/**
 * APY wraps answers as `{ responseData, responseStatus, responseDetails }` and may report a
 * failure in `responseStatus` of an HTTP 200; that status counts like an HTTP one.
 */
function checkStatus(answer: unknown): unknown {
  if (!isRecord(answer)) throw malformed('apertium', 'a body that is not an object');
  const { responseStatus, responseDetails, responseData } = answer;
  if (typeof responseStatus === 'number' && responseStatus !== 200) {
    const detail = typeof responseDetails === 'string' ? responseDetails : undefined;
    throw statusError('apertium', responseStatus, detail);
  }
  return responseData;
}

/** `GET /listPairs`: `{ responseData: [{ sourceLanguage, targetLanguage }], responseStatus }`. */
function parsePairs(answer: unknown): EnginePair[] {
  const data = checkStatus(answer);
  if (!Array.isArray(data)) throw malformed('apertium', 'a pair list that is not an array');
  return data.flatMap((entry) =>
    isRecord(entry) &&
    typeof entry.sourceLanguage === 'string' &&
    typeof entry.targetLanguage === 'string'
      ? [{ source: entry.sourceLanguage, target: entry.targetLanguage }]
      : [],
  );
}

/**
 * The listed pair for a product pair. Preference goes to the better source code, then the
 * better target code; for each code an exact match beats a variant (`eng` before `eng_US`),
 * so a variant is used only when the pair exists with nothing else.
 */
function enginePair(listed: readonly EnginePair[], from: string, to: string) {
  const sources = apertiumCodes(from);
  const targets = apertiumCodes(to);
  if (!sources || !targets) return undefined;
  let best: { pair: EnginePair; rank: readonly [number, number] } | undefined;
  for (const pair of listed) {
    const source = matchRank(pair.source, sources);
    const target = matchRank(pair.target, targets);
    if (source === undefined || target === undefined) continue;
    const rank = [source, target] as const;
    if (!best || rank[0] < best.rank[0] || (rank[0] === best.rank[0] && rank[1] < best.rank[1])) {
      best = { pair, rank };
    }
  }
  return best?.pair;
}

/** How well an APY code matches a list of candidates: lower is better, undefined is no match. */
function matchRank(listed: string, candidates: readonly string[]): number | undefined {
  const base = listed.split('_')[0];
  for (const [index, code] of candidates.entries()) {
    if (listed === code) return index * 2;
    if (base === code) return index * 2 + 1;
  }
  return undefined;
}

function preferredPair(from: string, to: string): EnginePair | undefined {
  const [source] = apertiumCodes(from) ?? [];
  const [target] = apertiumCodes(to) ?? [];
  return source && target ? { source, target } : undefined;
}
