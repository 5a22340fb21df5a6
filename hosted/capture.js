import { createStepWatch, facesSeen, guidanceFor, measureFrame, recordingAdvice } from './guidance.js';

// Client of the capture API. The session token is the last path segment of this page's URL and is
// the only credential; it never leaves this origin (Referrer-Policy: no-referrer).
const form = document.getElementById('capture');
const statusEl = document.getElementById('status');
const strings = JSON.parse(form.dataset.strings);
const base = location.pathname.replace(/\/$/, '');
// The integrator's page to go back to after submit (the Case's return_url), if it gave one.
const returnUrl = form.dataset.returnUrl || '';
const RETURN_DELAY_MS = 2500;
const FPS = 10;
const FRAME_WIDTH = 480;

let livenessDone = false;

function say(el, text, isError) {
  el.textContent = text;
  el.className = isError ? 'error' : '';
}

/** The capture is submitted: say so and, with a return_url, offer "Continue" and then go there. */
function finished(message) {
  const done = document.createElement('div');
  done.append(Object.assign(document.createElement('p'), { className: 'done', role: 'status', textContent: message }));
  if (returnUrl) {
    done.append(Object.assign(document.createElement('a'), { className: 'continue', href: returnUrl, textContent: strings.continueLink }));
    setTimeout(() => location.assign(returnUrl), RETURN_DELAY_MS);
  }
  form.replaceWith(done);
  document.getElementById('flash').hidden = true;
}

async function problemOf(res) {
  return res.json().catch(() => ({ detail: strings.failed }));
}

async function upload(kind, blob, name) {
  const body = new FormData();
  body.append('kind', kind);
  body.append('file', blob, name);
  const res = await fetch(`${base}/uploads`, { method: 'POST', body });
  if (!res.ok) throw await problemOf(res);
  return res.json();
}

// The live selfie's frames go up in groups of FRAMES_PER_REQUEST while recording (POST …/frames):
// a few requests instead of one per frame, and only the last group is left to send at the end.
// The server takes at least 8 per request (UPLOAD_MAX_FRAMES_PER_REQUEST's lower bound).
const FRAMES_PER_REQUEST = 8;

function createFrameSender() {
  const queued = [];
  const sent = [];
  const failures = [];
  const send = () => {
    if (queued.length === 0) return;
    const body = new FormData();
    for (const f of queued.splice(0)) {
      body.append('meta', JSON.stringify(f.meta));
      body.append('file', f.blob, f.name);
    }
    sent.push(fetch(`${base}/frames`, { method: 'POST', body })
      .then(async (res) => { if (!res.ok) throw await problemOf(res); })
      .catch((p) => failures.push(p)));
  };
  return {
    add(blob, name, meta) {
      queued.push({ blob, name, meta });
      if (queued.length >= FRAMES_PER_REQUEST) send();
    },
    /** Sends what is queued and waits for every request; rejects with the first problem. */
    async finish() {
      send();
      await Promise.all(sent);
      if (failures.length) throw failures[0];
    },
  };
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
  watchForPhoneSubmit();
}

// While the capture continues on the phone, this page asks now and then whether it was submitted
// there, and then finishes as the phone did (return_url included). It stops when the session ends.
let watching = false;
function watchForPhoneSubmit() {
  if (watching) return;
  watching = true;
  const timer = setInterval(async () => {
    if (!document.body.contains(form)) return clearInterval(timer); // finished here after all
    try {
      const res = await fetch(`${base}/session`, { cache: 'no-store' });
      if (res.status === 401 || res.status === 410) return clearInterval(timer);
      if (!res.ok) return;
      const session = await res.json();
      if (session.status !== 'collecting' && document.body.contains(form)) {
        clearInterval(timer);
        finished(strings.handoffDone);
      }
    } catch {
      // offline for a moment: ask again at the next tick
    }
  }, 4000);
}

const canRecord = Boolean(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.HTMLCanvasElement);
if (!canRecord) offerHandoff(strings.noCamera);

function colourAt(challenge, t) {
  const seg = challenge.colours.find((c) => t >= c.start_ms && t < c.start_ms + c.duration_ms);
  return seg || challenge.colours[challenge.colours.length - 1];
}

