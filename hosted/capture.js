// Client of the capture API. The session token is the last path segment of this page's URL and is
// the only credential; it never leaves this origin (Referrer-Policy: no-referrer).
const form = document.getElementById('capture');
const statusEl = document.getElementById('status');
const strings = JSON.parse(form.dataset.strings);
const base = location.pathname.replace(/\/$/, '');

function say(text, isError) {
  statusEl.textContent = text;
  statusEl.className = isError ? 'error' : '';
}

async function upload(kind, file) {
  const body = new FormData();
  body.append('kind', kind);
  body.append('file', file, file.name || `${kind}.jpg`);
  const res = await fetch(`${base}/uploads`, { method: 'POST', body });
  if (!res.ok) throw await res.json().catch(() => ({ detail: strings.failed }));
  return res.json();
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector('button');
  const front = form.document_front.files[0];
  if (!front) return say(strings.needFront, true);
  button.disabled = true;
  say(strings.uploading);
  try {
    await upload('document_front', front);
    if (form.document_back.files[0]) await upload('document_back', form.document_back.files[0]);
    if (form.selfie.files[0]) await upload('selfie', form.selfie.files[0]);
    const [country, type] = form.document.value.split('|');
    const res = await fetch(`${base}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ document: { country, type } }),
    });
    if (!res.ok) throw await res.json().catch(() => ({ detail: strings.failed }));
    form.replaceWith(Object.assign(document.createElement('p'), { className: 'done', textContent: strings.submitted }));
  } catch (problem) {
    say(problem && problem.detail ? problem.detail : strings.failed, true);
    button.disabled = false;
  }
});
