import { describe, expect, it } from 'vitest';
import type { TCheckSummary } from './checks.js';
import { decide } from './policy.js';

const pass = (check: TCheckSummary['check'], score = 0.95): TCheckSummary => ({ check, status: 'passed', reasons: [], score, component: 'x@1' });
const all = (): TCheckSummary[] => [pass('document_ocr'), pass('template_match'), { ...pass('authenticity'), score: 0.05 }, pass('liveness'), pass('face_match', 0.8)];

describe('decision policy dp-2026.11-1', () => {
  it('all checks passed → no_material_concerns with the weakest support as confidence', () => {
    expect(decide('dp-2026.11-1', all())).toEqual({ assessment: 'no_material_concerns', confidence: 0.8, summary_reasons: [] });
  });

  it('an unavailable or missing required check → assessment_incomplete, never a pass', () => {
    const s = all().map((x) => (x.check === 'liveness' ? { ...x, status: 'unavailable' as const, reasons: ['faces_engine_unavailable'], score: null } : x));
    expect(decide('dp-2026.11-1', s)).toMatchObject({ assessment: 'assessment_incomplete', confidence: 0, summary_reasons: ['liveness_unavailable', 'faces_engine_unavailable'] });
    expect(decide('dp-2026.11-1', all().slice(0, 4)).summary_reasons).toEqual(['face_match_unavailable']);
    expect(decide('dp-2026.11-1', []).assessment).toBe('assessment_incomplete');
  });

  it('incomplete still lists what the other checks found', () => {
    const s = all().filter((x) => x.check !== 'face_match').map((x) => (x.check === 'template_match' ? { ...x, status: 'failed' as const, reasons: ['document_expired'] } : x));
    expect(decide('dp-2026.11-1', s).summary_reasons).toEqual(['face_match_unavailable', 'document_expired']);
  });

  it('a failed check → material_inconsistency with its reasons', () => {
    const s = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['screen_recapture_suspected'], score: 0.92 } : x));
    expect(decide('dp-2026.11-1', s)).toEqual({ assessment: 'material_inconsistency', confidence: 0.92, summary_reasons: ['screen_recapture_suspected'] });
  });

  it('the uncalibrated tamper classifier alone recommends review, never a material inconsistency', () => {
    const alone = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['tampering_suspected'], score: 0.95 } : x));
    expect(decide('dp-2026.11-1', alone)).toMatchObject({ assessment: 'manual_review_recommended', summary_reasons: ['tampering_suspected'] });
    const withEditor = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['tampering_suspected', 'editing_software_detected'], score: 0.95 } : x));
    expect(decide('dp-2026.11-1', withEditor).assessment).toBe('material_inconsistency');
  });

  it('a review signal or an uncalibrated document → manual_review_recommended', () => {
    const weak = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'review' as const, reasons: ['editing_software_detected'], score: 0.4 } : x));
    expect(decide('dp-2026.11-1', weak)).toMatchObject({ assessment: 'manual_review_recommended', summary_reasons: ['editing_software_detected'] });
    const uncal = all().map((x) => (x.check === 'template_match' ? { ...x, reasons: ['uncalibrated_document_scope'] } : x));
    expect(decide('dp-2026.11-1', uncal)).toMatchObject({ assessment: 'manual_review_recommended', summary_reasons: ['uncalibrated_document_scope'] });
  });

  it('record match never changes the assessment', () => {
    const base = decide('dp-2026.11-1', all());
    expect(decide('dp-2026.11-1', [...all(), { check: 'record_match', status: 'failed', reasons: ['record_name_mismatch'], score: 0.1, component: 'r@1' }])).toEqual(base);
  });

  it('dp-2026.11-2 also caps a re-save finding alone at review; dp-2026.11-1 stays as released', () => {
    const resave = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['editor_resave_suspected'], score: 0.95 } : x));
    expect(decide('dp-2026.11-2', resave)).toMatchObject({ assessment: 'manual_review_recommended', summary_reasons: ['editor_resave_suspected'] });
    expect(decide('dp-2026.11-1', resave).assessment).toBe('material_inconsistency');
    const resaveAndScreen = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['screen_recapture_suspected', 'editor_resave_suspected'], score: 0.95 } : x));
    expect(decide('dp-2026.11-2', resaveAndScreen).assessment).toBe('material_inconsistency');
    const png = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'review' as const, reasons: ['not_camera_jpeg'], score: 0.15 } : x));
    expect(decide('dp-2026.11-2', png)).toMatchObject({ assessment: 'manual_review_recommended', summary_reasons: ['not_camera_jpeg'] });
  });

  it('dp-2026.11-3 caps a strong double-compression finding alone at review; -2 stays as released', () => {
    const regrid = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['double_compression_detected'], score: 0.6 } : x));
    expect(decide('dp-2026.11-3', regrid)).toMatchObject({ assessment: 'manual_review_recommended', summary_reasons: ['double_compression_detected'] });
    expect(decide('dp-2026.11-2', regrid).assessment).toBe('material_inconsistency');
    const withResave = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['double_compression_detected', 'editor_resave_suspected'], score: 0.9 } : x));
    expect(decide('dp-2026.11-3', withResave).assessment).toBe('manual_review_recommended');
    const withPrint = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['double_compression_detected', 'print_recapture_suspected'], score: 0.9 } : x));
    expect(decide('dp-2026.11-3', withPrint).assessment).toBe('material_inconsistency');
  });

  it('dp-2026.11-4 caps a strong editor-quantisation finding alone at review; -3 stays as released', () => {
    const tables = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['editor_quantization_detected'], score: 0.84 } : x));
    expect(decide('dp-2026.11-4', tables)).toMatchObject({ assessment: 'manual_review_recommended', summary_reasons: ['editor_quantization_detected'] });
    expect(decide('dp-2026.11-3', tables).assessment).toBe('material_inconsistency');
    const withSplice = all().map((x) => (x.check === 'authenticity' ? { ...x, status: 'failed' as const, reasons: ['editor_quantization_detected', 'thumbnail_inconsistent'], score: 0.9 } : x));
    expect(decide('dp-2026.11-4', withSplice).assessment).toBe('material_inconsistency');
  });

  it('capture expiry and unknown revisions', () => {
    expect(decide('dp-2026.11-1', [], { captureExpired: true })).toEqual({ assessment: 'assessment_incomplete', confidence: 0, summary_reasons: ['capture_expired'] });
    expect(() => decide('dp-1999', all())).toThrow(/unknown policy revision/);
  });
});
