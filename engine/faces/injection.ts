import type { TCaptureSource, TLivenessFrameMeta } from '../../domain/liveness.js';
import { median, quantile } from './geometry.js';
import type { LivenessV2Settings } from './settings.js';

/**
 * Injection / virtual-camera evidence from what the hosted page reported about its camera track
 * (liveness v4, `capture_source`). A real-time face swap reaches a browser as a virtual camera
 * (OBS, ManyCam, v4l2loopback…) fed by the swap software; such a camera has a software name, no
 * sensor controls, and repeats its last picture whenever the swap falls behind the camera's frame
 * rate — a sensor never delivers two pixel-identical frames, because of its noise.
 *
 * Client-reported facts: an attacker who controls the page or talks to the API directly can send
 * anything, or nothing. So this is one signal in the fusion (one dissent → review), never a fail
 * on its own, and absent facts are "not measured", not a dissent.
 */

export type InjectionSettings = NonNullable<LivenessV2Settings['attack']['injection']>;

export type LabelClass = 'virtual' | 'browser_fake' | 'usb' | 'other' | 'empty';

/** The device label's class; the raw label never leaves this function (it may carry a name). */
export function labelClass(label: string, s: InjectionSettings): { cls: LabelClass; family: string | null } {
  const l = label.trim();
  if (!l) return { cls: 'empty', family: null };
  for (const [family, pattern] of Object.entries(s.browserFakeLabels)) if (new RegExp(pattern, 'i').test(l)) return { cls: 'browser_fake', family };
  for (const [family, pattern] of Object.entries(s.virtualLabels)) if (new RegExp(pattern, 'i').test(l)) return { cls: 'virtual', family };
  // Chromium appends a USB camera's vendor:product ids to its label ("HD Webcam (0c45:6366)").
  if (/\([0-9a-f]{4}:[0-9a-f]{4}\)\s*$/i.test(l)) return { cls: 'usb', family: null };
  return { cls: 'other', family: null };
}

export interface CaptureSourceSignal {
  dissent: boolean | null;
  /** Share of new camera frames that repeated the one before (null: not reported). */
  value: number | null;
  detail: Record<string, unknown>;
}

const r3 = (v: number) => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null);

export function captureSourceSignal(metas: TLivenessFrameMeta[], s: InjectionSettings): CaptureSourceSignal {
  const source: TCaptureSource | undefined = metas.find((m) => m.source)?.source;
  const cam = metas.filter((m) => m.camera).map((m) => m.camera!);
  if (!source && cam.length === 0) return { dissent: null, value: null, detail: { reported: false } };

  const findings: string[] = [];
  const detail: Record<string, unknown> = { reported: true };

  if (source) {
    const { cls, family } = labelClass(source.label, s);
    detail.label_class = cls;
    if (family) detail.label_family = family;
    if (cls === 'virtual' || cls === 'browser_fake') findings.push(`label_${cls}`);
    // Evidence only (see README "Liveness v4"): many genuine set-ups expose no sensor controls
    // (Firefox, some phones), so their absence alone says little.
    if (source.capabilities) {
      const controls = source.capabilities.filter((c) => s.sensorControls.includes(c));
      detail.sensor_controls = controls.length;
    }
    if (source.devices) detail.video_inputs = source.devices.videoinput;
    const fr = source.settings?.frameRate;
    if (typeof fr === 'number') detail.settings_frame_rate = r3(fr);
    if (source.clock) detail.clock = source.clock;
  }

  let share: number | null = null;
  if (cam.length) {
    const presented = cam.reduce((a, c) => a + c.presented, 0);
    const duplicates = cam.reduce((a, c) => Math.min(a + c.duplicates, a + c.presented), 0);
    share = presented ? duplicates / presented : null;
    detail.camera_frames = presented;
    detail.duplicate_frames = duplicates;
    detail.duplicate_share = share === null ? null : r3(share);
    if (share !== null && duplicates >= s.minDuplicates && share >= s.maxDuplicateShare) findings.push('duplicate_frames');

    // Frame timing: reported, not judged (README: no real-webcam timing here to set a bound on).
    const iv = cam.flatMap((c) => c.intervals_ms).filter((x) => x > 0);
    if (iv.length >= 10) {
      const med = median(iv);
      const mean = iv.reduce((a, b) => a + b, 0) / iv.length;
      const sd = Math.sqrt(iv.reduce((a, b) => a + (b - mean) ** 2, 0) / iv.length);
      detail.timing = {
        intervals: iv.length,
        median_ms: r3(med),
        fps: r3(1000 / med),
        cv: r3(sd / mean),
        p90_abs_dev_ms: r3(quantile(iv.map((x) => Math.abs(x - med)), 0.9)),
        on_grid_share: r3(iv.filter((x) => Math.abs(x - med) <= 0.5).length / iv.length),
        long_gaps: iv.filter((x) => x > 1.8 * med).length,
      };
    }
  }
  detail.findings = findings;
  return { dissent: findings.length > 0, value: share === null ? null : r3(share), detail };
}
