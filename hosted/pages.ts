import { colour, html, raw, type Raw } from './html.js';
import { CAPTURE_ISSUES } from '../domain/capture-advice.js';
import { STRINGS, type Locale } from './i18n.js';

export interface PageBranding {
  name?: unknown;
  logo_url?: unknown;
  primary_colour?: unknown;
  background_colour?: unknown;
  text_colour?: unknown;
}

function layout(locale: Locale, b: PageBranding, title: string, body: Raw, script?: string, nonce?: string): string {
  const primary = colour(b.primary_colour, '#1f5eff');
  const bg = colour(b.background_colour, '#ffffff');
  const text = colour(b.text_colour, '#14161a');
  const logo = typeof b.logo_url === 'string' && /^(https:\/\/|data:image\/(png|jpeg|webp);base64,)/.test(b.logo_url) ? b.logo_url : null;
  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="/hosted/capture.css">
<style${nonce ? html` nonce="${nonce}"` : ''}>:root{--primary:${raw(primary)};--bg:${raw(bg)};--text:${raw(text)}}</style>
</head>
<body>
<main class="card">
${logo ? html`<img class="logo" src="${logo}" alt="${String(b.name ?? '')}">` : b.name ? html`<p class="brand">${String(b.name)}</p>` : ''}
${body}
</main>
${script ? html`<script type="module" src="${script}"></script>` : ''}
</body>
</html>`.html;
}

/** `nonce`: the response's CSP style nonce (api/plugins/security-headers.ts), for the inline branding colours. */
export function errorPage(locale: Locale, b: PageBranding, kind: 'invalid' | 'expired' | 'erased', nonce?: string): string {
  const s = STRINGS[locale];
  const title = kind === 'invalid' ? s.invalidTitle : kind === 'expired' ? s.expiredTitle : s.erasedTitle;
  const body = kind === 'erased' ? s.invalidBody : kind === 'expired' ? s.expiredBody : s.invalidBody;
  return layout(locale, b, title, html`<h1>${title}</h1><p>${body}</p>`, undefined, nonce);
}

/**
 * The plain capture page: document choice, file inputs, submit. All state comes from the session API.
 * `returnUrl` (the Case's `return_url`): after submit the page offers a "Continue" link there and
 * then goes there by itself, as the commercial hosted flows do; a page opened after submit offers the link.
 */
export function capturePage(locale: Locale, b: PageBranding, accepted: { country: string; types: string[] }[], status: string, nonce?: string, returnUrl: string | null = null): string {
  const s = STRINGS[locale];
  // Validated http(s) at creation; checked again here because it becomes a link.
  if (returnUrl && !/^https?:\/\//i.test(returnUrl)) returnUrl = null;
  const continueLink = returnUrl ? html`<a class="continue" href="${returnUrl}">${s.continueLink}</a>` : '';
  if (status !== 'collecting') return layout(locale, b, s.title, html`<h1>${s.title}</h1><p class="done">${returnUrl ? s.alreadyReturn : s.already}</p>${continueLink}`, undefined, nonce);
  const options = accepted.flatMap((d) => d.types.map((t) => html`<option value="${d.country}|${t}">${d.country} — ${(s as Record<string, string>)[t] ?? t}</option>`));
  const clientStrings = {
    uploading: s.uploading, submitted: returnUrl ? s.submittedReturn : s.submitted, continueLink: s.continueLink, handoffDone: s.handoffDone, needFront: s.needFront, failed: s.failed, needLive: s.needLive,
    liveNeutral: s.liveNeutral, turn_left: s.turn_left, turn_right: s.turn_right, nod: s.nod, blink: s.blink,
    guideDark: s.guideDark, guideBacklit: s.guideBacklit, guideFar: s.guideFar, guideClose: s.guideClose, guideCentre: s.guideCentre, guideOk: s.guideOk, guideSeveral: s.guideSeveral,
    pending_turn_left: s.pending_turn_left, pending_turn_right: s.pending_turn_right, pending_nod: s.pending_nod,
    liveDone: s.liveDone, liveRecorded: s.liveRecorded, liveMissed: s.liveMissed, liveSeveral: s.liveSeveral, liveNoFace: s.liveNoFace, liveRetake: s.liveRetake, missed_turn_left: s.missed_turn_left, missed_turn_right: s.missed_turn_right, missed_nod: s.missed_nod, missedAnd: s.missedAnd, liveRetry: s.liveRetry, liveUploading: s.liveUploading, noCamera: s.noCamera, cameraDenied: s.cameraDenied,
    adviceChecking: s.adviceChecking, adviceOk: s.adviceOk, adviceIntro: s.adviceIntro,
    // One sentence per advice code the upload can answer with (domain CAPTURE_ISSUES).
    ...Object.fromEntries(CAPTURE_ISSUES.map((code) => [code, s[code]])),
  };
  // Under each photo: what the quick check says (a polite live region), and a retake button. Both
  // stay hidden without JavaScript, where the form works as before.
  const photo = (name: 'document_front' | 'document_back', label: string, required: boolean) => html`<div class="photo">
  <label class="file" for="${name}">${label}</label>
  <input type="file" id="${name}" name="${name}" accept="image/jpeg,image/png,image/webp" capture="environment" aria-describedby="${name}-advice"${required ? raw(' required') : ''}>
  <div class="advice" id="${name}-advice" role="status" aria-live="polite"></div>
  <button type="button" class="retake" data-for="${name}" hidden>${s.retake}</button>
  <p class="advice-keep" id="${name}-keep" hidden>${s.adviceKeep}</p>
</div>`;
  const body = html`<h1>${s.title}</h1>
<p>${s.intro}</p>
<form id="capture" novalidate data-strings="${JSON.stringify(clientStrings)}"${returnUrl ? html` data-return-url="${returnUrl}"` : ''}>
  <label>${s.document}<select name="document" required>${options}</select></label>
  ${photo('document_front', s.front, true)}
  ${photo('document_back', s.back, false)}
  <section id="liveness" aria-labelledby="live-title">
    <h2 id="live-title">${s.liveTitle}</h2>
    <p>${s.liveIntro}</p>
    <div id="handoff" hidden><p id="handoff-text"></p><img id="handoff-qr" alt="QR code" width="200" height="200"><p><a id="handoff-link" href="#">${s.openOnPhone}</a></p></div>
    <video id="preview" playsinline muted autoplay hidden></video>
    <p id="guidance" role="status" aria-live="polite" hidden></p>
    <button type="button" id="live-start">${s.liveStart}</button>
    <p id="live-status" role="status" aria-live="polite"></p>
  </section>
  <button type="submit" id="submit">${s.submit}</button>
  <p id="status" role="status" aria-live="polite"></p>
</form>
<div id="flash" hidden><p id="step-hint" role="status" aria-live="polite" hidden></p><p id="instruction" aria-live="assertive"></p></div>`;
  return layout(locale, b, s.title, body, '/hosted/capture.js', nonce);
}
