import { describe, expect, it } from 'vitest';
import { recordingAdvice, type PreviewAnswer } from './guidance.js';

const face = { yaw: 0, pitch: 0.5, size: 0.3 };
const a = (faces: number): PreviewAnswer => ({ status: 'checked', faces, face: faces ? face : null });
const off: PreviewAnswer = { status: 'unavailable', faces: 0, face: null };

describe('recordingAdvice (the page after the recording)', () => {
  it('says nothing on fewer than 8 checked answers: an unavailable preview is no evidence', () => {
    expect(recordingAdvice([...Array(7).fill(a(0)), ...Array(20).fill(off)])).toEqual({ several: false, faceMissing: false, checked: 7 });
  });

  it('another face: two checked answers in a row with two faces or more, not one stray answer', () => {
    expect(recordingAdvice([...Array(10).fill(a(1)), a(2), a(1), a(2)]).several).toBe(false);
    expect(recordingAdvice([...Array(10).fill(a(1)), a(2), off, a(3)]).several).toBe(true);
  });

  it('face not seen: at least half the checked answers saw no face', () => {
    expect(recordingAdvice([...Array(6).fill(a(0)), ...Array(6).fill(a(1))]).faceMissing).toBe(true);
    expect(recordingAdvice([...Array(5).fill(a(0)), ...Array(7).fill(a(1))]).faceMissing).toBe(false);
  });
});
