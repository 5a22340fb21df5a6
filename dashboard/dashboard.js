// Progressive enhancement only: every form works without this file.
// 1. Confirm destructive actions. 2. Live branding preview. 3. Focus the once-only secret.
// 4. Build composer: show only the fields of the variant chosen (all are shown without script).
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (e) => {
    if (!window.confirm(form.dataset.confirm)) e.preventDefault();
  });
}

const branding = document.getElementById('branding-form');
const frame = document.getElementById('branding-preview');
if (branding && frame) {
  let timer;
  const update = () => {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(branding)) if (k !== '_csrf' && typeof v === 'string' && v.trim()) params.set(k, v.trim());
    frame.src = `${branding.dataset.preview}?${params}`;
  };
  branding.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(update, 250);
  });
}

const once = document.querySelector('.once code');
if (once) once.focus();

for (const block of document.querySelectorAll('[data-variant-of]')) {
  const radios = document.querySelectorAll(`input[type="radio"][name="${CSS.escape(block.dataset.variantOf)}"]`);
  const sync = () => {
    const chosen = [...radios].find((r) => r.checked)?.value;
    block.hidden = chosen !== block.dataset.variant;
  };
  for (const r of radios) r.addEventListener('change', sync);
  sync();
}
