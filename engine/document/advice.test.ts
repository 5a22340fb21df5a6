import { describe, expect, it } from 'vitest';
import { expectsMrz } from '../../domain/capture-advice.js';
import { edgeGap } from './advice.js';

const band = (angle: number, left: number, width: number, top: number, height: number) => ({ angle, left, width, top, height, lines: 2, lineHeight: 20, score: 1 });

describe('capture advice geometry', () => {
  it('measures the MRZ band’s distance to the photo edge in line heights', () => {
    expect(edgeGap(band(0, 100, 800, 500, 60), 1000, 600)).toBeCloseTo(3.5);
    // the band search clamped the box at the left edge: the text runs into it
    expect(edgeGap(band(0, 0, 500, 200, 60), 1000, 600)).toBe(0);
  });

  it('turns a band found in a sideways photo back into the photo’s own frame', () => {
    // 600×1000 portrait turned 90° clockwise: turned (xt, yt) is photo (yt, 1000 − xt)
    expect(edgeGap(band(90, 100, 800, 500, 60), 600, 1000)).toBeCloseTo(3.5);
    expect(edgeGap(band(90, 0, 800, 500, 60), 600, 1000)).toBe(0);
    expect(edgeGap(band(-90, 100, 800, 500, 60), 600, 1000)).toBeCloseTo(3.5);
  });
});

describe('where an MRZ is expected', () => {
  it('passport front, ID card and residence permit back; never a driving licence or an unknown type', () => {
    expect(expectsMrz('passport', 'document_front')).toBe(true);
    expect(expectsMrz('passport', 'document_back')).toBe(false);
    expect(expectsMrz('national_id', 'document_back')).toBe(true);
    expect(expectsMrz('national_id', 'document_front')).toBe(false);
    expect(expectsMrz('residence_permit', 'document_back')).toBe(true);
    expect(expectsMrz('driving_licence', 'document_front')).toBe(false);
    expect(expectsMrz(undefined, 'document_front')).toBe(false);
  });
});
