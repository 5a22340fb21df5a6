import { html, type Raw } from '../hosted/html.js';
import { REVIEW_STATES } from '../domain/case-result.js';
import { ASSESSMENTS } from '../domain/policy.js';
import type { TErasureReceipt } from '../domain/api-schemas.js';
import type { CaseDetail, CaseListItem, CheckView, QueueView, UploadView } from '../domain/case-views.js';
export type { CaseDetail, CaseListItem, QueueView };
import type { TLivenessChallenge } from '../domain/liveness.js';
import { CASE_STRINGS, type CaseStrings } from './cases-i18n.js';
import { allowed, layout, type PageContext } from './views.js';

/**
 * Verifications and Case Management pages (issue 17). Same rules as dashboard/views.ts: every
 * value is escaped by `html`; forms work without JavaScript (cases.js adds keyboard shortcuts).
 * Evidence, images and notes are only rendered when the service returned them (`cases:read_pii`).
 */
const STATUSES = ['collecting', 'pending', 'processing', 'completed', 'failed', 'erased'] as const;
const s = (c: PageContext): CaseStrings => CASE_STRINGS[c.locale];
const csrfField = (c: PageContext) => html`<input type="hidden" name="_csrf" value="${c.csrf ?? ''}">`;
const fmt = (iso: string | null | undefined, c: PageContext) => (iso ? new Date(iso).toLocaleString(c.locale === 'en' ? 'en-GB' : c.locale === 'es' ? 'es-MX' : 'pt-PT', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }) + ' UTC' : '—');
const label = (t: CaseStrings, prefix: 'st' | 'as' | 'rv' | 'ck', v: string | null | undefined): string => (v ? ((t as Record<string, string>)[`${prefix}_${v}`] ?? v) : t.none);
const num = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '—' : x.toFixed(digits));
const notice = (msg: string | undefined, kind: 'error' | 'ok' = 'error') => (msg ? html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${msg}</p>` : '');
const script = html`<script type="module" src="/dashboard/assets/cases.js"></script>`;
// The Case pages' own stylesheet (body-ok link), so dashboard/dashboard.css stays part 1's.
const style = html`<link rel="stylesheet" href="/dashboard/assets/cases.css">`;

/** Shown wherever an assessment is (spec: the assessment is advisory, not a determination of identity). */
export const advisoryNotice = (c: PageContext): Raw => html`<p class="notice advisory" role="note"><strong>${s(c).advisory}</strong></p>`;

const assessmentBadge = (c: PageContext, a: string | null) => (a ? html`<span class="badge as-${a}">${label(s(c), 'as', a)}</span>` : html`${s(c).none}`);

export interface ListFilters { status?: string; assessment?: string; flow_id?: string; flow_version_ref?: string; created_after?: string; created_before?: string; reference?: string; search?: string; cursor?: string }

export function verificationsPage(c: PageContext, items: CaseListItem[], nextCursor: string | null, f: ListFilters, flows: { id: string; slug: string; currentVersion: number }[], o: { error?: string } = {}): string {
  const t = s(c);
  const p = c.project!;
  const base = `/dashboard/projects/${p.id}/verifications`;
  const opt = (value: string, text: string, current: string | undefined) => html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${text}</option>`;
  const keep = Object.entries(f).filter(([k, v]) => k !== 'cursor' && v);
  const nextHref = nextCursor ? `${base}?${new URLSearchParams([...keep, ['cursor', nextCursor]] as [string, string][]).toString()}` : null;
  return layout(c, t.verifications, html`${style}<h1>${t.verifications}</h1>
${advisoryNotice(c)}${notice(o.error)}
<form method="get" action="${base}" class="filters" role="search" aria-label="${t.filters}">
  <div class="field wide"><label for="f-search">${t.search}</label><input id="f-search" name="search" maxlength="200" value="${f.search ?? ''}"></div>
  <div class="field"><label for="f-status">${t.status}</label><select id="f-status" name="status">${opt('', t.any, f.status)}${STATUSES.map((x) => opt(x, label(t, 'st', x), f.status))}</select></div>
  <div class="field"><label for="f-assessment">${t.assessment}</label><select id="f-assessment" name="assessment">${opt('', t.any, f.assessment)}${ASSESSMENTS.map((x) => opt(x, label(t, 'as', x), f.assessment))}</select></div>
  <div class="field"><label for="f-flow">${t.flow}</label><select id="f-flow" name="flow_id">${opt('', t.any, f.flow_id)}${flows.map((x) => opt(x.id, x.slug, f.flow_id))}</select></div>
  <div class="field"><label for="f-version">${t.flowVersion}</label><input id="f-version" name="flow_version_ref" type="number" min="1" step="1" inputmode="numeric" value="${f.flow_version_ref ?? ''}"></div>
  <div class="field"><label for="f-from">${t.createdFrom}</label><input id="f-from" name="created_after" type="date" value="${(f.created_after ?? '').slice(0, 10)}"></div>
  <div class="field"><label for="f-to">${t.createdTo}</label><input id="f-to" name="created_before" type="date" value="${(f.created_before ?? '').slice(0, 10)}"></div>
  <div class="field"><label for="f-ref">${t.reference}</label><input id="f-ref" name="reference" maxlength="200" value="${f.reference ?? ''}"></div>
  <div class="actions"><button type="submit">${t.apply}</button> <a href="${base}">${t.clear}</a></div>
</form>
${items.length ? html`<table class="cases"><caption class="sr-only">${t.verifications}</caption><thead><tr>
<th scope="col">${t.id}</th><th scope="col">${t.status}</th><th scope="col">${t.assessment}</th><th scope="col">${t.confidence}</th><th scope="col">${t.flow}</th><th scope="col">${t.reference}</th><th scope="col">${t.review}</th><th scope="col">${t.created}</th></tr></thead><tbody>
${items.map((v) => html`<tr><td><a href="${base}/${v.id}"><code>${v.id}</code></a></td><td>${label(t, 'st', v.status)}</td><td>${assessmentBadge(c, v.assessment)}</td><td>${num(v.confidence)}</td>
<td>${v.flow ? html`${v.flow.slug} v${v.flow.version ?? '?'}` : t.none}</td><td>${v.reference ?? t.none}</td><td>${v.review ? label(t, 'rv', v.review.state) : t.none}</td><td>${fmt(v.created_at, c)}</td></tr>`)}
</tbody></table>` : html`<p>${t.noCases}</p>`}
<nav class="pager" aria-label="${t.verifications}">${f.cursor ? html`<a href="${base}?${new URLSearchParams(keep as [string, string][]).toString()}">${t.firstPage}</a>` : ''} ${nextHref ? html`<a href="${nextHref}" rel="next">${t.nextPage}</a>` : ''}</nav>`, { nav: 'verifications' });
}

