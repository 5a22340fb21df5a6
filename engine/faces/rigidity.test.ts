import { describe, expect, it } from 'vitest';
import type { Point } from './image.js';
import { landmarkDeformation, sheetRigidity } from './rigidity.js';
import { CURRENT_FACE_SETTINGS, FACE_SETTINGS_V4, PRINT_RIGIDITY_EXPERIMENT } from './settings.js';

// A rough 68-point face in 3-D (x right, y down, z towards the camera; eye distance ≈ 1): jaw,
// brows, eyes and mouth near one plane, the nose standing 0.35–0.6 out of it.
function face3d(): [number, number, number][] {
  const p: [number, number, number][] = [];
  for (let i = 0; i < 17; i++) { const t = (i / 16) * Math.PI; p.push([-Math.cos(t) * 0.95, 0.1 + Math.sin(t) * 0.95, -0.2 * Math.sin(t)]); }
  for (let i = 0; i < 10; i++) p.push([-0.8 + (i < 5 ? i * 0.15 : 0.35 + i * 0.15), -0.45 - 0.08 * Math.sin(((i % 5) / 4) * Math.PI), 0.05]);
  for (let i = 0; i < 4; i++) p.push([0, -0.3 + i * 0.13, 0.35 + i * 0.08]); // nose bridge 27–30
  for (let i = 0; i < 5; i++) p.push([-0.2 + i * 0.1, 0.25, 0.35 + (i === 2 ? 0.1 : 0)]); // nostrils 31–35
  const eye = (cx: number): [number, number, number][] => [[cx - 0.2, -0.25, 0], [cx - 0.1, -0.31, 0], [cx + 0.1, -0.31, 0], [cx + 0.2, -0.25, 0], [cx + 0.1, -0.19, 0], [cx - 0.1, -0.19, 0]];
  p.push(...eye(-0.5), ...eye(0.5)); // 36–47
  for (let i = 0; i < 12; i++) { const t = (i / 12) * 2 * Math.PI; p.push([-Math.cos(t) * 0.4, 0.55 + Math.sin(t) * 0.15, 0.05]); } // outer lips 48–59
  for (let i = 0; i < 8; i++) { const t = (i / 8) * 2 * Math.PI; p.push([-Math.cos(t) * 0.25, 0.55 + Math.sin(t) * 0.05, 0.05]); } // inner lips 60–67
  return p;
}

/** A pinhole view of the points after a yaw of `deg`, 100 px per unit, camera 6 units away. */
function view(pts: [number, number, number][], deg: number, shift: Point = [0, 0]): Point[] {
  const a = (deg * Math.PI) / 180;
  return pts.map(([x, y, z]) => {
    const xr = x * Math.cos(a) + z * Math.sin(a), zr = -x * Math.sin(a) + z * Math.cos(a);
    const s = 600 / (6 - zr);
    return [320 + shift[0] + xr * s, 240 + shift[1] + y * s];
  });
}

const flat = (pts: [number, number, number][]) => pts.map(([x, y]) => [x, y, 0] as [number, number, number]);

describe('rigid-sheet print cue (rigidity.ts)', () => {
  it('a flat sheet turned and moved stays rigid: parallax and deformation ≈ 0', () => {
    const sheet = flat(face3d());
    const r = sheetRigidity([0, 8, -6, 3].map((d, i) => ({ landmarks: view(sheet, d, [i * 5, -i * 3]), eyeDistance: 100 })))!;
    expect(r.parallax).toBeLessThan(1e-3);
    expect(r.deformation).toBeLessThan(1e-3);
  });

  it('a head turned by a few degrees shows nose parallax well above the proposed bound', () => {
    const head = face3d();
    const r = sheetRigidity([0, 6].map((d) => ({ landmarks: view(head, d), eyeDistance: 100 })))!;
    expect(r.parallax).toBeGreaterThan(PRINT_RIGIDITY_EXPERIMENT.v2!.attack.printRigidity!.maxParallax);
  });

  it('a blink deforms the landmarks however the face is held', () => {
    const open = view(face3d(), 0);
    const closed = open.map((p, i) => ([37, 38, 43, 44].includes(i) ? [p[0], p[1] + 8] : [40, 41, 46, 47].includes(i) ? [p[0], p[1] - 4] : p) as Point);
    expect(landmarkDeformation(open, closed, 100)).toBeGreaterThan(PRINT_RIGIDITY_EXPERIMENT.v2!.attack.printRigidity!.maxDeformation);
    expect(landmarkDeformation(open, open, 100)).toBeLessThan(1e-9);
  });

  it('needs two face frames; is in no released settings', () => {
    expect(sheetRigidity([{ landmarks: view(face3d(), 0), eyeDistance: 100 }])).toBeNull();
    expect(FACE_SETTINGS_V4.v2!.attack.printRigidity).toBeUndefined();
    expect(CURRENT_FACE_SETTINGS.v2!.attack.printRigidity).toBeUndefined();
  });
});
