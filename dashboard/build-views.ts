import { html, type Raw } from '../hosted/html.js';
import { LIVENESS_STEPS } from '../domain/liveness.js';
import { livenessChallengeOf, type TTemplateDefinition } from '../domain/primitives.js';
import type { Locale } from './i18n.js';
import { blanksFrom, decodeSchemaForm, fieldId, schemaFields, type FormState, type FormText, type JsonSchema } from './schema-form.js';
import { allowed, layout, type PageContext } from './views.js';

/**
 * The Build page (issue 17): compose a Template from the public primitives registry. Each piece's
 * form is generated from its `settings_schema`; the server validates with the same zod schemas
 * and answers with the error beside each field (nothing saved). Drafts are saved server-side;
 * a draft can be previewed as the hosted page it will give and activated as a Flow.
 */

const en = {
  build: 'Build', intro: 'Compose a Template from the primitives registry (the same pieces and JSON schemas as GET /v1/primitives). Save it as a draft, preview the hosted flow it gives, then activate it in this project as a Flow.',
  readOnly: 'Your role can look at drafts but not change them (this needs flows:manage: owner, admin or developer).',
  drafts: 'Drafts', noDrafts: 'No drafts yet.', name: 'Name', pieces: 'Pieces', updated: 'Updated', actions: 'Actions', open: 'Open', preview: 'Preview',
  newTemplate: 'New Template', draftName: 'Draft name', saveDraft: 'Save draft', saveChanges: 'Save changes', saved: 'Draft saved.', deleted: 'Draft deleted.',
  include: 'Include this piece', required: '(required)', optional: '(optional)', addRows: 'Add a row', removeRow: 'Remove this row when saving', choose: '— choose —',
  errorsTitle: 'The Template is not valid; nothing was saved. Fix these fields:', requiredMsg: 'Required.',
  draft: 'Draft', deleteDraft: 'Delete draft', deleteConfirm: 'Delete this draft?', backToDrafts: 'All drafts', backToDraft: 'Back to the draft',
  activate: 'Activate as a Flow', activateIntro: 'Makes a new Flow in this project with version 1 of this Template. The slug is the Flow\'s stable name: its intake link stays the same for every later version.',
  slug: 'Slug', slugHint: '3–64 lowercase letters, digits and dashes.', flowName: 'Flow name (optional)', activateButton: 'Activate as Flow',
  publish: 'Publish to an existing Flow', publishIntro: 'Publishes this Template as the next version of a Flow; running Cases keep their version.', flow: 'Flow', publishButton: 'Publish as next version',
  previewTitle: 'Preview', previewIntro: 'What the Template gives, read-only: the hosted page an applicant opens (rendered by the hosted page\'s own code with this project\'s branding) and what the integrator sends at intake.',
  applicantSteps: 'What the applicant does', stepDocument: 'Chooses one of these documents', stepPhotos: 'Photographs the document front, and the back if it has one', stepLiveness: 'Records a live selfie: the screen changes colour while they follow', stepLivenessSteps: 'movement(s), drawn from', stepSubmit: 'Submits; the checks run and the webhook reports the assessment',
  hostedPage: 'The hosted page (read-only preview)', intakeTitle: 'What the integrator sends', intakeHint: 'An example body for the intake link once the Template is active as a Flow:', recordMatch: 'Record match (advisory, never changes the assessment)',
  noLiveness: 'No selfie liveness piece: the hosted page still records a live selfie, with the default challenge (3 movements of 4).', noRecordMatch: 'No record match piece.', simpleMatch: 'compares the names, date of birth and document number read with the claimed record',
  anyStep: 'every step', link: 'Intake link', templateOf: 'Template', activeAs: 'Activated', registry: 'Primitives registry (JSON)',
};
type BuildStrings = typeof en;
const es: BuildStrings = {
  build: 'Construir', intro: 'Componga una plantilla con el registro de primitivas (las mismas piezas y esquemas JSON que GET /v1/primitives). Guárdela como borrador, vea la vista previa del flujo alojado que genera y actívela en este proyecto como flujo.',
  readOnly: 'Su rol puede ver los borradores pero no modificarlos (requiere flows:manage: propietario, administrador o desarrollador).',
  drafts: 'Borradores', noDrafts: 'Aún no hay borradores.', name: 'Nombre', pieces: 'Piezas', updated: 'Actualizado', actions: 'Acciones', open: 'Abrir', preview: 'Vista previa',
  newTemplate: 'Nueva plantilla', draftName: 'Nombre del borrador', saveDraft: 'Guardar borrador', saveChanges: 'Guardar cambios', saved: 'Borrador guardado.', deleted: 'Borrador eliminado.',
  include: 'Incluir esta pieza', required: '(obligatorio)', optional: '(opcional)', addRows: 'Añadir una fila', removeRow: 'Quitar esta fila al guardar', choose: '— elegir —',
  errorsTitle: 'La plantilla no es válida; no se guardó nada. Corrija estos campos:', requiredMsg: 'Obligatorio.',
  draft: 'Borrador', deleteDraft: 'Eliminar borrador', deleteConfirm: '¿Eliminar este borrador?', backToDrafts: 'Todos los borradores', backToDraft: 'Volver al borrador',
  activate: 'Activar como flujo', activateIntro: 'Crea un flujo nuevo en este proyecto con la versión 1 de esta plantilla. El slug es el nombre estable del flujo: su enlace de admisión no cambia en versiones posteriores.',
  slug: 'Slug', slugHint: 'De 3 a 64 letras minúsculas, dígitos y guiones.', flowName: 'Nombre del flujo (opcional)', activateButton: 'Activar como flujo',
  publish: 'Publicar en un flujo existente', publishIntro: 'Publica esta plantilla como la siguiente versión de un flujo; los casos en curso conservan su versión.', flow: 'Flujo', publishButton: 'Publicar como siguiente versión',
  previewTitle: 'Vista previa', previewIntro: 'Lo que da la plantilla, solo lectura: la página alojada que abre la persona solicitante (generada por el propio código de la página alojada con la marca de este proyecto) y lo que envía el integrador en la admisión.',
  applicantSteps: 'Lo que hace la persona solicitante', stepDocument: 'Elige uno de estos documentos', stepPhotos: 'Fotografía el frente del documento y el reverso si lo tiene', stepLiveness: 'Graba una selfie en vivo: la pantalla cambia de color mientras sigue', stepLivenessSteps: 'movimiento(s), tomados de', stepSubmit: 'Envía; se ejecutan las verificaciones y el webhook informa la evaluación',
  hostedPage: 'La página alojada (vista previa de solo lectura)', intakeTitle: 'Lo que envía el integrador', intakeHint: 'Un cuerpo de ejemplo para el enlace de admisión cuando la plantilla esté activa como flujo:', recordMatch: 'Coincidencia de registro (orientativa, nunca cambia la evaluación)',
  noLiveness: 'Sin pieza de selfie con prueba de vida: la página alojada igualmente graba una selfie en vivo, con el reto por defecto (3 movimientos de 4).', noRecordMatch: 'Sin pieza de coincidencia de registro.', simpleMatch: 'compara los nombres, la fecha de nacimiento y el número de documento leídos con el registro declarado',
  anyStep: 'todos los pasos', link: 'Enlace de admisión', templateOf: 'Plantilla', activeAs: 'Activada', registry: 'Registro de primitivas (JSON)',
};
const pt: BuildStrings = {
  build: 'Construir', intro: 'Componha um modelo a partir do registo de primitivas (as mesmas peças e esquemas JSON de GET /v1/primitives). Guarde-o como rascunho, pré-visualize o fluxo alojado que ele gera e ative-o neste projeto como fluxo.',
  readOnly: 'A sua função pode ver os rascunhos mas não alterá-los (requer flows:manage: proprietário, administrador ou programador).',
  drafts: 'Rascunhos', noDrafts: 'Ainda sem rascunhos.', name: 'Nome', pieces: 'Peças', updated: 'Atualizado', actions: 'Ações', open: 'Abrir', preview: 'Pré-visualizar',
  newTemplate: 'Novo modelo', draftName: 'Nome do rascunho', saveDraft: 'Guardar rascunho', saveChanges: 'Guardar alterações', saved: 'Rascunho guardado.', deleted: 'Rascunho eliminado.',
  include: 'Incluir esta peça', required: '(obrigatório)', optional: '(opcional)', addRows: 'Adicionar uma linha', removeRow: 'Remover esta linha ao guardar', choose: '— escolher —',
  errorsTitle: 'O modelo não é válido; nada foi guardado. Corrija estes campos:', requiredMsg: 'Obrigatório.',
  draft: 'Rascunho', deleteDraft: 'Eliminar rascunho', deleteConfirm: 'Eliminar este rascunho?', backToDrafts: 'Todos os rascunhos', backToDraft: 'Voltar ao rascunho',
  activate: 'Ativar como fluxo', activateIntro: 'Cria um fluxo novo neste projeto com a versão 1 deste modelo. O slug é o nome estável do fluxo: a ligação de admissão mantém-se em todas as versões seguintes.',
  slug: 'Slug', slugHint: 'De 3 a 64 letras minúsculas, algarismos e hífenes.', flowName: 'Nome do fluxo (opcional)', activateButton: 'Ativar como fluxo',
  publish: 'Publicar num fluxo existente', publishIntro: 'Publica este modelo como a versão seguinte de um fluxo; os casos em curso mantêm a sua versão.', flow: 'Fluxo', publishButton: 'Publicar como versão seguinte',
  previewTitle: 'Pré-visualização', previewIntro: 'O que o modelo gera, só de leitura: a página alojada que o requerente abre (gerada pelo próprio código da página alojada com a marca deste projeto) e o que o integrador envia na admissão.',
  applicantSteps: 'O que o requerente faz', stepDocument: 'Escolhe um destes documentos', stepPhotos: 'Fotografa a frente do documento e o verso, se tiver', stepLiveness: 'Grava uma selfie ao vivo: o ecrã muda de cor enquanto segue', stepLivenessSteps: 'movimento(s), escolhidos de', stepSubmit: 'Submete; as verificações correm e o webhook comunica a avaliação',
  hostedPage: 'A página alojada (pré-visualização só de leitura)', intakeTitle: 'O que o integrador envia', intakeHint: 'Um corpo de exemplo para a ligação de admissão quando o modelo estiver ativo como fluxo:', recordMatch: 'Correspondência de registo (indicativa, nunca altera a avaliação)',
  noLiveness: 'Sem peça de selfie com prova de vida: a página alojada grava na mesma uma selfie ao vivo, com o desafio por omissão (3 movimentos de 4).', noRecordMatch: 'Sem peça de correspondência de registo.', simpleMatch: 'compara os nomes, a data de nascimento e o número do documento lidos com o registo declarado',
  anyStep: 'todos os passos', link: 'Ligação de admissão', templateOf: 'Modelo', activeAs: 'Ativado', registry: 'Registo de primitivas (JSON)',
};
const STR: Record<Locale, BuildStrings> = { en, es, pt };

