// Live guidance of the hosted capture page: pure functions, so that the page (capture.js) and the
// offline bench (bench/guidance.ts, on real clips) run the same code. No DOM here.

// Light and framing, measured on a 64x48 copy of the preview. Luma (BT.601) of the whole frame, of
// the central ellipse where the page asks for the face, and of the border; skin-toned pixels (YCbCr
// box of Chai & Ngan, which holds across skin tones under white light) give the face's share of the
// frame and their centroid where it is. Thresholds are starting points, stated in engine/faces/README.md ("Live guidance").
// Several faces and the steps come from the server's live preview check (see createStepWatch):
// these 64x48 measures cannot see a turn (docs/decisions.md, "Live guidance: several faces and
// step not yet done").
export const GUIDE = { darkMean: 55, backlitGap: 45, backlitBorder: 150, farSkin: 0.04, closeSkin: 0.6, offCentre: 0.2 };

export function measureFrame(data, w, h) {
  let all = 0, centre = 0, nc = 0, border = 0, nb = 0, skin = 0, sx = 0, sy = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const r = data[i], g = data[i + 1], b = data[i + 2];
      const Y = 0.299 * r + 0.587 * g + 0.114 * b;
      const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      all += Y;
      if (Y > 35 && cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173) { skin++; sx += x + 0.5; sy += y + 0.5; }
      const dx = (x + 0.5 - w / 2) / (w * 0.28), dy = (y + 0.5 - h / 2) / (h * 0.36);
      if (dx * dx + dy * dy <= 1) { centre += Y; nc++; }
      else if (x < w * 0.12 || x >= w * 0.88 || y < h * 0.12 || y >= h * 0.88) { border += Y; nb++; }
    }
  }
  return {
    mean: all / (w * h), centre: centre / Math.max(1, nc), border: border / Math.max(1, nb), skin: skin / (w * h),
    // Skin centroid as a fraction of the frame (0.5, 0.5 = centred).
    cx: skin ? sx / skin / w : 0.5, cy: skin ? sy / skin / h : 0.5,
  };
}

/**
 * What to tell the applicant, most important first. `faces`: faces in the latest live preview
 * answers (null while none has come back, or when the check is unavailable).
 */
export function guidanceFor(m, faces = null) {
  if (m.mean < GUIDE.darkMean && m.border - m.centre < GUIDE.backlitGap) return 'guideDark';
  if (m.border - m.centre >= GUIDE.backlitGap && m.border >= GUIDE.backlitBorder) return 'guideBacklit';
  if (faces !== null && faces >= 2) return 'guideSeveral';
  if (m.skin < GUIDE.farSkin) return 'guideFar';
  if (m.skin > GUIDE.closeSkin) return 'guideClose';
  if (Math.abs(m.cx - 0.5) > GUIDE.offCentre || Math.abs(m.cy - 0.5) > GUIDE.offCentre) return 'guideCentre';
  return null;
}

// ---- "step not yet done": has the current step's movement been seen in its slot? ----
// From the live preview check's answers (POST {token}/preview, engine/faces/preview.ts): `yaw` is
// the nose's offset from the eyes' midpoint over the eye distance, `pitch` the nose's height between
// eyes and mouth. Each is compared with its median over the straight look (the neutral period), so
// a face's own shape and the camera's angle do not matter. Direction is not judged (a mirrored
// preview or a wrong estimate would make the page contradict a correct applicant); the server judges
// the steps in full. No hint for a blink: five points cannot see one, and a blink is shorter than
// the preview's period. STEP_WATCH thresholds were chosen with `npm run bench:guidance` on the
// tuning split of bench/liveness-labels.json (figures in engine/faces/README.md, "Live guidance").
export const STEP_WATCH = { turnShift: 0.1, nodShift: 0.08, hintAfter: 0.5, minNeutral: 2, minLooked: 3 };

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

