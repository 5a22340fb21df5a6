/**
 * Synthetic document corpus: render genuine documents from templates, photograph them, degrade
 * them and forge them. See README.md in this folder for the API and the ground-truth format.
 */
export { renderDocument, visualValues, type RenderInput, type RenderedDocument, type DocumentTruth, type PixelBox } from './render.js';
export { randomIdentity, buildCurp, type DocumentIdentity } from './identity.js';
export { mrzLinesFor } from './mrz-data.js';
export { photograph, warpScene, type Scene } from './scene.js';
export { COMBINED_DEGRADATIONS, degrade, degradationFor, DEGRADATION_KINDS, type Degradation, type DegradationKind, type Severity } from './degrade.js';
export { forgeDocument, FORGERY_KINDS, EXPECTED_REASON, type ForgeryKind } from './forge.js';
export { availablePortraits, PORTRAITS, type PortraitRef } from './portraits.js';
export { createRng, subSeed } from './random.js';
export { ALL_TEMPLATES, CALIBRATED, templateById } from '../../engine/document/templates/catalogue.js';