// Version 2 challenges carry the script: a straight look until neutral_ms, then each step's prompt
// exactly inside its slot (the server looks for each step there). Version 1: equal parts.
function instructionAt(challenge, t) {
  if (challenge.slots) {
    if (t < challenge.neutral_ms) return strings.liveNeutral;
    const slot = challenge.slots.find((s) => t >= s.start_ms && t < s.end_ms) || challenge.slots[challenge.slots.length - 1];
    return strings[slot.step];
  }
  const perStep = challenge.capture_ms / (challenge.steps.length + 1);
  const i = Math.floor(t / perStep) - 1; // the first slot is the neutral reference pose
  return i < 0 ? strings.liveNeutral : strings[challenge.steps[Math.min(i, challenge.steps.length - 1)]];
}

// ---- live guidance: light and framing measured here (hosted/guidance.js), several faces and the
// steps from the server's live preview check: a 320x240 JPEG of the preview at most every 250 ms,
// one at a time (a slow answer skips frames rather than queueing them). Advice only: when the check
// is unavailable, rate-limited or fails, the page carries on without it.
const guidanceEl = document.getElementById('guidance');
const stepHint = document.getElementById('step-hint');
const PREVIEW_MS = 250;

function createPreviewLoop() {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 240;
  const ctx = canvas.getContext('2d');
  const answers = [];
  let busy = false, pausedUntil = 0, timer = null, onAnswer = null;
  const send = () => {
    const now = performance.now();
    if (busy || now < pausedUntil || !video.videoWidth) return;
    busy = true;
    ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
    canvas.toBlob(async (blob) => {
      try {
        if (!blob) return;
        const res = await fetch(`${base}/preview`, { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: blob });
        if (!res.ok) { pausedUntil = performance.now() + (res.status === 429 ? 10000 : 3000); return; }
        const answer = await res.json();
        answers.push(answer);
        if (answers.length > 8) answers.shift();
        if (onAnswer) onAnswer(answer, now);
      } catch {
        pausedUntil = performance.now() + 3000;
      } finally {
        busy = false;
      }
    }, 'image/jpeg', 0.7);
  };
  return {
    start() { if (!timer) { timer = setInterval(send, PREVIEW_MS); send(); } },
    stop() { clearInterval(timer); timer = null; onAnswer = null; },
    faces() { return facesSeen(answers); },
    /** Calls `fn(answer, takenAt)` for each answer from now on (takenAt: performance.now() when its frame was drawn). */
    listen(fn) { onAnswer = fn; },
  };
}

/**
 * Shows the preview with live guidance and resolves once the frame has been good for about one
 * second, or after `maxMs` regardless: guidance helps, it never locks an applicant out (the server
 * judges the capture either way).
 */
function guideUntilReady(maxMs, preview) {
  const small = document.createElement('canvas');
  small.width = 64;
  small.height = 48;
  const sctx = small.getContext('2d', { willReadFrequently: true });
  guidanceEl.hidden = false;
  return new Promise((resolve) => {
    const t0 = performance.now();
    let goodSince = null;
    const tick = () => {
      sctx.drawImage(video, 0, 0, small.width, small.height);
      const m = measureFrame(sctx.getImageData(0, 0, small.width, small.height).data, small.width, small.height);
      const key = guidanceFor(m, preview.faces());
      guidanceEl.textContent = strings[key || 'guideOk'];
      guidanceEl.dataset.guidance = key || 'ok';
      console.debug('guidance', JSON.stringify(m));
      guidanceEl.className = key ? 'error' : '';
      const now = performance.now();
      if (key) goodSince = null;
      else if (goodSince === null) goodSince = now;
      if ((goodSince !== null && now - goodSince >= 1000) || now - t0 >= maxMs) return resolve(key);
      setTimeout(tick, 250);
    };
    tick();
  });
}
const GUIDANCE_MAX_MS = 8000;

