import type { Box } from './forensics/block-maps.js';

/**
 * Zone boxes arrive in the displayed frame (EXIF orientation applied, as every other engine sees
 * the image); forensics works in the stored frame where the JPEG grid lives. This maps them.
 */
export interface Zone extends Box {
  name: string;
}

export type ZoneKind = 'portrait' | 'mrz' | 'number';
export const ZONE_KINDS: readonly ZoneKind[] = ['portrait', 'mrz', 'number'];

export function zoneKind(name: string): ZoneKind | null {
  const n = name.toLowerCase();
  if (/portrait|photo|face/.test(n)) return 'portrait';
  if (/mrz/.test(n)) return 'mrz';
  if (/number|document_no|doc_no|id_no/.test(n)) return 'number';
  return null;
}

/** Displayed-frame box → stored-frame box for the rotations phones write (3, 6, 8). */
export function toStoredFrame(box: Box, orientation: number, storedWidth: number, storedHeight: number): Box {
  const { x, y, width: w, height: h } = box;
  switch (orientation) {
    case 3:
      return { x: storedWidth - (x + w), y: storedHeight - (y + h), width: w, height: h };
    case 6:
      return { x: y, y: storedHeight - (x + w), width: h, height: w };
    case 8:
      return { x: storedWidth - (y + h), y: x, width: h, height: w };
    default:
      return box;
  }
}