/**
 * Watches a version 2 challenge's script. `observe(t, answer)` takes each live preview answer
 * (t: ms since the challenge started, when its frame was taken); `pending(t)` names the current
 * slot's step when its movement has not been seen yet and the slot is `hintAfter` through, else
 * null. Never a hint for a blink, or when the straight look gave no reference.
 */
export function createStepWatch(challenge, opts = STEP_WATCH) {
  const neutral = [];
  let ref = null;
  const seen = new Set();
  /** Checked answers per slot after the straight look: a slot is judged only on what was looked at. */
  const looked = new Map();
  const slotAt = (t) => (challenge.slots || []).find((s) => t >= s.start_ms && t < s.end_ms) || null;
  const shift = (face) => (ref && face ? { dx: Math.abs(face.yaw - ref.yaw), dy: Math.abs(face.pitch - ref.pitch) } : null);
  return {
    observe(t, answer) {
      const face = answer && answer.status === 'checked' ? answer.face : null;
      if (!challenge.slots || !face) return;
      if (t < challenge.neutral_ms) {
        neutral.push(face);
        return;
      }
      if (!ref && neutral.length >= opts.minNeutral) ref = { yaw: median(neutral.map((n) => n.yaw)), pitch: median(neutral.map((n) => n.pitch)) };
      const slot = slotAt(t);
      const s = shift(face);
      if (!slot || !s) return;
      looked.set(slot.start_ms, (looked.get(slot.start_ms) || 0) + 1);
      if ((slot.step === 'turn_left' || slot.step === 'turn_right') && s.dx >= opts.turnShift) seen.add(slot.start_ms);
      if (slot.step === 'nod' && s.dy >= opts.nodShift) seen.add(slot.start_ms);
    },
    pending(t) {
      const slot = slotAt(t);
      if (!ref || !slot || slot.step === 'blink' || seen.has(slot.start_ms)) return null;
      return t - slot.start_ms >= opts.hintAfter * (slot.end_ms - slot.start_ms) ? slot.step : null;
    },
    /**
     * After the script: the turns and nods whose slot ended with the movement never seen, among the
     * slots the preview looked at (at least `minLooked` checked answers). Null when nothing can be
     * said (no straight-look reference, no script). Direction is not judged, as for `pending`.
     */
    missed() {
      if (!ref || !challenge.slots) return null;
      return challenge.slots.filter((s) => s.step !== 'blink' && !seen.has(s.start_ms) && (looked.get(s.start_ms) || 0) >= opts.minLooked);
    },
    /** How far one answer's face is from the straight look (for the bench and the debug log). */
    shift,
  };
}

/**
 * Faces to tell the applicant about, from the latest live preview answers (newest last): the
 * smaller count of the last two checked answers, so that one detector slip does not flash
 * "several faces"; null without two checked answers.
 */
export function facesSeen(answers) {
  const checked = answers.filter((a) => a && a.status === 'checked').slice(-2);
  return checked.length < 2 ? null : Math.min(checked[0].faces, checked[1].faces);
}

/**
 * After the recording, what the live preview saw of the applicant during it (its answers, in
 * order): `several` when two checked answers in a row saw two faces or more (the "several faces"
 * rule), `faceMissing` when at least `noFaceShare` of the checked answers saw no face. Nothing is
 * said on fewer than `minChecked` checked answers (the preview was unavailable or rate-limited).
 */
export const RECORDING_ADVICE = { minChecked: 8, noFaceShare: 0.5 };
export function recordingAdvice(answers, opts = RECORDING_ADVICE) {
  const checked = answers.filter((a) => a && a.status === 'checked');
  if (checked.length < opts.minChecked) return { several: false, faceMissing: false, checked: checked.length };
  let several = false;
  for (let i = 1; i < checked.length; i++) if (Math.min(checked[i - 1].faces, checked[i].faces) >= 2) several = true;
  const none = checked.filter((a) => a.faces === 0).length;
  return { several, faceMissing: none / checked.length >= opts.noFaceShare, checked: checked.length };
}