// ---- the camera track's facts, for the server's injection evidence (liveness v4 `capture_source`) ----
// A real-time face swap reaches the page as a virtual camera: a software device name, no sensor
// controls, and whenever the swap falls behind, a repeat of its last picture (a sensor's noise makes
// every real frame differ). The page reports what it sees; the server judges, and never on these alone.
async function cameraFacts(track) {
  const facts = { label: String(track.label || '').slice(0, 256) };
  const settings = {};
  const raw = track.getSettings ? track.getSettings() : {};
  for (const [k, v] of Object.entries(raw)) {
    // deviceId/groupId are per-origin identifiers the server has no use for.
    if (k === 'deviceId' || k === 'groupId') continue;
    if (typeof v === 'number' || typeof v === 'boolean') settings[k] = v;
    else if (typeof v === 'string') settings[k] = v.slice(0, 128);
  }
  facts.settings = settings;
  if (track.getCapabilities) facts.capabilities = Object.keys(track.getCapabilities()).slice(0, 64);
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    const count = (kind) => Math.min(64, devices.filter((d) => d.kind === kind).length);
    facts.devices = { videoinput: count('videoinput'), audioinput: count('audioinput'), audiooutput: count('audiooutput') };
  } catch { /* not available: the facts go without */ }
  return facts;
}

/**
 * Every camera frame the browser hands the video element (requestVideoFrameCallback): how many,
 * how many were pixel-identical to the one before on a 64x48 copy, and their intervals by the
 * camera's capture clock (else the media clock). `take()` returns what came since the last call.
 */
function createCameraWatch() {
  const supported = typeof HTMLVideoElement !== 'undefined' && 'requestVideoFrameCallback' in HTMLVideoElement.prototype;
  const small = document.createElement('canvas');
  small.width = 64;
  small.height = 48;
  const sctx = small.getContext('2d', { willReadFrequently: true });
  let running = false, prev = null, lastT = null, lastCount = null, clock = null;
  let presented = 0, duplicates = 0, intervals = [];
  const onFrame = (_now, md) => {
    if (!running) return;
    const hasCapture = typeof md.captureTime === 'number' && md.captureTime > 0;
    if (!clock) clock = hasCapture ? 'capture' : 'media';
    const t = clock === 'capture' && hasCapture ? md.captureTime : md.mediaTime * 1000;
    // An interval only between frames the page saw back to back (presentedFrames +1).
    if (lastT !== null && lastCount !== null && md.presentedFrames === lastCount + 1 && t > lastT) intervals.push(Math.round((t - lastT) * 10) / 10);
    sctx.drawImage(video, 0, 0, small.width, small.height);
    const px = sctx.getImageData(0, 0, small.width, small.height).data;
    if (prev) {
      let same = true;
      for (let i = 0; i < px.length; i++) if (px[i] !== prev[i]) { same = false; break; }
      if (same) duplicates++;
    }
    presented++;
    prev = px;
    lastT = t;
    lastCount = md.presentedFrames;
    video.requestVideoFrameCallback(onFrame);
  };
  return {
    supported,
    clock: () => clock,
    start() { if (supported && !running) { running = true; video.requestVideoFrameCallback(onFrame); } },
    stop() { running = false; },
    take() {
      if (!supported) return undefined;
      // The schema caps counts at 1000 (a long guidance period at 60 fps): scale both alike.
      const k = presented > 1000 ? 1000 / presented : 1;
      const out = { presented: Math.round(presented * k), duplicates: Math.round(duplicates * k), intervals_ms: intervals.slice(-64) };
      presented = 0; duplicates = 0; intervals = [];
      return out;
    },
  };
}

/** The first frame's meta with the facts, trimmed to the upload form's 4 KiB field limit. */
function withFacts(meta, facts, clock) {
  const out = { ...meta, source: { ...facts, ...(clock ? { clock } : {}) } };
  if (JSON.stringify(out).length > 3800) delete out.source.capabilities;
  if (JSON.stringify(out).length > 3800) delete out.source.settings;
  if (JSON.stringify(out).length > 3800 && out.camera) out.camera.intervals_ms = [];
  return out;
}

const RGB = { red: 'rgb(255,0,0)', green: 'rgb(0,255,0)', blue: 'rgb(0,0,255)', yellow: 'rgb(255,255,0)', magenta: 'rgb(255,0,255)', cyan: 'rgb(0,255,255)' };

