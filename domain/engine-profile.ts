/**
 * The engine profile a new Case is stamped with. The profile's full content (component settings,
 * model hashes, thresholds) lives in `engine/profiles.ts`; a released id never changes meaning.
 */
export const CURRENT_ENGINE_PROFILE = 'ep-2026.12-46';
