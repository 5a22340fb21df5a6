import { html, type Raw } from '../hosted/html.js';
import { can, type Permission } from '../domain/permissions.js';
import { ROLES, type Role } from '../domain/principal.js';
import { CASE_STRINGS } from './cases-i18n.js';
import { LOCALES, type Locale, type Strings } from './i18n.js';

/**
 * Server-rendered dashboard pages. Every value goes through the escaping `html` tagged template
 * (hosted/html.ts); nothing is interpolated raw except other `html` results. Forms work without
 * JavaScript; dashboard.js only adds the live branding preview and confirmations.
 */
export interface PageContext {
  locale: Locale;
  t: Strings;
  path: string;
  csrf: string | null;
  user: { email: string } | null;
  org: { id: string; name: string } | null;
  role: Role | null;
  project: { id: string; name: string; sandbox: boolean } | null;
}

export const allowed = (c: PageContext, p: Permission): boolean => Boolean(c.role && can(c.role, p));
const csrfField = (c: PageContext) => html`<input type="hidden" name="_csrf" value="${c.csrf ?? ''}">`;
const fmt = (iso: string | null | undefined, c: PageContext) => (iso ? new Date(iso).toLocaleString(c.locale === 'en' ? 'en-GB' : c.locale === 'es' ? 'es-MX' : 'pt-PT', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : c.t.never);

export function layout(c: PageContext, title: string, body: Raw, opts: { nav?: 'keys' | 'webhook' | 'branding' | 'team' | 'audit' | 'orgs' | 'verifications' | 'review' | 'flows' | 'build' } = {}): string {
  const t = c.t;
  const link = (key: NonNullable<typeof opts.nav>, href: string, label: string) =>
    html`<li><a href="${href}"${opts.nav === key ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const p = c.project;
  const langLinks = LOCALES.map((l) => html`<a href="${c.path}${c.path.includes('?') ? '&' : '?'}lang=${l}" lang="${l}"${l === c.locale ? html` aria-current="true"` : ''}>${l.toUpperCase()}</a>`);
  return html`<!doctype html>
<html lang="${c.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${t.product}</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script type="module" src="/dashboard/assets/dashboard.js"></script>
</head>
<body>
<a class="skip" href="#main">${t.skip}</a>
<header class="top">
  <a class="brand" href="/dashboard">${t.product}</a>
  ${c.org ? html`<a class="context" href="/dashboard/orgs"><span class="sr-label">${t.org}:</span> ${c.org.name}${p ? html` / <span class="sr-label">${t.project}:</span> ${p.name}` : ''}</a>` : ''}
  <nav class="lang" aria-label="${t.language}">${langLinks}</nav>
  ${c.user ? html`<div class="who"><span>${t.signedInAs} ${c.user.email}</span>
  <form method="post" action="/auth/logout">${csrfField(c)}<button type="submit" class="link">${t.signOut}</button></form></div>` : ''}
</header>
${c.user && c.org ? html`<nav class="side" aria-label="${t.nav}"><ul>
  ${link('orgs', '/dashboard/orgs', t.switcher)}
  ${p && allowed(c, 'cases:read') ? html`${link('verifications', `/dashboard/projects/${p.id}/verifications`, CASE_STRINGS[c.locale].verifications)}${link('review', `/dashboard/projects/${p.id}/review`, CASE_STRINGS[c.locale].reviewQueue)}` : ''}
  ${p ? html`${link('build', `/dashboard/projects/${p.id}/build`, CASE_STRINGS[c.locale].build)}${link('flows', `/dashboard/projects/${p.id}/flows`, CASE_STRINGS[c.locale].flows)}` : ''}
  ${p ? html`${link('keys', `/dashboard/projects/${p.id}/keys`, t.keys)}${link('webhook', `/dashboard/projects/${p.id}/webhook`, t.webhook)}${link('branding', `/dashboard/projects/${p.id}/branding`, t.branding)}` : ''}
  ${link('team', '/dashboard/team', t.team)}
  ${allowed(c, 'audit:read') ? link('audit', '/dashboard/audit', t.audit) : ''}
</ul></nav>` : ''}
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>`.html;
}

const notice = (msg: string | undefined, kind: 'error' | 'ok' = 'error') =>
  msg ? html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${msg}</p>` : '';

export function signInPage(c: PageContext, o: { error?: string; google: boolean; github: boolean; standins: boolean; returnTo: string }): string {
  const t = c.t;
  const q = o.returnTo !== '/dashboard' ? `?return_to=${encodeURIComponent(o.returnTo)}` : '';
  const button = (provider: 'google' | 'github', label: string, on: boolean) =>
    on ? html`<a class="button provider" href="/auth/${provider}/start${q}">${label}</a>` : html`<span class="button provider disabled" aria-disabled="true">${label} (${t.notConfigured})</span>`;
  return layout(c, t.signInTitle, html`<section class="signin" aria-labelledby="h">
<h1 id="h">${t.signInTitle}</h1>
<p>${t.signInIntro}</p>
${notice(o.error ? ((t as Record<string, string>)[`err_${o.error}`] ?? t.err_sign_in_failed) : undefined)}
<div class="providers">${button('google', t.withGoogle, o.google)}${button('github', t.withGithub, o.github)}</div>
${o.standins ? html`<p class="hint">${t.standinNote}</p>` : ''}
</section>`);
}

export interface OrgEntry { id: string; name: string; role: Role; projects: { id: string; name: string; sandbox: boolean }[] }

export function orgsPage(c: PageContext, orgs: OrgEntry[], o: { error?: string } = {}): string {
  const t = c.t;
  return layout(c, t.switcher, html`<h1>${t.switcher}</h1><p>${t.switcherIntro}</p>${notice(o.error)}
${orgs.map((org) => html`<section class="panel" aria-labelledby="org-${org.id}">
  <h2 id="org-${org.id}">${org.name} ${org.id === c.org?.id ? html`<span class="badge">${t.current}</span>` : ''}</h2>
  <p>${t.yourRole}: ${roleLabel(t, org.role)}</p>
  ${org.projects.length ? html`<ul class="projects">${org.projects.map((p) => html`<li>
    <form method="post" action="/dashboard/switch">${csrfField(c)}<input type="hidden" name="org_id" value="${org.id}"><input type="hidden" name="project_id" value="${p.id}">
    <button type="submit"${p.id === c.project?.id ? html` aria-current="true"` : ''}>${t.open} ${p.name}</button> ${p.sandbox ? html`<span class="badge">sandbox</span>` : ''} ${p.id === c.project?.id ? html`<span class="badge">${t.current}</span>` : ''}</form></li>`)}</ul>` : html`<p>${t.noProject}</p>`}
  ${can(org.role, 'projects:create') ? html`<form method="post" action="/dashboard/orgs/${org.id}/projects" class="inline">${csrfField(c)}
    <label for="pn-${org.id}">${t.projectName}</label> <input id="pn-${org.id}" name="name" required maxlength="200"> <button type="submit">${t.newProject}</button></form>` : ''}
</section>`)}`, { nav: 'orgs' });
}

export const roleLabel = (t: Strings, r: Role): string => t[`role_${r}` as const];

export interface KeyRow { id: string; name: string; prefix: string; created_at: string; revoked_at: string | null; last_used_at: string | null }

export function keysPage(c: PageContext, keys: KeyRow[], o: { newKey?: string; error?: string } = {}): string {
  const t = c.t;
  const p = c.project!;
  const manage = allowed(c, 'keys:manage');
  return layout(c, t.keys, html`<h1>${t.keys}</h1><p>${t.keysIntro}</p>${notice(o.error)}
${o.newKey ? html`<div class="once" role="status"><p>${t.newKeyOnce}</p><code class="secret" id="new-key" tabindex="0">${o.newKey}</code></div>` : ''}
${manage ? html`<form method="post" action="/dashboard/projects/${p.id}/keys" class="inline">${csrfField(c)}
  <label for="key-name">${t.keyName}</label> <input id="key-name" name="name" required maxlength="200" value="default"> <button type="submit">${t.createKey}</button></form>` : ''}
${keys.length ? html`<div class="scroll" role="region" aria-label="${t.keys}" tabindex="0"><table><caption class="sr-only">${t.keys}</caption><thead><tr><th scope="col">${t.name}</th><th scope="col">${t.prefix}</th><th scope="col">${t.created}</th><th scope="col">${t.lastUsed}</th><th scope="col">${t.status}</th>${manage ? html`<th scope="col"><span class="sr-only">${t.revoke}</span></th>` : ''}</tr></thead><tbody>
${keys.map((k) => html`<tr><td>${k.name}</td><td><code>${k.prefix}…</code></td><td>${fmt(k.created_at, c)}</td><td>${fmt(k.last_used_at, c)}</td><td>${k.revoked_at ? t.revoked : t.active}</td>
${manage ? html`<td>${k.revoked_at ? '' : html`<form method="post" action="/dashboard/projects/${p.id}/keys/${k.id}/revoke" data-confirm="${t.revoke} ${k.name}?">${csrfField(c)}<button type="submit" class="danger" aria-label="${t.revoke} ${k.name} (${k.prefix}…)">${t.revoke}</button></form>`}</td>` : ''}</tr>`)}
</tbody></table></div>` : html`<p>${t.noKeys}</p>`}`, { nav: 'keys' });
}

export interface DeliveryRow { id: string; verification_id: string; event: string; attempt: number; url_origin: string; status_code: number | null; error: string | null; duration_ms: number; at: string }

export function webhookPage(c: PageContext, w: { url: string | null; include_result: boolean; secret_set: boolean }, deliveries: DeliveryRow[], o: { secret?: string; error?: string; saved?: boolean } = {}): string {
  const t = c.t;
  const p = c.project!;
  const manage = allowed(c, 'webhook:manage');
  return layout(c, t.webhook, html`<h1>${t.webhook}</h1><p>${t.webhookIntro}</p>${notice(o.error)}${o.saved ? notice(t.saved, 'ok') : ''}
${o.secret ? html`<div class="once" role="status"><p>${t.secretOnce}</p><code class="secret" tabindex="0">${o.secret}</code></div>` : ''}
<p>${w.secret_set ? t.secretSet : t.noSecret}</p>
${manage ? html`<form method="post" action="/dashboard/projects/${p.id}/webhook" class="stack">${csrfField(c)}
  <label for="wh-url">${t.webhookUrl}</label>
  <input id="wh-url" name="url" type="url" required maxlength="2000" value="${w.url ?? ''}" placeholder="https://example.com/hooks/ivs">
  <div class="check"><input id="wh-pii" type="checkbox" name="include_result" value="1"${w.include_result ? html` checked` : ''} aria-describedby="wh-pii-help"><label for="wh-pii">${t.includeResult}</label></div>
  <p id="wh-pii-help" class="hint">${t.includeResultHelp}</p>
  <div class="check"><input id="wh-regen" type="checkbox" name="regenerate" value="1"><label for="wh-regen">${t.regenerate}</label></div>
  <div><button type="submit">${t.save}</button></div>
</form>
${w.url ? html`<form method="post" action="/dashboard/projects/${p.id}/webhook/clear" data-confirm="${t.clear}?">${csrfField(c)}<button type="submit" class="danger">${t.clear}</button></form>` : ''}`
    : html`<p>${w.url ? html`<code>${w.url}</code>` : t.noUrl}</p>`}
<h2>${t.deliveries}</h2>
${deliveries.length ? html`<div class="scroll" role="region" aria-label="${t.deliveries}" tabindex="0"><table class="log"><thead><tr><th scope="col">${t.at}</th><th scope="col">${t.event}</th><th scope="col">${t.case}</th><th scope="col">${t.attempt}</th><th scope="col">${t.destination}</th><th scope="col">${t.result}</th><th scope="col">${t.duration}</th></tr></thead><tbody>
${deliveries.map((d) => html`<tr><td>${fmt(d.at, c)}</td><td>${d.event}</td><td><code>${d.verification_id}</code></td><td>${d.attempt}</td><td>${d.url_origin}</td><td class="nowrap">${d.status_code ? `HTTP ${d.status_code}` : ''}${d.error ? ` ${d.error}` : ''}</td><td>${d.duration_ms} ms</td></tr>`)}
</tbody></table></div>` : html`<p>${t.noDeliveries}</p>`}`, { nav: 'webhook' });
}

export function brandingPage(c: PageContext, b: Record<string, unknown>, o: { error?: string; saved?: boolean } = {}): string {
  const t = c.t;
  const p = c.project!;
  const manage = allowed(c, 'branding:manage');
  const v = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : '');
  const colourField = (name: string, label: string, fallback: string) => html`<div class="colour"><label for="br-${name}">${label}</label>
    <input id="br-${name}" name="${name}" type="color" value="${v(name) || fallback}"${manage ? '' : html` disabled`}></div>`;
  const q = new URLSearchParams(Object.entries(b).filter(([, x]) => typeof x === 'string') as [string, string][]).toString();
  return layout(c, t.branding, html`<h1>${t.branding}</h1><p>${t.brandingIntro}</p>${notice(o.error)}${o.saved ? notice(t.saved, 'ok') : ''}
<div class="split">
<form method="post" action="/dashboard/projects/${p.id}/branding" class="stack" id="branding-form" data-preview="/dashboard/projects/${p.id}/branding/preview">${csrfField(c)}
  <label for="br-name">${t.brandName}</label><input id="br-name" name="name" maxlength="100" value="${v('name')}"${manage ? '' : html` disabled`}>
  <label for="br-logo">${t.logoUrl}</label><input id="br-logo" name="logo_url" type="url" maxlength="2000" value="${v('logo_url')}"${manage ? '' : html` disabled`}>
  ${colourField('primary_colour', t.primaryColour, '#1f5eff')}
  ${colourField('background_colour', t.backgroundColour, '#ffffff')}
  ${colourField('text_colour', t.textColour, '#14161a')}
  ${manage ? html`<div><button type="submit">${t.save}</button></div>` : ''}
</form>
<figure class="preview"><iframe id="branding-preview" title="${t.preview}" src="/dashboard/projects/${p.id}/branding/preview?${q}"></iframe>
<figcaption>${t.preview}. ${t.previewNote}</figcaption></figure>
</div>`, { nav: 'branding' });
}

export interface MemberRow { user_id: string; email: string; name: string | null; role: Role }
export interface InvitationRow { id: string; email: string; role: Role; created_at: string }

export function teamPage(c: PageContext, members: MemberRow[], invitations: InvitationRow[], o: { error?: string } = {}): string {
  const t = c.t;
  const manage = allowed(c, 'team:manage');
  const assignable = ROLES.filter((r) => c.role === 'owner' || r !== 'owner');
  const roleSelect = (id: string, current: Role | null) => html`<select id="${id}" name="role">${assignable.map((r) => html`<option value="${r}"${r === current ? html` selected` : ''}>${roleLabel(t, r)}</option>`)}</select>`;
  return layout(c, t.team, html`<h1>${t.team}</h1><p>${t.teamIntro}</p>${notice(o.error)}
<h2>${t.members}</h2>
<div class="scroll" role="region" aria-label="${t.members}" tabindex="0"><table><thead><tr><th scope="col">${t.email}</th><th scope="col">${t.name}</th><th scope="col">${t.role}</th>${manage ? html`<th scope="col"><span class="sr-only">${t.remove}</span></th>` : ''}</tr></thead><tbody>
${members.map((m) => {
    // The last owner cannot be demoted or removed (the server refuses it too): no controls for it.
    const owners = members.filter((x) => x.role === 'owner').length;
    const editable = manage && (c.role === 'owner' || m.role !== 'owner') && !(m.role === 'owner' && owners === 1);
    return html`<tr><td>${m.email}</td><td>${m.name ?? ''}</td><td>${editable ? html`<form method="post" action="/dashboard/team/members/${m.user_id}/role" class="inline">${csrfField(c)}<label class="sr-only" for="role-${m.user_id}">${t.role} ${m.email}</label>${roleSelect(`role-${m.user_id}`, m.role)} <button type="submit">${t.changeRole}</button></form>` : roleLabel(t, m.role)}</td>
${manage ? html`<td>${editable ? html`<form method="post" action="/dashboard/team/members/${m.user_id}/remove" data-confirm="${t.remove} ${m.email}?">${csrfField(c)}<button type="submit" class="danger" aria-label="${t.remove} ${m.email}">${t.remove}</button></form>` : ''}</td>` : ''}</tr>`;
  })}
</tbody></table></div>
<h2>${t.invitations}</h2>
${invitations.length ? html`<div class="scroll" role="region" aria-label="${t.invitations}" tabindex="0"><table><thead><tr><th scope="col">${t.email}</th><th scope="col">${t.role}</th><th scope="col">${t.created}</th>${manage ? html`<th scope="col"><span class="sr-only">${t.revoke}</span></th>` : ''}</tr></thead><tbody>
${invitations.map((i) => html`<tr><td>${i.email}</td><td>${roleLabel(t, i.role)}</td><td>${fmt(i.created_at, c)}</td>${manage ? html`<td><form method="post" action="/dashboard/team/invitations/${i.id}/revoke">${csrfField(c)}<button type="submit" class="danger" aria-label="${t.revoke} ${i.email}">${t.revoke}</button></form></td>` : ''}</tr>`)}
</tbody></table></div>` : html`<p>${t.noInvitations}</p>`}
${manage ? html`<h2>${t.inviteIntro}</h2><form method="post" action="/dashboard/team/invitations" class="inline">${csrfField(c)}
  <label for="inv-email">${t.email}</label> <input id="inv-email" name="email" type="email" required maxlength="320" autocomplete="off">
  <label for="inv-role">${t.role}</label> ${roleSelect('inv-role', 'developer')}
  <button type="submit">${t.invite}</button></form>` : ''}`, { nav: 'team' });
}

export interface AuditRow { at: string; action: string; actor: string; project_id: string | null; target_id: string | null; meta: Record<string, unknown> | null }

export function auditPage(c: PageContext, rows: AuditRow[]): string {
  const t = c.t;
  return layout(c, t.audit, html`<h1>${t.audit}</h1><p>${t.auditIntro}</p>
${rows.length ? html`<div class="scroll" role="region" aria-label="${t.audit}" tabindex="0"><table class="log"><thead><tr><th scope="col">${t.at}</th><th scope="col">${t.actor}</th><th scope="col">${t.action}</th><th scope="col">${t.target}</th><th scope="col">${t.details}</th></tr></thead><tbody>
${rows.map((r) => html`<tr><td>${fmt(r.at, c)}</td><td>${r.actor}</td><td><code>${r.action}</code></td><td>${r.target_id ? html`<code>${r.target_id}</code>` : ''}${r.project_id ? html` <code>${r.project_id}</code>` : ''}</td><td>${r.meta ? Object.entries(r.meta).map(([k, v]) => `${k}=${String(v)}`).join(', ') : ''}</td></tr>`)}
</tbody></table></div>` : html`<p>${t.noAudit}</p>`}`, { nav: 'audit' });
}

export function errorPage(c: PageContext, status: number, detail?: string): string {
  const t = c.t;
  const [title, body] = status === 404 ? [t.notFoundTitle, t.notFoundBody] : status === 403 ? [t.forbiddenTitle, detail ?? t.forbiddenBody] : [t.errorTitle, detail ?? ''];
  return layout(c, title, html`<h1>${title}</h1><p>${body}</p><p><a href="/dashboard">${t.back}</a></p>`);
}