async function recordLiveness() {
  let stream;
  delete liveStatus.dataset.missed; // a new recording: the last one's advice no longer applies
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } }, audio: false });
  } catch (err) {
    offerHandoff(err && err.name === 'NotAllowedError' ? strings.cameraDenied : strings.noCamera);
    return;
  }
  startButton.disabled = true;
  livenessDone = false;
  const preview = createPreviewLoop();
  const cameraWatch = createCameraWatch();
  try {
    // Guidance first: the challenge's clock (and its deadline) start only once the applicant is ready.
    const facts = await cameraFacts(stream.getVideoTracks()[0]);
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    cameraWatch.start();
    preview.start();
    await guideUntilReady(GUIDANCE_MAX_MS, preview);
    guidanceEl.hidden = true;
    const res = await fetch(`${base}/challenge`, { method: 'POST' });
    if (!res.ok) throw await problemOf(res);
    const challenge = await res.json();
    const canvas = document.createElement('canvas');
    const scale = FRAME_WIDTH / (video.videoWidth || 640);
    canvas.width = FRAME_WIDTH;
    canvas.height = Math.round((video.videoHeight || 480) * scale);
    const ctx = canvas.getContext('2d');

    flash.prepend(video); // the applicant sees themselves inside the coloured screen
    flash.hidden = false;
    const frames = createFrameSender();
    const t0 = performance.now();
    // "Step not yet done" and "several faces" while recording (hosted/guidance.js createStepWatch).
    const watch = createStepWatch(challenge);
    const answers = [];
    preview.listen((answer, takenAt) => { answers.push(answer); watch.observe(Math.round(takenAt - t0), answer); });
    let n = 0;
    await new Promise((resolve) => {
      const tick = () => {
        const t = Math.round(performance.now() - t0);
        if (t >= challenge.capture_ms) return resolve();
        const colour = colourAt(challenge, t).colour;
        flash.style.background = RGB[colour];
        instruction.textContent = instructionAt(challenge, t);
        const notSeen = watch.pending(t);
        const hint = (preview.faces() ?? 0) >= 2 ? 'guideSeveral' : notSeen ? `pending_${notSeen}` : null;
        if ((stepHint.dataset.hint || null) !== hint) {
          stepHint.textContent = hint ? strings[hint] : '';
          stepHint.hidden = !hint;
          if (hint) stepHint.dataset.hint = hint; else delete stepHint.dataset.hint;
        }
        ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
        const camera = cameraWatch.take();
        const plain = { nonce: challenge.nonce, timestamp_ms: t, colour, ...(camera ? { camera } : {}) };
        // The first frame carries the track's facts; each frame the camera frames since the one before.
        const meta = n === 0 ? withFacts(plain, facts, cameraWatch.clock()) : plain;
        const name = `frame-${String(n++).padStart(3, '0')}.jpg`;
        canvas.toBlob((blob) => {
          if (blob) frames.add(blob, name, meta);
        }, 'image/jpeg', 0.85);
        setTimeout(tick, 1000 / FPS);
      };
      tick();
    });
    flash.hidden = true;
    preview.stop();
    say(liveStatus, strings.liveUploading);
    await new Promise((r) => setTimeout(r, 200)); // let the last toBlob callbacks queue their frames
    await frames.finish();
    livenessDone = true;
    // Advice only, before submit: a turn or nod the live preview never saw in its slot may not have
    // been made (a prompt missed); the applicant may record again or submit as it is.
    const missed = [...new Set((watch.missed() || []).map((slot) => strings[`missed_${slot.step}`]))];
    const seenOf = recordingAdvice(answers);
    const advice = [
      ...(seenOf.several ? [strings.liveSeveral] : []),
      ...(seenOf.faceMissing ? [strings.liveNoFace] : []),
      ...(missed.length ? [strings.liveMissed.replace('{steps}', missed.join(` ${strings.missedAnd} `))] : []),
    ];
    say(liveStatus, advice.length ? `${strings.liveRecorded} ${advice.join(' ')} ${strings.liveRetake}` : strings.liveDone);
    liveStatus.dataset.missed = advice.length ? 'true' : 'false';
    startButton.textContent = strings.liveRetry;
  } catch (problem) {
    flash.hidden = true;
    say(liveStatus, (problem && problem.detail) || strings.failed, true);
  } finally {
    preview.stop();
    cameraWatch.stop();
    stepHint.hidden = true;
    delete stepHint.dataset.hint;
    stream.getTracks().forEach((track) => track.stop());
    guidanceEl.hidden = true;
    video.hidden = true;
    document.getElementById('liveness').insertBefore(video, startButton);
    startButton.disabled = false;
  }
}

