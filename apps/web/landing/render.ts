import {
  CONTACT_EMAIL,
  COOPERATION_KINDS,
  HTML_LANG,
  LANDING_ORIGIN_PLACEHOLDER,
  LANDING_PATHS,
  UI_LANGUAGES,
  escapeHtml,
} from '@teltlk/protocol';
import { en_US as legalEn } from '../src/features/legal/documents-en_US';
import { zh_CN as legalZhCn } from '../src/features/legal/documents-zh_CN';
import { zh_TW as legalZhTw } from '../src/features/legal/documents-zh_TW';
import type { LegalTexts } from '../src/features/legal/legal-document';
import { LANDING, type LandingLanguage, type LandingTexts } from './content';

/** A prerendered page: where it is served, and its HTML. */
export interface LandingPage {
  /** Path under the site, ending in `/` (written as `…/index.html`). */
  path: string;
  html: string;
}

const LEGAL: Record<LandingLanguage, LegalTexts> = {
  en_US: legalEn,
  zh_CN: legalZhCn,
  zh_TW: legalZhTw,
};

/** The app, opened on its sign-in page. */
const APP_LOGIN = '/#/pages/login/login';

/** A page of one language: head with its alternates in the other two, header, footer. */
function layout(
  language: LandingLanguage,
  page: { sub: string; title: string; description: string; main: string },
  origin: string,
): string {
  const t = LANDING[language];
  const base = LANDING_PATHS[language];
  const href = (lang: LandingLanguage) => `${LANDING_PATHS[lang]}${page.sub}`;
  const alternates = UI_LANGUAGES.map(
    (lang) => `<link rel="alternate" hreflang="${HTML_LANG[lang]}" href="${origin}${href(lang)}">`,
  ).join('');
  const switcher = UI_LANGUAGES.map((lang) =>
    lang === language
      ? `<li><span aria-current="true">${LANDING[lang].name}</span></li>`
      : `<li><a href="${href(lang)}" hreflang="${HTML_LANG[lang]}" lang="${HTML_LANG[lang]}">${LANDING[lang].name}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="${HTML_LANG[language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<meta name="description" content="${escapeHtml(page.description)}">
<meta name="theme-color" content="#F39800">
<link rel="canonical" href="${origin}${href(language)}">
${alternates}<link rel="alternate" hreflang="x-default" href="${origin}${href('zh_CN')}">
<meta property="og:title" content="${escapeHtml(page.title)}">
<meta property="og:description" content="${escapeHtml(page.description)}">
<meta property="og:type" content="website">
<link rel="icon" type="image/svg+xml" href="/logo.svg">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<link rel="stylesheet" href="/landing.css">
</head>
<body>
<header class="l-header">
<a class="l-brand" href="${base}"><img src="/logo.svg" width="32" height="32" alt="">Teltlk</a>
<nav aria-label="${escapeHtml(t.nav.home)}"><ul class="l-nav">
<li><a href="${base}enlist/">${t.nav.enlist}</a></li>
<li><a href="${base}cooperate/">${t.nav.cooperate}</a></li>
<li><a class="l-button" href="${APP_LOGIN}">${t.nav.login}</a></li>
</ul></nav>
</header>
<main>${page.main}</main>
<footer class="l-footer">
<ul class="l-switch">${switcher}</ul>
<ul class="l-links">
<li><a href="${base}privacy/">${t.nav.privacy}</a></li>
<li><a href="/#/pages/login/Service">${t.footer.terms}</a></li>
<li><a href="mailto:${CONTACT_EMAIL}">${t.footer.contact}: ${CONTACT_EMAIL}</a></li>
</ul>
<p>© ${t.footer.rights}</p>
</footer>
</body>
</html>
`;
}

function list(items: readonly string[] | undefined): string {
  return items ? `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` : '';
}

function home(t: LandingTexts): string {
  const stats = t.stats
    .map((stat) => `<li><strong>${stat.value}</strong> <span>${escapeHtml(stat.label)}</span></li>`)
    .join('');
  const sections = t.sections
    .map(
      (section) =>
        `<section id="${section.id}" class="l-section"><h2>${escapeHtml(section.heading)}</h2><p>${escapeHtml(section.text)}</p>${list(section.items)}</section>`,
    )
    .join('');
  return `<section class="l-hero">
<h1>${escapeHtml(t.hero.heading)}</h1>
<p>${escapeHtml(t.hero.text)}</p>
<p class="l-actions"><a class="l-button" href="${APP_LOGIN}">${t.hero.open}</a> <a class="l-button l-secondary" href="#download">${t.hero.download}</a></p>
<ul class="l-stats">${stats}</ul>
</section>
${sections}
<section id="download" class="l-section">
<h2>${escapeHtml(t.download.heading)}</h2>
<p>${escapeHtml(t.download.text)}</p>
<p class="l-actions"><a class="l-button" href="/home/download/android">${t.download.android}</a> <a class="l-button" href="/home/download/ios">${t.download.ios}</a> <a class="l-button l-secondary" href="/">${t.download.web}</a></p>
</section>`;
}

function enlist(t: LandingTexts): string {
  const roles = t.enlist.roles
    .map((role) => `<li><h3>${escapeHtml(role.name)}</h3><p>${escapeHtml(role.text)}</p></li>`)
    .join('');
  return `<section class="l-section">
<h1>${escapeHtml(t.enlist.title)}</h1>
<p>${escapeHtml(t.enlist.intro)}</p>
<ul class="l-cards">${roles}</ul>
<p>${escapeHtml(t.enlist.apply)} <a href="mailto:${CONTACT_EMAIL}">${CONTACT_EMAIL}</a></p>
</section>`;
}

function cooperate(language: LandingLanguage, t: LandingTexts): string {
  const f = t.cooperate.form;
  const kinds = COOPERATION_KINDS.map(
    (kind, index) =>
      `<option value="${kind}">${escapeHtml(t.cooperate.kinds[index] ?? kind)}</option>`,
  ).join('');
  return `<section class="l-section">
<h1>${escapeHtml(t.cooperate.title)}</h1>
<p>${escapeHtml(t.cooperate.intro)}</p>
<form class="l-form" method="post" action="/home/cooperate">
<input type="hidden" name="lang" value="${language}">
<label for="c-name">${f.name}</label><input id="c-name" name="name" required maxlength="100" autocomplete="name">
<label for="c-org">${f.organisation}</label><input id="c-org" name="organisation" maxlength="200" autocomplete="organization">
<label for="c-email">${f.email}</label><input id="c-email" name="email" type="email" required maxlength="254" autocomplete="email">
<label for="c-kind">${f.kind}</label><select id="c-kind" name="kind">${kinds}</select>
<label for="c-message">${f.message}</label><textarea id="c-message" name="message" required maxlength="4000" rows="6"></textarea>
<p class="l-note">${escapeHtml(f.note)}</p>
<button class="l-button" type="submit">${f.send}</button>
</form>
</section>`;
}

function thanks(language: LandingLanguage, t: LandingTexts): string {
  return `<section class="l-section">
<h1>${escapeHtml(t.cooperate.thanks.title)}</h1>
<p role="status">${escapeHtml(t.cooperate.thanks.text)}</p>
<p><a class="l-button" href="${LANDING_PATHS[language]}">${t.cooperate.thanks.back}</a></p>
</section>`;
}

function privacy(language: LandingLanguage, t: LandingTexts): string {
  const sections = LEGAL[language].privacy
    .map(
      (section) =>
        `<h2>${escapeHtml(section.heading)}</h2>${section.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('')}${list(section.items)}`,
    )
    .join('');
  return `<article class="l-section l-legal"><h1>${escapeHtml(t.privacyTitle)}</h1>${sections}</article>`;
}

/**
 * Every page of the landing site in every language: home (pioneers, download, products,
 * web3 apps, NFT market, games), recruitment, partnership (a plain form the server takes),
 * its thank-you page, and the privacy policy. No script on any of them.
 */
export function landingPages(origin = LANDING_ORIGIN_PLACEHOLDER): LandingPage[] {
  return UI_LANGUAGES.flatMap((language) => {
    const t = LANDING[language];
    const base = LANDING_PATHS[language];
    const page = (sub: string, title: string, main: string, description = t.description) => ({
      path: `${base}${sub}`,
      html: layout(language, { sub, title, description, main }, origin),
    });
    return [
      page('', t.title, home(t)),
      page('enlist/', `${t.enlist.title} · Teltlk`, enlist(t), t.enlist.intro),
      page(
        'cooperate/',
        `${t.cooperate.title} · Teltlk`,
        cooperate(language, t),
        t.cooperate.intro,
      ),
      page('cooperate/thanks/', `${t.cooperate.thanks.title} · Teltlk`, thanks(language, t)),
      page('privacy/', `${t.privacyTitle} · Teltlk`, privacy(language, t)),
    ];
  });
}