/** Labels, hints and option names for the keys the registry's schemas use; an unknown key shows as written. */
const LABELS: Record<Locale, { labels: Record<string, string>; hints: Record<string, string>; options: Record<string, string>; rows: Record<string, string>; titles: Record<string, string>; descriptions: Record<string, string> }> = {
  en: {
    labels: { accepted_documents: 'Accepted documents', country: 'Country', types: 'Document types', step_count: 'Number of movements', steps: 'Movements to draw from', mode: 'Comparison mode', rules: 'Rules', collected: 'Field read from the document', claimed_key: 'Key in the claimed record', operator: 'Operator', fields: 'Intake keys', key: 'Key', type: 'Type', required: 'Required at intake', prefill: 'Pre-fills' },
    hints: { collected: '', country: 'ISO 3166-1 code, e.g. MZ or MOZ. Wildcards are refused.', steps: 'None ticked: every movement.', key: 'Lowercase letters, digits and _, starting with a letter.', claimed_key: 'A key of the intake payload or of claimed.', when_rules: 'Rules (for the rules mode):', accepted_documents: 'One row per country; blank rows are ignored.', fields: 'The payload keys the Flow accepts; blank rows are ignored.' },
    options: { passport: 'Passport', national_id: 'National ID card', driving_licence: 'Driving licence', residence_permit: 'Residence permit', turn_left: 'Turn left', turn_right: 'Turn right', nod: 'Nod', blink: 'Blink', simple_match: 'Simple match', rules: 'Rules', equals: 'equals', contains: 'contains', full_name: 'Full name', given_names: 'Given names', surnames: 'Surnames', date_of_birth: 'Date of birth', document_number: 'Document number', string: 'Text', date: 'Date', email: 'Email', number: 'Number', boolean: 'Yes/no' },
    rows: { accepted_documents: 'Document', rules: 'Rule', fields: 'Key' },
    titles: { document_capture: 'Document capture', selfie_liveness: 'Selfie liveness', record_match: 'Record match', intake_shape: 'Intake shape' },
    descriptions: {},
  },
  es: {
    labels: { accepted_documents: 'Documentos aceptados', country: 'País', types: 'Tipos de documento', step_count: 'Número de movimientos', steps: 'Movimientos posibles', mode: 'Modo de comparación', rules: 'Reglas', collected: 'Campo leído del documento', claimed_key: 'Clave del registro declarado', operator: 'Operador', fields: 'Claves de admisión', key: 'Clave', type: 'Tipo', required: 'Obligatoria en la admisión', prefill: 'Rellena' },
    hints: { country: 'Código ISO 3166-1, p. ej. MX o MEX. No se aceptan comodines.', steps: 'Ninguno marcado: todos los movimientos.', key: 'Minúsculas, dígitos y _, empezando por una letra.', claimed_key: 'Una clave del payload de admisión o de claimed.', when_rules: 'Reglas (para el modo reglas):', accepted_documents: 'Una fila por país; las filas vacías se ignoran.', fields: 'Las claves del payload que acepta el flujo; las filas vacías se ignoran.' },
    options: { passport: 'Pasaporte', national_id: 'Documento nacional', driving_licence: 'Licencia de conducir', residence_permit: 'Tarjeta de residencia', turn_left: 'Girar a la izquierda', turn_right: 'Girar a la derecha', nod: 'Asentir', blink: 'Parpadear', simple_match: 'Coincidencia simple', rules: 'Reglas', equals: 'igual a', contains: 'contiene', full_name: 'Nombre completo', given_names: 'Nombres', surnames: 'Apellidos', date_of_birth: 'Fecha de nacimiento', document_number: 'Número de documento', string: 'Texto', date: 'Fecha', email: 'Correo', number: 'Número', boolean: 'Sí/no' },
    rows: { accepted_documents: 'Documento', rules: 'Regla', fields: 'Clave' },
    titles: { document_capture: 'Captura de documento', selfie_liveness: 'Selfie con prueba de vida', record_match: 'Coincidencia de registro', intake_shape: 'Forma de la admisión' },
    descriptions: { document_capture: 'Qué documentos puede capturar la persona; solo países ISO 3166-1 explícitos.', selfie_liveness: 'Selfie con un reto de prueba de vida activo e iluminación de pantalla.', record_match: 'Comparación de solo lectura de los datos leídos con el registro declarado. Nunca cambia la evaluación.', intake_shape: 'Las claves del payload del integrador que acepta un flujo, obligatorias o no, y lo que rellenan.' },
  },
  pt: {
    labels: { accepted_documents: 'Documentos aceites', country: 'País', types: 'Tipos de documento', step_count: 'Número de movimentos', steps: 'Movimentos possíveis', mode: 'Modo de comparação', rules: 'Regras', collected: 'Campo lido do documento', claimed_key: 'Chave do registo declarado', operator: 'Operador', fields: 'Chaves de admissão', key: 'Chave', type: 'Tipo', required: 'Obrigatória na admissão', prefill: 'Preenche' },
    hints: { country: 'Código ISO 3166-1, p. ex. MZ ou MOZ. Não são aceites caracteres universais.', steps: 'Nenhum marcado: todos os movimentos.', key: 'Minúsculas, algarismos e _, a começar por uma letra.', claimed_key: 'Uma chave do payload de admissão ou de claimed.', when_rules: 'Regras (para o modo regras):', accepted_documents: 'Uma linha por país; as linhas vazias são ignoradas.', fields: 'As chaves do payload que o fluxo aceita; as linhas vazias são ignoradas.' },
    options: { passport: 'Passaporte', national_id: 'Bilhete de identidade', driving_licence: 'Carta de condução', residence_permit: 'Autorização de residência', turn_left: 'Virar à esquerda', turn_right: 'Virar à direita', nod: 'Acenar', blink: 'Piscar', simple_match: 'Correspondência simples', rules: 'Regras', equals: 'igual a', contains: 'contém', full_name: 'Nome completo', given_names: 'Nomes próprios', surnames: 'Apelidos', date_of_birth: 'Data de nascimento', document_number: 'Número do documento', string: 'Texto', date: 'Data', email: 'Email', number: 'Número', boolean: 'Sim/não' },
    rows: { accepted_documents: 'Documento', rules: 'Regra', fields: 'Chave' },
    titles: { document_capture: 'Captura de documento', selfie_liveness: 'Selfie com prova de vida', record_match: 'Correspondência de registo', intake_shape: 'Forma da admissão' },
    descriptions: { document_capture: 'Que documentos o requerente pode capturar; apenas países ISO 3166-1 explícitos.', selfie_liveness: 'Selfie com um desafio de prova de vida ativo e iluminação do ecrã.', record_match: 'Comparação só de leitura dos dados lidos com o registo declarado. Nunca altera a avaliação.', intake_shape: 'As chaves do payload do integrador que um fluxo aceita, obrigatórias ou não, e o que preenchem.' },
  },
};