startButton.addEventListener('click', () => {
  void recordLiveness();
});

// ---- documents: each photo is sent as soon as it is chosen, and the quick check's advice shown ----
// The advice only advises: the applicant may keep the photo (it is stored) or take it again.
const uploaded = {}; // kind -> the File that the server holds for it

function documentType() {
  return (form.document.value.split('|')[1]) || '';
}

function showAdvice(kind, state, advice) {
  const box = document.getElementById(`${kind}-advice`);
  const retake = form.querySelector(`.retake[data-for="${kind}"]`);
  const keep = document.getElementById(`${kind}-keep`);
  box.replaceChildren();
  box.className = 'advice';
  retake.hidden = true;
  keep.hidden = true;
  box.dataset.state = state;
  if (state === 'checking') {
    box.textContent = strings.adviceChecking;
  } else if (state === 'error') {
    box.className = 'advice error';
    box.textContent = advice;
  } else if (advice && advice.status === 'checked' && advice.issues.length) {
    box.className = 'advice warn';
    box.dataset.issues = advice.issues.join(' ');
    const intro = document.createElement('p');
    intro.textContent = strings.adviceIntro;
    const list = document.createElement('ul');
    for (const code of advice.issues) {
      const item = document.createElement('li');
      item.textContent = strings[code] || code;
      list.append(item);
    }
    box.append(intro, list);
    retake.hidden = false;
    keep.hidden = false;
  } else if (advice && advice.status === 'checked') {
    box.className = 'advice ok';
    box.textContent = strings.adviceOk;
  }
  // 'unavailable': nothing to say; the photo is stored and will be judged after submit.
}

async function sendDocument(kind) {
  const file = form[kind].files[0];
  if (!file) return;
  showAdvice(kind, 'checking');
  try {
    const body = new FormData();
    body.append('kind', kind);
    if (documentType()) body.append('document_type', documentType());
    body.append('file', file, file.name || `${kind}.jpg`);
    const res = await fetch(`${base}/uploads`, { method: 'POST', body });
    if (!res.ok) throw await problemOf(res);
    const stored = await res.json();
    uploaded[kind] = file;
    showAdvice(kind, 'done', stored.advice);
  } catch (problem) {
    delete uploaded[kind];
    showAdvice(kind, 'error', (problem && problem.detail) || strings.failed);
  }
}

for (const kind of ['document_front', 'document_back']) {
  form[kind].addEventListener('change', () => void sendDocument(kind));
}
// Retake opens the camera (or file picker) again; a new photo replaces the stored one.
for (const button of form.querySelectorAll('.retake')) {
  button.addEventListener('click', () => form[button.dataset.for].click());
}
// The MRZ is looked for only where the chosen document has one: check chosen photos again.
form.document.addEventListener('change', () => {
  for (const kind of ['document_front', 'document_back']) if (form[kind].files[0]) void sendDocument(kind);
});

// ---- submit ----
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = document.getElementById('submit');
  const front = form.document_front.files[0];
  if (!front && !uploaded.document_front) return say(statusEl, strings.needFront, true);
  if (!livenessDone) return say(statusEl, strings.needLive, true);
  button.disabled = true;
  say(statusEl, strings.uploading);
  try {
    // Photos already sent when they were chosen are not sent twice.
    if (front && uploaded.document_front !== front) await upload('document_front', front, front.name || 'front.jpg');
    const back = form.document_back.files[0];
    if (back && uploaded.document_back !== back) await upload('document_back', back, back.name || 'back.jpg');
    const [country, type] = form.document.value.split('|');
    const res = await fetch(`${base}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ document: { country, type } }),
    });
    if (!res.ok) throw await problemOf(res);
    finished(strings.submitted);
  } catch (problem) {
    say(statusEl, (problem && problem.detail) || strings.failed, true);
    button.disabled = false;
  }
});
