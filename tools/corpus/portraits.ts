import { existsSync } from 'node:fs';
import path from 'node:path';
import { facesDir } from '../../engine/assets.js';

/** Single-face photos from the shared set, grouped by identity (faces/README.md). */
export const PORTRAITS: { identity: string; file: string }[] = [
  { identity: 'obama', file: 'obama.jpg' }, { identity: 'obama', file: 'obama2.jpg' },
  { identity: 'biden', file: 'biden.jpg' }, { identity: 'biden', file: 'biden2.jpg' },
  { identity: 'kit', file: 'kit_harington_john1.jpeg' }, { identity: 'kit', file: 'kit_harington_john2.jpeg' },
  { identity: 'rose', file: 'rose_leslie_img1.jpg' }, { identity: 'rose', file: 'rose_leslie_img2.jpg' },
  { identity: 'alex', file: 'alex_lacamoire_img1.jpg' }, { identity: 'alex', file: 'alex-lacamoire.png' },
  { identity: 'brad', file: 'faceonnx/brad_1.jpg' }, { identity: 'brad', file: 'faceonnx/brad_2.jpg' },
  { identity: 'nicole', file: 'faceonnx/nicole_1.jpg' }, { identity: 'sarah', file: 'faceonnx/sarah_1.jpg' },
];

export interface PortraitRef { identity: string; file: string }

export function portraitPath(ref: PortraitRef): string {
  return path.isAbsolute(ref.file) ? ref.file : path.join(facesDir(), ref.file);
}

export function availablePortraits(): PortraitRef[] {
  return PORTRAITS.filter((p) => existsSync(portraitPath(p)));
}