export interface RegistryPiece { type: string; version: number; title: string; description: string; settings_schema: Record<string, unknown> }
/** The composer's value: per piece type, whether it is included and its settings as typed. */
export type Composition = Record<string, { include: boolean; settings: unknown }>;
export interface DraftView { id: string; name: string; definition: { pieces: { type: string; version: number; settings: unknown }[] } }
export interface ComposerState { name: string; value: Composition; errors: { field: string; code: string; message: string }[]; blanks: Record<string, number> }

function formText(l: Locale): FormText {
  const s = STR[l];
  const d = LABELS[l];
  return {
    label: (k) => d.labels[k] ?? k.replace(/_/g, ' '),
    // The schema's own description is English; other locales use theirs or none.
    hint: (k, desc) => d.hints[k] ?? (l === 'en' ? desc : undefined),
    option: (v) => d.options[v] ?? v,
    row: (k, n) => `${d.rows[k] ?? 'Item'} ${n}`,
    required: s.required, optional: s.optional, addRows: s.addRows, removeRow: s.removeRow, choose: s.choose,
  };
}

/** The composer's value for a stored definition; for a new Template, the required pieces and liveness ticked. */
export function compositionOf(registry: RegistryPiece[], def?: DraftView['definition']): Composition {
  return Object.fromEntries(registry.map((p) => {
    const piece = def?.pieces.find((x) => x.type === p.type);
    return [p.type, { include: def ? Boolean(piece) : p.type !== 'record_match', settings: piece?.settings }];
  }));
}

