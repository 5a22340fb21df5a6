import { describe, expect, it } from 'vitest';
import { diffDefinitions } from './definition-diff.js';

describe('diffDefinitions', () => {
  it('names each changed, added and removed leaf by path, and nothing else', () => {
    const v1 = { pieces: [{ type: 'document_capture', settings: { accepted_documents: [{ country: 'MOZ', types: ['passport'] }] } }, { type: 'record_match', settings: { mode: 'simple_match' } }] };
    const v2 = { pieces: [{ type: 'document_capture', settings: { accepted_documents: [{ country: 'MOZ', types: ['passport', 'national_id'] }] } }, { type: 'record_match', settings: { mode: 'rules' } }, { type: 'selfie_liveness', settings: {} }] };
    expect(diffDefinitions(v1, v2)).toEqual([
      { path: 'pieces[0].settings.accepted_documents[0].types[1]', before: undefined, after: 'national_id' },
      { path: 'pieces[1].settings.mode', before: 'simple_match', after: 'rules' },
      { path: 'pieces[2]', before: undefined, after: { type: 'selfie_liveness', settings: {} } },
    ]);
    expect(diffDefinitions(v1, structuredClone(v1))).toEqual([]);
  });
});
