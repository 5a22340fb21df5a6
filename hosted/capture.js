// Client of the capture API. The session token is the last path segment of this page's URL and is
// the only credential; it never leaves this origin (Referrer-Policy: no-referrer).
const form = document.getElementById('capture');
const statusEl = document.getElementById('status');
const strings = JSON.parse(form.dataset.strings);
const base = location.pathname.replace(/\/$/, '');
const FPS = 10;
const FRAME_WIDTH = 480;

let livenessDone = false;

function say(el, text, isError) {
  el.textContent = text;
  el.className = isError ? 'error' : '';
}

async function problemOf(res) {
  return res.json().catch(() => ({ detail: strings.failed }));
}

async function upload(kind, blob, name, meta) {
  const body = new FormData();
  body.append('kind', kind);
  if (meta) body.append('meta', JSON.stringify(meta));
  body.append('file', blob, name);
  const res = await fetch(`${base}/uploads`, { method: 'POST', body });
  if (!res.ok) throw await problemOf(res);
  return res.json();
}

// ---- live selfie: fail closed, never a silent fallback to a still photo ----
const liveStatus = document.getElementById('live-status');
const startButton = document.getElementById('live-start');
const video = document.getElementById('preview');
const flash = document.getElementById('flash');
const instruction = document.getElementById('instruction');

function offerHandoff(message) {
  const box = document.getElementById('handoff');
  document.getElementById('handoff-text').textContent = message;
  document.getElementById('handoff-qr').src = `${base}/handoff.svg?t=${Date.now()}`;
  document.getElementById('handoff-link').href = location.href;
  box.hidden = false;
  startButton.hidden = true;
}

const canRecord = Boolean(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.HTMLCanvasElement);
if (!canRecord) offerHandoff(strings.noCamera);

function colourAt(challenge, t) {
  const seg = challenge.colours.find((c) => t >= c.start_ms && t < c.start_ms + c.duration_ms);
  return seg || challenge.colours[challenge.colours.length - 1];
}

function instructionAt(challenge, t) {
  const perStep = challenge.capture_ms / (challenge.steps.length + 1);
  const i = Math.floor(t / perStep) - 1; // the first slot is the neutral reference pose
  return i < 0 ? strings.liveNeutral : strings[challenge.steps[Math.min(i, challenge.steps.length - 1)]];
}

const RGB = { red: 'rgb(255,0,0)', green: 'rgb(0,255,0)', blue: 'rgb(0,0,255)', yellow: 'rgb(255,255,0)', magenta: 'rgb(255,0,255)', cyan: 'rgb(0,255,255)' };

async function recordLiveness() {
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } }, audio: false });
  } catch (err) {
    offerHandoff(err && err.name === 'NotAllowedError' ? strings.cameraDenied : strings.noCamera);
    return;
  }
  startButton.disabled = true;
  livenessDone = false;
  try {
    const res = await fetch(`${base}/challenge`, { method: 'POST' });
    if (!res.ok) throw await problemOf(res);
    const challenge = await res.json();
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    const canvas = document.createElement('canvas');
    const scale = FRAME_WIDTH / (video.videoWidth || 640);
    canvas.width = FRAME_WIDTH;
    canvas.height = Math.round((video.videoHeight || 480) * scale);
    const ctx = canvas.getContext('2d');

    flash.prepend(video); // the applicant sees themselves inside the coloured screen
    flash.hidden = false;
    const pending = [];
    const failures = [];
    const t0 = performance.now();
    let n = 0;
    await new Promise((resolve) => {
      const tick = () => {
        const t = Math.round(performance.now() - t0);
        if (t >= challenge.capture_ms) return resolve();
        const colour = colourAt(challenge, t).colour;
        flash.style.background = RGB[colour];
        instruction.textContent = instructionAt(challenge, t);
        ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
        const meta = { nonce: challenge.nonce, timestamp_ms: t, colour };
        const name = `frame-${String(n++).padStart(3, '0')}.jpg`;
        canvas.toBlob((blob) => {
          if (blob) pending.push(upload('liveness_frame', blob, name, meta).catch((p) => failures.push(p)));
        }, 'image/jpeg', 0.85);
        setTimeout(tick, 1000 / FPS);
      };
      tick();
    });
    flash.hidden = true;
    say(liveStatus, strings.liveUploading);
    await new Promise((r) => setTimeout(r, 200)); // let the last toBlob callbacks queue their uploads
    await Promise.all(pending);
    if (failures.length) throw failures[0];
    livenessDone = true;
    say(liveStatus, strings.liveDone);
    startButton.textContent = strings.liveRetry;
  } catch (problem) {
    flash.hidden = true;
    say(liveStatus, (problem && problem.detail) || strings.failed, true);
  } finally {
    stream.getTracks().forEach((track) => track.stop());
    video.hidden = true;
    document.getElementById('liveness').insertBefore(video, startButton);
    startButton.disabled = false;
  }
}

startButton.addEventListener('click', () => {
  void recordLiveness();
});

// ---- documents and submit ----
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = document.getElementById('submit');
  const front = form.document_front.files[0];
  if (!front) return say(statusEl, strings.needFront, true);
  if (!livenessDone) return say(statusEl, strings.needLive, true);
  button.disabled = true;
  say(statusEl, strings.uploading);
  try {
    await upload('document_front', front, front.name || 'front.jpg');
    const back = form.document_back.files[0];
    if (back) await upload('document_back', back, back.name || 'back.jpg');
    const [country, type] = form.document.value.split('|');
    const res = await fetch(`${base}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ document: { country, type } }),
    });
    if (!res.ok) throw await problemOf(res);
    form.replaceWith(Object.assign(document.createElement('p'), { className: 'done', textContent: strings.submitted }));
  } catch (problem) {
    say(statusEl, (problem && problem.detail) || strings.failed, true);
    button.disabled = false;
  }
});