/** Any evidence value as readable HTML: arrays of objects become tables, objects definition lists. */
function evidenceValue(v: unknown, depth = 0): Raw {
  if (v === null || v === undefined) return html`—`;
  if (typeof v !== 'object') return html`${String(v)}`;
  if (depth > 3) return html`<code>${JSON.stringify(v)}</code>`;
  if (Array.isArray(v)) {
    if (!v.length) return html`—`;
    if (v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
      const cols = [...new Set(v.flatMap((x) => Object.keys(x as object)))];
      return html`<table class="evidence"><thead><tr>${cols.map((k) => html`<th scope="col">${k}</th>`)}</tr></thead><tbody>${v.map((row) => html`<tr>${cols.map((k) => html`<td>${evidenceValue((row as Record<string, unknown>)[k], depth + 1)}</td>`)}</tr>`)}</tbody></table>`;
    }
    return html`${v.map((x, i) => html`${i ? ', ' : ''}${evidenceValue(x, depth + 1)}`)}`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length) return html`—`;
  return html`<dl class="evidence">${entries.map(([k, x]) => html`<dt>${k}</dt><dd>${evidenceValue(x, depth + 1)}</dd>`)}</dl>`;
}

const img = (c: PageContext, caseId: string, u: UploadView, alt: string, cls = 'capture') =>
  html`<img class="${cls}" src="/dashboard/projects/${c.project!.id}/verifications/${caseId}/captures/${u.id}" alt="${alt}" width="${u.width}" height="${u.height}">`;