/** The posted form as a Template definition candidate (validation is the service's, with the registry's zod schemas). */
export function compositionFromForm(registry: RegistryPiece[], body: Record<string, string>): { name: string; value: Composition; definition: unknown; blanks: Record<string, number> } {
  const value: Composition = Object.fromEntries(registry.map((p) => [p.type, { include: body[`${p.type}.__include`] !== undefined, settings: decodeSchemaForm(p.settings_schema as JsonSchema, p.type, body) }]));
  const definition = { pieces: registry.filter((p) => value[p.type]!.include).map((p) => ({ type: p.type, version: p.version, settings: value[p.type]!.settings })) };
  return { name: (body.name ?? '').slice(0, 400), value, definition, blanks: blanksFrom(body) };
}

const csrfField = (c: PageContext) => html`<input type="hidden" name="_csrf" value="${c.csrf ?? ''}">`;
const fmt = (iso: string, c: PageContext) => new Date(iso).toLocaleString(c.locale === 'en' ? 'en-GB' : c.locale === 'es' ? 'es-MX' : 'pt-PT', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

function composer(c: PageContext, registry: RegistryPiece[], action: string, st: ComposerState, o: { submit: string; manage: boolean }): Raw {
  const t = STR[c.locale];
  const d = LABELS[c.locale];
  const text = formText(c.locale);
  const byField = new Map<string, string[]>();
  const message = (e: ComposerState['errors'][number]) => (e.code === 'required' ? t.requiredMsg : e.message);
  for (const e of st.errors) byField.set(e.field, [...(byField.get(e.field) ?? []), message(e)]);
  const fs: FormState = { errors: byField, blanks: st.blanks, rendered: new Set() };
  const nameId = fieldId('name');
  fs.rendered.add(nameId);
  const nameErr = byField.get('name');
  const pieces = registry.map((p) => {
    const v = st.value[p.type] ?? { include: false, settings: undefined };
    const id = fieldId(p.type);
    fs.rendered.add(id);
    const pieceErr = byField.get(p.type);
    return html`<fieldset class="piece" id="${id}"><legend>${d.titles[p.type] ?? p.title} <code>${p.type} v${p.version}</code></legend>
<p class="hint">${d.descriptions[p.type] ?? p.description}</p>
<div class="sf-field sf-check"><input type="checkbox" id="${id}-include" name="${p.type}.__include" value="1"${v.include ? html` checked` : ''}> <label for="${id}-include">${t.include}</label></div>
${pieceErr ? html`<p class="field-error">${pieceErr.join(' ')}</p>` : ''}
<div class="piece-settings">${schemaFields(p.settings_schema as JsonSchema, p.type, v.settings, text, fs)}</div></fieldset>`;
  });
  const piecesErr = byField.get('pieces');
  fs.rendered.add(fieldId('pieces'));
  const form = html`<form method="post" action="${action}" class="composer" novalidate>${csrfField(c)}
<fieldset class="composer-body"${o.manage ? '' : html` disabled`}>
<div class="sf-field"><label for="${nameId}">${t.draftName} <span class="req">${t.required}</span></label><input id="${nameId}" name="name" maxlength="200" value="${st.name}"${nameErr ? html` aria-invalid="true" aria-describedby="${nameId}-err"` : ''}>${nameErr ? html`<p class="field-error" id="${nameId}-err">${nameErr.join(' ')}</p>` : ''}</div>
<div id="${fieldId('pieces')}">${piecesErr ? html`<p class="field-error">${piecesErr.join(' ')}</p>` : ''}</div>
${pieces}
</fieldset>
${o.manage ? html`<div class="composer-actions"><button type="submit" name="_op" value="save">${o.submit}</button></div>` : ''}
</form>`;
  // The summary is built after the form so that it can link to every field that was rendered.
  const summary = st.errors.length ? html`<div class="notice error" role="alert" id="build-errors" tabindex="-1"><p>${t.errorsTitle}</p><ul>${st.errors.map((e) => {
    const id = fieldId(e.field);
    const label = html`<code>${e.field}</code>: ${message(e)}`;
    return html`<li>${fs.rendered.has(id) ? html`<a href="#${id}">${label}</a>` : label}</li>`;
  })}</ul></div>` : '';
  return html`${summary}${form}`;
}

export interface DraftRow { id: string; name: string; pieces: string[]; updatedAt: string }

export function buildPage(c: PageContext, registry: RegistryPiece[], drafts: DraftRow[], st: ComposerState, o: { deleted?: boolean } = {}): string {
  const t = STR[c.locale];
  const d = LABELS[c.locale];
  const p = c.project!;
  const manage = allowed(c, 'flows:manage');
  const base = `/dashboard/projects/${p.id}/build`;
  return layout(c, t.build, html`<link rel="stylesheet" href="/dashboard/assets/cases.css"><link rel="stylesheet" href="/dashboard/assets/build.css">
<h1>${t.build}</h1><p>${t.intro} <a href="/v1/primitives">${t.registry}</a></p>
${manage ? '' : html`<p class="notice" role="note">${t.readOnly}</p>`}
${o.deleted ? html`<p class="notice ok" role="status">${t.deleted}</p>` : ''}
<section class="panel" aria-labelledby="drafts-h"><h2 id="drafts-h">${t.drafts}</h2>
${drafts.length ? html`<div class="scroll" role="region" aria-labelledby="drafts-h" tabindex="0"><table><thead><tr><th scope="col">${t.name}</th><th scope="col">${t.pieces}</th><th scope="col">${t.updated}</th><th scope="col">${t.actions}</th></tr></thead><tbody>
${drafts.map((r) => html`<tr><td><a href="${base}/drafts/${r.id}">${r.name}</a></td><td>${r.pieces.map((x) => d.titles[x] ?? x).join(', ')}</td><td>${fmt(r.updatedAt, c)}</td><td><a href="${base}/drafts/${r.id}/preview" aria-label="${t.preview}: ${r.name}">${t.preview}</a></td></tr>`)}
</tbody></table></div>` : html`<p>${t.noDrafts}</p>`}</section>
<section class="panel" aria-labelledby="new-h"><h2 id="new-h">${t.newTemplate}</h2>
${composer(c, registry, `${base}/drafts`, st, { submit: t.saveDraft, manage })}</section>`, { nav: 'build' });
}

function activation(c: PageContext, draft: DraftView, flows: { slug: string; name: string; currentVersion: number }[], o: { error?: { form: 'activate' | 'publish'; message: string; field?: string; fieldMessage?: string }; slug?: string; flowName?: string }): Raw {
  const t = STR[c.locale];
  const base = `/dashboard/projects/${c.project!.id}/build/drafts/${draft.id}`;
  const err = (form: 'activate' | 'publish') => (o.error?.form === form ? o.error : undefined);
  const a = err('activate');
  const pb = err('publish');
  return html`<section class="panel" aria-labelledby="act-h"><h2 id="act-h">${t.activate}</h2><p>${t.activateIntro}</p>
${a ? html`<div class="notice error" role="alert"><p>${a.message}</p></div>` : ''}
<form method="post" action="${base}/activate#act-h" class="stack" novalidate>${csrfField(c)}
<label for="act-slug">${t.slug} <span class="req">${t.required}</span></label><input id="act-slug" name="slug" maxlength="64" pattern="[a-z0-9][a-z0-9-]{1,62}[a-z0-9]" value="${o.slug ?? ''}" aria-describedby="act-slug-hint${a?.field === 'slug' ? ' act-slug-err' : ''}"${a?.field === 'slug' ? html` aria-invalid="true"` : ''} autocomplete="off" spellcheck="false">
<span class="hint" id="act-slug-hint">${t.slugHint}</span>${a?.field === 'slug' ? html`<p class="field-error" id="act-slug-err">${a.fieldMessage ?? a.message}</p>` : ''}
<label for="act-name">${t.flowName}</label><input id="act-name" name="name" maxlength="200" value="${o.flowName ?? draft.name}">
<div><button type="submit">${t.activateButton}</button></div></form></section>
${flows.length ? html`<section class="panel" aria-labelledby="pub-h"><h2 id="pub-h">${t.publish}</h2><p>${t.publishIntro}</p>
${pb ? html`<div class="notice error" role="alert"><p>${pb.message}</p></div>` : ''}
<form method="post" action="${base}/publish#pub-h" class="inline">${csrfField(c)}<label for="pub-flow">${t.flow}</label>
<select id="pub-flow" name="flow">${flows.map((f) => html`<option value="${f.slug}">${f.name} (${f.slug}, v${f.currentVersion} → v${f.currentVersion + 1})</option>`)}</select>
<button type="submit">${t.publishButton}</button></form></section>` : ''}`;
}

export function draftPage(c: PageContext, registry: RegistryPiece[], draft: DraftView, st: ComposerState, flows: { slug: string; name: string; currentVersion: number }[], o: { saved?: boolean; error?: { form: 'activate' | 'publish'; message: string; field?: string; fieldMessage?: string }; slug?: string; flowName?: string } = {}): string {
  const t = STR[c.locale];
  const p = c.project!;
  const manage = allowed(c, 'flows:manage');
  const base = `/dashboard/projects/${p.id}/build`;
  return layout(c, `${t.draft}: ${draft.name}`, html`<link rel="stylesheet" href="/dashboard/assets/cases.css"><link rel="stylesheet" href="/dashboard/assets/build.css">
<p><a href="${base}">← ${t.backToDrafts}</a></p>
<h1>${t.draft}: ${draft.name}</h1>
${manage ? '' : html`<p class="notice" role="note">${t.readOnly}</p>`}
${o.saved ? html`<p class="notice ok" role="status">${t.saved}</p>` : ''}
<p><a class="button secondary" href="${base}/drafts/${draft.id}/preview">${t.preview}</a></p>
<section class="panel" aria-labelledby="edit-h"><h2 id="edit-h">${t.templateOf}</h2>
${composer(c, registry, `${base}/drafts/${draft.id}`, st, { submit: t.saveChanges, manage })}</section>
${manage ? html`${activation(c, draft, flows, o)}
<form method="post" action="${base}/drafts/${draft.id}/delete" class="inline" data-confirm="${t.deleteConfirm}">${csrfField(c)}<button type="submit" class="danger">${t.deleteDraft}</button></form>` : ''}`, { nav: 'build' });
}

/** An example intake body from the intake shape, with placeholder values by type (no real person's data). */
export function exampleIntake(def: DraftView['definition']): Record<string, unknown> {
  const shape = def.pieces.find((x) => x.type === 'intake_shape')?.settings as { fields?: { key: string; type: string }[] } | undefined;
  const sample: Record<string, unknown> = { string: 'text', date: '1990-01-31', email: 'someone@example.com', number: 1, boolean: true };
  return { payload: Object.fromEntries((shape?.fields ?? []).map((f) => [f.key, sample[f.type] ?? 'text'])), verifiee: { email: 'applicant@example.com' } };
}

export function previewPage(c: PageContext, draft: DraftView, o: { baseUrl: string; hostedSrc: string; flows: { slug: string; name: string; currentVersion: number }[] }): string {
  const t = STR[c.locale];
  const d = LABELS[c.locale];
  const opt = (v: string) => d.options[v] ?? v;
  const p = c.project!;
  const base = `/dashboard/projects/${p.id}/build`;
  const piece = <T>(type: string) => draft.definition.pieces.find((x) => x.type === type)?.settings as T | undefined;
  const capture = piece<{ accepted_documents: { country: string; types: string[] }[] }>('document_capture');
  // The same reading of the piece as the hosted page's challenge (services/liveness-challenge.ts).
  const live = livenessChallengeOf(draft.definition as TTemplateDefinition);
  const rm = piece<{ mode: string; rules?: { collected: string; claimed_key: string; operator: string }[] }>('record_match');
  const manage = allowed(c, 'flows:manage');
  return layout(c, `${t.previewTitle}: ${draft.name}`, html`<link rel="stylesheet" href="/dashboard/assets/cases.css"><link rel="stylesheet" href="/dashboard/assets/build.css">
<p><a href="${base}/drafts/${draft.id}">← ${t.backToDraft}</a></p>
<h1>${t.previewTitle}: ${draft.name}</h1><p>${t.previewIntro}</p>
<div class="split preview-split">
<div>
<section aria-labelledby="steps-h"><h2 id="steps-h">${t.applicantSteps}</h2><ol class="steps">
<li>${t.stepDocument}: <ul>${(capture?.accepted_documents ?? []).map((a) => html`<li><strong>${a.country}</strong> — ${a.types.map(opt).join(', ')}</li>`)}</ul></li>
<li>${t.stepPhotos}</li>
${live ? html`<li>${t.stepLiveness} ${live.stepCount} ${t.stepLivenessSteps} ${live.steps.length === LIVENESS_STEPS.length ? t.anyStep : live.steps.map(opt).join(', ')}</li>` : html`<li>${t.noLiveness}</li>`}
<li>${t.stepSubmit}</li></ol></section>
<section aria-labelledby="rm-h"><h2 id="rm-h">${t.recordMatch}</h2>
${rm ? rm.mode === 'rules' ? html`<ul>${(rm.rules ?? []).map((r) => html`<li>${opt(r.collected)} <em>${opt(r.operator)}</em> <code>${r.claimed_key}</code></li>`)}</ul>` : html`<p>${opt('simple_match')}: ${t.simpleMatch}</p>` : html`<p>${t.noRecordMatch}</p>`}</section>
<section aria-labelledby="in-h"><h2 id="in-h">${t.intakeTitle}</h2><p>${t.intakeHint}</p>
<pre class="mrz" tabindex="0" aria-label="${t.intakeTitle}">POST ${o.baseUrl}/v1/flows/{slug}/intake
${JSON.stringify(exampleIntake(draft.definition), null, 2)}</pre></section>
</div>
<figure class="preview"><iframe title="${t.hostedPage}" src="${o.hostedSrc}" loading="lazy"></iframe><figcaption>${t.hostedPage}</figcaption></figure>
</div>
${manage ? activation(c, draft, o.flows, {}) : ''}`, { nav: 'build' });
}
