import { HOST_REPLY, HOST_REQUEST } from '@teltlk/pi-sdk/contract';

/**
 * The sandbox's host page: it frames the app and plays the Pi Browser's part for the SDK
 * inside it (window messages of @teltlk/pi-sdk's host protocol): the consent dialog, the
 * wallet's confirmation of a payment, ads, sharing, the device permissions the app asks
 * for, Pi's own chat. A development tool, never served by the app itself.
 *
 * Its address takes `app` (the page to frame), `user` (the Pi username the consent
 * dialog offers) and `refuse`: the device permissions the person refuses, by name
 * (`camera`, `microphone`, comma-separated) or `all`; the others are granted.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function hostPage(appUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pi sandbox</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; display: flex; flex-direction: column; height: 100vh; background: #3b2a59; }
  header { color: #fff; padding: 6px 12px; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
  header strong { color: #f8b82e; }
  iframe { flex: 1; border: 0; width: 100%; max-width: 480px; margin: 0 auto; background: #fff; }
  .sheet { position: fixed; inset: 0; background: rgba(0,0,0,.45); display: flex; align-items: flex-end; justify-content: center; }
  .sheet[hidden] { display: none; }
  .card { background: #fff; border-radius: 12px 12px 0 0; padding: 16px; width: 100%; max-width: 480px; box-sizing: border-box; }
  .card h2 { margin: 0 0 8px; font-size: 17px; }
  .card .actions { display: flex; gap: 8px; margin-top: 16px; }
  .card button { flex: 1; padding: 10px; border-radius: 8px; border: 1px solid #703d92; background: #fff; color: #703d92; font-size: 15px; }
  .card button.primary { background: #703d92; color: #fff; }
  .card button:disabled { opacity: .5; }
  .card input { width: 100%; box-sizing: border-box; padding: 8px; font-size: 15px; margin-top: 8px; }
  #notice { color: #f8b82e; }
</style>
</head>
<body>
<header><strong>Pi sandbox</strong><span>Signed in to Pi as <b id="who">nobody yet</b></span><span id="notice" role="status"></span></header>
<iframe id="app" src="${escape(appUrl)}" title="App" allow="clipboard-write; geolocation; microphone; camera"></iframe>
<div class="sheet" id="sheet" hidden><div class="card" role="dialog" aria-modal="true" aria-labelledby="sheet-title"><h2 id="sheet-title"></h2><div id="sheet-body"></div><div class="actions" id="sheet-actions"></div></div></div>
<script src="/host.js"></script>
</body>
</html>`;
}

/** The host page's script: plain JavaScript, served as /host.js. */
export const HOST_SCRIPT = String.raw`(() => {
  'use strict';
  const frame = document.getElementById('app');
  const appOrigin = new URL(frame.src).origin;
  const params = new URLSearchParams(location.search);
  const state = { username: params.get('user') || localStorage.getItem('piSandboxUser') || '', token: '', granted: [] };
  const refused = new Set((params.get('refuse') || '').split(',').map((name) => name.trim()).filter(Boolean));
  // What the app asked of the Pi Browser beyond sign-in and payments, for tests to read.
  const asked = { permissions: [], conversations: [] };
  window.piSandbox = asked;
  const who = document.getElementById('who');
  const notice = document.getElementById('notice');
  const sheet = document.getElementById('sheet');
  const sheetTitle = document.getElementById('sheet-title');
  const sheetBody = document.getElementById('sheet-body');
  const sheetActions = document.getElementById('sheet-actions');
  const showWho = () => { who.textContent = state.username || 'nobody yet'; };
  showWho();

  const api = async (method, path, body) => {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || 'failed');
    return answer;
  };

  /** Shows a sheet; resolves with the id of the button pressed. */
  const ask = (title, build, buttons) => new Promise((resolve) => {
    sheetTitle.textContent = title;
    sheetBody.replaceChildren();
    build(sheetBody);
    sheetActions.replaceChildren(...buttons.map((b) => {
      const button = document.createElement('button');
      button.textContent = b.label;
      button.dataset.action = b.id;
      if (b.primary) button.className = 'primary';
      if (b.disabled) button.disabled = true;
      button.addEventListener('click', () => { sheet.hidden = true; resolve(b.id); });
      return button;
    }));
    sheet.hidden = false;
  });
  const text = (parent, value) => { const p = document.createElement('p'); p.textContent = value; parent.append(p); return p; };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  const handlers = {
    async openConsentModal({ scopes }) {
      // As in the Pi Browser: scopes already granted to this app are not asked again.
      if (state.token && scopes.every((scope) => state.granted.includes(scope))) return { granted: true };
      let input;
      const choice = await ask('Share your Pi account with this app?', (body) => {
        text(body, 'The app asks for: ' + scopes.join(', ') + '.');
        input = document.createElement('input');
        input.name = 'username';
        input.placeholder = 'Pi username';
        input.setAttribute('aria-label', 'Pi username');
        input.value = state.username;
        body.append(input);
      }, [{ id: 'cancel', label: 'Cancel' }, { id: 'allow', label: 'Allow', primary: true }]);
      if (choice !== 'allow') return { granted: false };
      const username = input.value.trim();
      const signed = await api('POST', '/sandbox/sign-in', { username, scopes });
      state.username = signed.user.username;
      state.token = signed.accessToken;
      state.granted = scopes;
      localStorage.setItem('piSandboxUser', state.username);
      showWho();
      return { granted: true };
    },
    communicationInformationRequest() {
      return { accessToken: state.token, backendURL: location.origin, frontendURL: location.origin };
    },
    preparePaymentFlow() { return { ok: true }; },
    startPaymentFlow() { return { ok: true }; },
    async waitForTransaction({ paymentId }) {
      let payment = await api('GET', '/sandbox/payments/' + encodeURIComponent(paymentId));
      for (let i = 0; i < 100 && !payment.status.developer_approved && !payment.status.cancelled; i += 1) {
        notice.textContent = 'Waiting for the app to approve the payment…';
        await sleep(300);
        payment = await api('GET', '/sandbox/payments/' + encodeURIComponent(paymentId));
      }
      notice.textContent = '';
      if (!payment.status.developer_approved) return { cancelled: true };
      const choice = await ask('Confirm payment', (body) => {
        text(body, 'Pay ' + payment.amount + ' π to this app.');
        text(body, payment.memo);
      }, [{ id: 'reject', label: 'Reject' }, { id: 'sign', label: 'Confirm', primary: true }]);
      if (choice !== 'sign') {
        await api('POST', '/sandbox/payments/' + encodeURIComponent(paymentId) + '/reject');
        return { cancelled: true };
      }
      const signed = await api('POST', '/sandbox/payments/' + encodeURIComponent(paymentId) + '/sign');
      return { cancelled: false, txid: signed.transaction.txid };
    },
    showPrePaymentError({ paymentError }) { notice.textContent = 'Payment error: ' + paymentError; return { ok: true }; },
    async decideCallbackRetrial({ paymentId, targetStatus }) {
      const payment = await api('GET', '/sandbox/payments/' + encodeURIComponent(paymentId));
      return { retry: !payment.status[targetStatus] && !payment.status.cancelled };
    },
    async openShareDialog({ title, sharingMessage }) {
      await ask(title, (body) => text(body, sharingMessage), [{ id: 'close', label: 'Close', primary: true }]);
      return { ok: true };
    },
    openUrlInSystemBrowser({ url }) { window.open(url, '_blank', 'noopener'); return { ok: true }; },
    checkNativeFeatures() { return { features: ['inline_media', 'request_permission', 'ad_network'] }; },
    requestNativePermission({ permission }) {
      // The Pi Browser shows the system's prompt; here the address says the answer.
      const granted = !refused.has(permission) && !refused.has('all');
      asked.permissions.push({ permission, granted });
      notice.textContent = 'The app ' + (granted ? 'may use' : 'was refused') + ' the ' + permission;
      return { granted };
    },
    openConversation({ conversationId }) {
      asked.conversations.push(conversationId);
      notice.textContent = 'Pi would open its chat: conversation ' + conversationId;
      return { ok: true };
    },
    isAdReady() { return { ready: true }; },
    requestAd() { return { result: 'AD_LOADED' }; },
    async showAd({ format }) {
      const choice = await ask('Advertisement (' + format + ')', (body) => text(body, 'A sandbox advertisement.'),
        [{ id: 'close', label: 'Close' }, { id: 'watch', label: 'Watch to the end', primary: true }]);
      // The emulator records the ad, so the app's server can ask Pi whether it was watched.
      return api('POST', '/sandbox/ads', { format, watched: choice === 'watch' });
    },
    async copyText({ text: value }) { await navigator.clipboard.writeText(value); return { ok: true }; },
    networkError({ kind }) { notice.textContent = kind === 'auth' ? 'Pi refused the access token' : 'Pi could not be reached'; return { ok: true }; },
  };

  window.addEventListener('message', async (event) => {
    if (event.source !== frame.contentWindow || event.origin !== appOrigin) return;
    const data = event.data;
    if (!data || data.type !== '${HOST_REQUEST}' || typeof data.id !== 'string') return;
    const reply = (fields) => frame.contentWindow.postMessage(Object.assign({ type: '${HOST_REPLY}', id: data.id }, fields), appOrigin);
    const handler = handlers[data.method];
    if (!handler) { reply({ ok: false, error: 'unknown_method' }); return; }
    try {
      reply({ ok: true, result: await handler(data.params || {}) });
    } catch (error) {
      reply({ ok: false, error: error && error.message ? error.message : 'failed' });
    }
  });
})();
`;