function checkPanel(c: PageContext, ch: CheckView, d: CaseDetail): Raw {
  const t = s(c);
  const ev = ch.evidence ?? {};
  const special: Raw[] = [];
  if (d.pii && ch.check === 'document_ocr') {
    const docs = d.uploads.filter((u) => u.kind === 'document_front' || u.kind === 'document_back' || u.kind === 'document_normalized');
    if (docs.length) special.push(html`<h4>${t.documentImages}</h4><div class="captures">${docs.map((u) => html`<figure>${img(c, d.verification.id, u, `${t.documentImages}: ${u.kind}`)}<figcaption>${u.kind}</figcaption></figure>`)}</div>`);
    const mrz = Object.entries(ev).filter(([k]) => /mrz/i.test(k));
    if (mrz.length) special.push(html`<h4>${t.mrz}</h4>${mrz.map(([k, x]) => html`<div><span class="k">${k}</span> ${typeof x === 'string' ? html`<pre class="mrz">${x}</pre>` : evidenceValue(x)}</div>`)}`);
    if (ev.extracted && typeof ev.extracted === 'object') special.push(html`<h4>${t.fieldsRead}</h4>${evidenceValue(ev.extracted)}`);
  }
  if (d.pii && ch.check === 'face_match') {
    const doc = d.uploads.find((u) => u.kind === 'document_normalized') ?? d.uploads.find((u) => u.kind === 'document_front');
    const selfie = d.uploads.find((u) => u.kind === 'liveness_best') ?? d.uploads.find((u) => u.kind === 'selfie');
    special.push(html`<h4>${t.portraitSelfie}</h4><div class="captures pair">${doc ? html`<figure>${img(c, d.verification.id, doc, t.documentImages)}<figcaption>${doc.kind}</figcaption></figure>` : ''}
<p class="similarity"><span class="k">${t.similarity}</span> <strong>${num(ch.score, 3)}</strong></p>
${selfie ? html`<figure>${img(c, d.verification.id, selfie, t.selfie)}<figcaption>${selfie.kind}</figcaption></figure>` : ''}</div>`);
  }
  if (ch.check === 'liveness') {
    special.push(livenessTimeline(c, d));
    // The engine's verdict per step and the movements it detected, with their magnitude (face engine v2 evidence).
    const verdict = (ev.challenge ?? null) as { steps?: unknown; events?: unknown } | null;
    if (verdict && Array.isArray(verdict.steps)) special.push(html`<h4>${t.stepsPerformed}</h4>${evidenceValue(verdict.steps)}`);
    if (verdict && Array.isArray(verdict.events) && verdict.events.length) special.push(html`<h4>${t.movements}</h4>${evidenceValue(verdict.events)}`);
    const attack = (ev.attack ?? null) as { signals?: unknown } | null;
    // `findings`: what made a signal with several tests dissent (v4 capture_source: label class, repeated frames).
    if (attack && Array.isArray(attack.signals)) special.push(html`<h4>${t.attackSignals}</h4>${evidenceValue((attack.signals as Record<string, unknown>[]).map((x) => ({ signal: x.name, dissent: x.dissent, value: x.value, threshold: x.threshold, findings: (x.detail as { findings?: unknown } | undefined)?.findings ?? null })))}`);
  }
  // Per image: the signal summary here; the detectors' full measurements stay in the Evidence details.
  if (ch.check === 'authenticity' && Array.isArray(ev.images)) {
    const rows = (ev.images as Record<string, unknown>[]).map((x) => ({ image: x.kind, status: x.status, reasons: x.reasons, score: x.score }));
    special.push(html`<h4>${t.authenticity}</h4>${evidenceValue(rows)}`);
  }
  // `a` is what the document says, `b` the integrator's reference record (activities/checks/record-match.ts).
  if (ch.check === 'record_match' && Array.isArray(ev.comparisons)) {
    const rows = ev.comparisons as Record<string, unknown>[];
    special.push(html`<h4>${t.recordMatch}</h4><table class="evidence"><thead><tr><th scope="col">${t.field}</th><th scope="col">${t.found}</th><th scope="col">${t.expected}</th><th scope="col">${t.outcome}</th><th scope="col">${t.score}</th></tr></thead><tbody>
${rows.map((r) => html`<tr${r.verdict === 'mismatch' || r.verdict === 'partial' ? html` class="diverges"` : ''}><td>${String(r.field ?? '')}${r.claimed_key ? html` (${String(r.claimed_key)})` : ''}</td><td>${evidenceValue(r.a)}</td><td>${evidenceValue(r.b)}</td><td>${String(r.verdict ?? '')}${r.operator ? html` · ${String(r.operator)}` : ''}</td><td>${evidenceValue(r.score)}</td></tr>`)}</tbody></table>`);
  }
  return html`<section class="panel checkpanel" aria-labelledby="ck-${ch.check}">
<h3 id="ck-${ch.check}">${ch.check} <span class="badge ck-${ch.status}">${label(t, 'ck', ch.status)}</span></h3>
<dl class="facts"><dt>${t.score}</dt><dd>${num(ch.score, 3)}</dd><dt>${t.summaryReasons}</dt><dd>${ch.reasons.length ? ch.reasons.join(', ') : t.none}</dd>
<dt>${t.component}</dt><dd><code>${ch.component}</code></dd><dt>${t.duration}</dt><dd>${ch.duration_ms} ms</dd>
<dt>${t.models}</dt><dd>${ch.models.length ? ch.models.map((m, i) => html`${i ? ', ' : ''}<code title="${m.sha256}">${m.name}</code>`) : t.none}</dd></dl>
${special}
${d.pii ? html`<details><summary>${t.evidence}</summary>${Object.keys(ev).length ? evidenceValue(ev) : html`<p>${t.noEvidence}</p>`}</details>` : ''}
</section>`;
}

