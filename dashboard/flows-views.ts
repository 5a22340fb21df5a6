import { html } from '../hosted/html.js';
import type { DefinitionChange } from '../domain/definition-diff.js';
import type { Locale } from './i18n.js';
import { allowed, layout, type PageContext } from './views.js';

/** The Flows page (issue 17): versions with a readable diff, publish n+1 from JSON, (de)activate. */
const STR = {
  en: { newFlow: 'New Flow from a Template definition', slug: 'Slug', name: 'Name', create: 'Activate as Flow', flows: 'Flows', intro: 'Each Flow has a stable slug and intake link. Publishing creates version n+1 under the same link; running Cases keep their version.', link: 'Intake link', active: 'active', inactive: 'inactive', current: 'Current version', versions: 'Versions', version: 'Version', changes: 'Changes from the previous version', first: 'First version', none: 'No changes', path: 'Field', before: 'Before', after: 'After', definition: 'Definition', publish: 'Publish a new version', publishHint: 'Paste the Template definition (JSON, pieces from the primitives registry at /v1/primitives).', publishButton: 'Publish version', deactivate: 'Deactivate', activate: 'Activate', noFlows: 'No Flows yet.', published: 'Published version', orBuild: 'Or compose one with forms on the Build page.' },
  es: { newFlow: 'Nuevo flujo a partir de una definición de plantilla', slug: 'Slug', name: 'Nombre', create: 'Activar como flujo', flows: 'Flujos', intro: 'Cada flujo tiene un slug y un enlace de admisión estables. Publicar crea la versión n+1 bajo el mismo enlace; los casos en curso conservan su versión.', link: 'Enlace de admisión', active: 'activo', inactive: 'inactivo', current: 'Versión actual', versions: 'Versiones', version: 'Versión', changes: 'Cambios respecto a la versión anterior', first: 'Primera versión', none: 'Sin cambios', path: 'Campo', before: 'Antes', after: 'Después', definition: 'Definición', publish: 'Publicar una nueva versión', publishHint: 'Pegue la definición de la plantilla (JSON, piezas del registro de primitivas en /v1/primitives).', publishButton: 'Publicar versión', deactivate: 'Desactivar', activate: 'Activar', noFlows: 'Aún no hay flujos.', published: 'Versión publicada', orBuild: 'O compóngala con formularios en la página Construir.' },
  pt: { newFlow: 'Novo fluxo a partir de uma definição de modelo', slug: 'Slug', name: 'Nome', create: 'Ativar como fluxo', flows: 'Fluxos', intro: 'Cada fluxo tem um slug e uma ligação de admissão estáveis. Publicar cria a versão n+1 na mesma ligação; os casos em curso mantêm a sua versão.', link: 'Ligação de admissão', active: 'ativo', inactive: 'inativo', current: 'Versão atual', versions: 'Versões', version: 'Versão', changes: 'Alterações face à versão anterior', first: 'Primeira versão', none: 'Sem alterações', path: 'Campo', before: 'Antes', after: 'Depois', definition: 'Definição', publish: 'Publicar uma nova versão', publishHint: 'Cole a definição do modelo (JSON, peças do registo de primitivas em /v1/primitives).', publishButton: 'Publicar versão', deactivate: 'Desativar', activate: 'Ativar', noFlows: 'Ainda sem fluxos.', published: 'Versão publicada', orBuild: 'Ou componha-o com formulários na página Construir.' },
} satisfies Record<Locale, Record<string, string>>;

export interface FlowEntryView {
  id: string; slug: string; name: string; active: boolean; currentVersion: number;
  versions: { version: number; at: string; definition: unknown; changes: DefinitionChange[] | null }[];
}

const show = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v));