function livenessTimeline(c: PageContext, d: CaseDetail): Raw {
  const t = s(c);
  const ch: TLivenessChallenge | null = d.verification.livenessChallenge ?? null;
  const frames = d.uploads.filter((u) => u.kind === 'liveness_frame').sort((a, b) => Number(a.meta?.timestamp_ms ?? 0) - Number(b.meta?.timestamp_ms ?? 0));
  const shown = frames.filter((_, i) => i % Math.max(1, Math.ceil(frames.length / 16)) === 0);
  return html`<h4>${t.liveness}</h4>
${ch ? html`<ol class="timeline">${(ch.slots ?? ch.steps.map((step) => ({ step, start_ms: null, end_ms: null }))).map((sl) => html`<li><span class="k">${t.step}</span> <strong>${sl.step}</strong>${sl.start_ms !== null ? html` · ${t.time} ${sl.start_ms}–${sl.end_ms} ms` : ''}</li>`)}</ol>` : ''}
${shown.length ? html`<div class="frames" role="list" aria-label="${t.frame}">${shown.map((u) => html`<figure role="listitem">${img(c, d.verification.id, u, `${t.frame} ${String(u.meta?.timestamp_ms ?? '')} ms`, 'frame')}<figcaption>${String(u.meta?.timestamp_ms ?? '?')} ms${u.meta?.colour ? html` · ${t.colour} ${String(u.meta.colour)}` : ''}</figcaption></figure>`)}</div>` : ''}`;
}

export interface Neighbours { prev: string | null; next: string | null; position: number | null; total: number }

export function verificationPage(c: PageContext, d: CaseDetail, o: { temporalUrl: string; neighbours?: Neighbours; receipt?: TErasureReceipt; saved?: boolean; error?: string } = { temporalUrl: '' }): string {
  const t = s(c);
  const v = d.verification;
  const p = c.project!;
  const base = `/dashboard/projects/${p.id}/verifications`;
  const n = o.neighbours?.position ? o.neighbours : undefined;
  const receipt = o.receipt ?? (v.status === 'erased' ? v.erasureReceipt ?? undefined : undefined);
  return layout(c, `${t.verifications} ${v.id}`, html`${style}<h1><code>${v.id}</code></h1>
${advisoryNotice(c)}${notice(o.error)}${o.saved ? notice(t.saved, 'ok') : ''}
${n ? html`<nav class="pager review-nav" aria-label="${t.reviewQueue}">${n.prev ? html`<a href="${base}/${n.prev}" rel="prev" data-key="k">← ${t.prev}</a>` : ''}
${n.position ? html`<span>${t.position.replace('{n}', String(n.position)).replace('{total}', String(n.total))}</span>` : ''}
${n.next ? html`<a href="${base}/${n.next}" rel="next" data-key="j">${t.next} →</a>` : ''}</nav><p class="hint">${t.keyboard}</p>` : ''}
${receipt ? html`<section class="panel once" aria-labelledby="receipt-h" role="status"><h2 id="receipt-h">${t.eraseReceipt}</h2>
<dl class="facts"><dt>${t.id}</dt><dd><code>${receipt.id}</code></dd><dt>${t.status}</dt><dd>${receipt.status}</dd><dt>${t.erasedAt}</dt><dd>${fmt(receipt.erased_at, c)}</dd>
<dt>${t.erasedFields}</dt><dd>${receipt.erased.fields.join(', ') || t.none}</dd><dt>${t.erasedFiles}</dt><dd>${receipt.erased.files}</dd></dl></section>` : ''}
<section class="panel" aria-labelledby="sum-h"><h2 id="sum-h">${t.assessment}</h2>
<dl class="facts"><dt>${t.status}</dt><dd>${label(t, 'st', v.status)}</dd><dt>${t.assessment}</dt><dd>${assessmentBadge(c, v.assessment ?? null)}</dd>
<dt>${t.confidence}</dt><dd>${num(v.confidence === null || v.confidence === undefined ? null : Number(v.confidence))}</dd>
<dt>${t.summaryReasons}</dt><dd>${v.summaryReasons?.length ? v.summaryReasons.join(', ') : t.none}</dd>
<dt>${t.review}</dt><dd>${v.review ? html`${label(t, 'rv', v.review.state)} (${fmt(v.review.at, c)})` : t.none}</dd>
${d.pii && v.reference ? html`<dt>${t.reference}</dt><dd>${v.reference}</dd>` : ''}
<dt>${t.created}</dt><dd>${fmt(v.createdAt.toISOString(), c)}</dd></dl></section>
<section class="panel" aria-labelledby="stamps-h"><h2 id="stamps-h">${t.stamps}</h2>
<dl class="facts"><dt>${t.engineProfile}</dt><dd><code>${v.engineProfile}</code></dd><dt>${t.policyRevision}</dt><dd><code>${v.policyRevision}</code></dd>
<dt>${t.flow}</dt><dd>${d.flowSlug ? html`${d.flowSlug} v${v.flowVersionRef ?? '?'}` : t.none}</dd></dl>
<p><a href="${o.temporalUrl}" rel="noopener" target="_blank">${t.temporalRun}</a></p></section>
${allowed(c, 'cases:review') && (v.status === 'completed' || v.status === 'failed') ? dispositionForm(c, v.id, base) : ''}
<section aria-labelledby="checks-h"><h2 id="checks-h">${t.checks}</h2>${d.pii ? '' : html`<p class="hint">${t.piiHidden}</p>`}
${d.checks.length ? d.checks.map((ch) => checkPanel(c, ch, d)) : html`<p>${t.noEvidence}</p>`}</section>
<section class="panel" aria-labelledby="disp-h"><h2 id="disp-h">${t.dispositions}</h2>
${d.dispositions.length ? html`<table><thead><tr><th scope="col">${t.created}</th><th scope="col">${t.state}</th><th scope="col">${t.recordedBy}</th><th scope="col">${t.note}</th></tr></thead><tbody>
${d.dispositions.map((x) => html`<tr><td>${fmt(x.recorded_at, c)}</td><td>${label(t, 'rv', x.state)}</td><td>${x.recorded_by.email ?? x.recorded_by.user_id}</td><td>${x.note_erased ? html`<em>${t.noteErased}</em>` : (x.note ?? t.none)}</td></tr>`)}</tbody></table>` : html`<p>${t.noDispositions}</p>`}</section>
<section class="panel" aria-labelledby="dl-h"><h2 id="dl-h">${t.deliveries}</h2>
${d.deliveries.length ? html`<table><thead><tr><th scope="col">${t.created}</th><th scope="col">${t.event}</th><th scope="col">${t.attempt}</th><th scope="col">${t.answer}</th><th scope="col">${t.duration}</th></tr></thead><tbody>
${d.deliveries.map((x) => html`<tr><td>${fmt(x.at, c)}</td><td><code>${x.event}</code></td><td>${x.attempt}</td><td>${x.status_code ?? x.error ?? '—'}</td><td>${x.duration_ms} ms</td></tr>`)}</tbody></table>` : html`<p>${t.noDeliveries}</p>`}</section>
${allowed(c, 'cases:erase') && v.status !== 'erased' ? html`<section class="panel danger-zone" aria-labelledby="erase-h"><h2 id="erase-h">${t.erase}</h2><p>${t.eraseHint}</p>
<form method="post" action="${base}/${v.id}/erase" data-confirm="${t.erase}?">${csrfField(c)}
<p><input type="checkbox" id="erase-confirm" name="confirm" value="1" required> <label for="erase-confirm">${t.eraseConfirm}</label></p>
<button type="submit" class="danger">${t.eraseButton}</button></form></section>` : ''}
${script}`, { nav: n ? 'review' : 'verifications' });
}