export function flowsPage(c: PageContext, flows: FlowEntryView[], o: { baseUrl: string; error?: { slug: string; message: string; fields: string[]; text: string; newSlug?: string }; published?: { slug: string; version: number } }): string {
  const t = STR[c.locale];
  const p = c.project!;
  const manage = allowed(c, 'flows:manage');
  const csrf = html`<input type="hidden" name="_csrf" value="${c.csrf ?? ''}">`;
  return layout(c, t.flows, html`<link rel="stylesheet" href="/dashboard/assets/cases.css"><h1>${t.flows}</h1><p>${t.intro}</p>
${o.published ? html`<p class="notice ok" role="status">${t.published}: ${o.published.slug} v${o.published.version}</p>` : ''}
${manage ? html`<section class="panel" aria-labelledby="new-flow-h"><h2 id="new-flow-h">${t.newFlow}</h2>
<p><a href="/dashboard/projects/${p.id}/build">${t.orBuild}</a></p>
${o.error?.slug === '' ? html`<div class="notice error" role="alert" id="new-err"><p>${o.error.message}</p>${o.error.fields.length ? html`<ul>${o.error.fields.map((x) => html`<li>${x}</li>`)}</ul>` : ''}</div>` : ''}
<form method="post" action="/dashboard/projects/${p.id}/flows" class="stack">${csrf}
<label for="nf-slug">${t.slug}</label><input id="nf-slug" name="slug" required maxlength="64" pattern="[a-z0-9][a-z0-9-]{1,62}[a-z0-9]" value="${o.error?.slug === '' ? o.error.newSlug ?? '' : ''}">
<label for="nf-name">${t.name}</label><input id="nf-name" name="name" maxlength="200">
<label for="nf-def">${t.definition}</label><p class="hint" id="nf-hint">${t.publishHint}</p>
<textarea id="nf-def" name="definition" rows="6" cols="80" required aria-describedby="nf-hint">${o.error?.slug === '' ? o.error.text : JSON.stringify(flows[0]?.versions[0]?.definition ?? { pieces: [] }, null, 2)}</textarea>
<div><button type="submit">${t.create}</button></div></form></section>` : ''}
${flows.length ? flows.map((f) => html`<section class="panel" aria-labelledby="fl-${f.id}">
<h2 id="fl-${f.id}">${f.name} <code>${f.slug}</code> <span class="badge">${f.active ? t.active : t.inactive}</span></h2>
<dl class="facts"><dt>${t.current}</dt><dd>v${f.currentVersion}</dd><dt>${t.link}</dt><dd><code>POST ${o.baseUrl}/v1/flows/${f.slug}/intake</code></dd></dl>
${manage ? html`<form method="post" action="/dashboard/projects/${p.id}/flows/${f.slug}/${f.active ? 'deactivate' : 'activate'}" class="inline">${csrf}<button type="submit"${f.active ? html` class="danger"` : ''}>${f.active ? t.deactivate : t.activate} ${f.slug}</button></form>` : ''}
<h3>${t.versions}</h3>
${f.versions.map((v) => html`<details${v.version === f.currentVersion ? html` open` : ''}><summary>${t.version} ${v.version} · ${v.at.slice(0, 19).replace('T', ' ')} UTC</summary>
${v.changes === null ? html`<p>${t.first}</p>` : v.changes.length ? html`<table class="evidence"><caption>${t.changes}</caption><thead><tr><th scope="col">${t.path}</th><th scope="col">${t.before}</th><th scope="col">${t.after}</th></tr></thead><tbody>
${v.changes.map((ch) => html`<tr><td><code>${ch.path}</code></td><td><code>${show(ch.before)}</code></td><td><code>${show(ch.after)}</code></td></tr>`)}</tbody></table>` : html`<p>${t.none}</p>`}
<details><summary>${t.definition} v${v.version}</summary><pre class="mrz">${JSON.stringify(v.definition, null, 2)}</pre></details></details>`)}
${manage ? html`<form method="post" action="/dashboard/projects/${p.id}/flows/${f.slug}/versions" class="stack">${csrf}
<label for="def-${f.id}">${t.publish}</label><p class="hint" id="def-hint-${f.id}">${t.publishHint}</p>
${o.error?.slug === f.slug ? html`<div class="notice error" role="alert" id="def-err-${f.id}"><p>${o.error.message}</p>${o.error.fields.length ? html`<ul>${o.error.fields.map((x) => html`<li>${x}</li>`)}</ul>` : ''}</div>` : ''}
<textarea id="def-${f.id}" name="definition" rows="10" cols="80" required aria-describedby="def-hint-${f.id}${o.error?.slug === f.slug ? html` def-err-${f.id}` : ''}"${o.error?.slug === f.slug ? html` aria-invalid="true"` : ''}>${o.error?.slug === f.slug ? o.error.text : JSON.stringify(f.versions[0]?.definition ?? {}, null, 2)}</textarea>
<div><button type="submit">${t.publishButton}</button></div></form>` : ''}
</section>`) : html`<p>${t.noFlows}</p>`}`, { nav: 'flows' });
}