function dispositionForm(c: PageContext, id: string, base: string): Raw {
  const t = s(c);
  return html`<section class="panel" aria-labelledby="record-h" id="disposition"><h2 id="record-h">${t.recordDisposition}</h2><p class="hint">${t.dispositionHint}</p>
<form method="post" action="${base}/${id}/disposition">${csrfField(c)}
<fieldset><legend>${t.state}</legend>${REVIEW_STATES.map((st, i) => html`<p><input type="radio" id="st-${st}" name="state" value="${st}" required${i === 0 ? html` data-first` : ''}> <label for="st-${st}">${label(t, 'rv', st)}</label></p>`)}</fieldset>
<p><label for="d-note">${t.note}</label><br><textarea id="d-note" name="note" maxlength="2000" rows="3" cols="60"></textarea></p>
<button type="submit">${t.save}</button></form></section>`;
}

export function reviewQueuePage(c: PageContext, q: QueueView): string {
  const t = s(c);
  const p = c.project!;
  const base = `/dashboard/projects/${p.id}/verifications`;
  return layout(c, t.reviewQueue, html`${style}<h1>${t.reviewQueue}</h1>
${advisoryNotice(c)}<p>${t.queueIntro}</p>
<section class="panel" aria-labelledby="counts-h"><h2 id="counts-h">${t.counts}</h2>
<ul class="counts">${(['material_inconsistency', 'manual_review_recommended', 'assessment_incomplete', 'no_material_concerns'] as const).map((a) => html`<li>${assessmentBadge(c, a)} <strong>${q.counts[a]}</strong></li>`)}</ul></section>
${q.items.length ? html`<table class="cases"><caption class="sr-only">${t.reviewQueue}</caption><thead><tr><th scope="col">${t.id}</th><th scope="col">${t.assessment}</th><th scope="col">${t.confidence}</th><th scope="col">${t.flow}</th><th scope="col">${t.review}</th><th scope="col">${t.created}</th></tr></thead><tbody>
${q.items.map((v) => html`<tr><td><a href="${base}/${v.id}?queue=1"><code>${v.id}</code></a></td><td>${assessmentBadge(c, v.assessment)}</td><td>${num(v.confidence)}</td><td>${v.flow ? html`${v.flow.slug} v${v.flow.version ?? '?'}` : t.none}</td><td>${v.review ? label(t, 'rv', v.review.state) : t.none}</td><td>${fmt(v.created_at, c)}</td></tr>`)}
</tbody></table>` : html`<p>${t.queueEmpty}</p>`}`, { nav: 'review' });
}

export const casesNavLabels = (c: PageContext) => ({ verifications: s(c).verifications, review: s(c).reviewQueue });

export const eraseNeedsConfirmation = (c: PageContext): string => s(c).eraseConfirm;
