/**
 * Known software families, matched against Software / CreatorTool / history / comment strings.
 * Only the family token goes into evidence, never the raw string (it can carry user or device names).
 *
 * `pixel_editor`: tools whose purpose is changing pixels; their tag on an ID capture is strong.
 * `organizer`: viewers, organisers, converters and RAW developers that also re-save files;
 * their tag says the file is not straight from the camera, which is worth a look, not a verdict.
 */
export type SoftwareKind = 'pixel_editor' | 'organizer';

const FAMILIES: { token: string; kind: SoftwareKind; pattern: RegExp }[] = [
  { token: 'adobe_photoshop', kind: 'pixel_editor', pattern: /photoshop/i },
  { token: 'gimp', kind: 'pixel_editor', pattern: /\bgimp\b/i },
  { token: 'affinity_photo', kind: 'pixel_editor', pattern: /affinity/i },
  { token: 'pixelmator', kind: 'pixel_editor', pattern: /pixelmator/i },
  { token: 'paint_net', kind: 'pixel_editor', pattern: /paint\.net/i },
  { token: 'paintshop', kind: 'pixel_editor', pattern: /paint ?shop|corel/i },
  { token: 'photopea', kind: 'pixel_editor', pattern: /photopea/i },
  { token: 'krita', kind: 'pixel_editor', pattern: /krita/i },
  { token: 'snapseed', kind: 'pixel_editor', pattern: /snapseed/i },
  { token: 'picsart', kind: 'pixel_editor', pattern: /picsart/i },
  { token: 'facetune', kind: 'pixel_editor', pattern: /facetune/i },
  { token: 'canva', kind: 'pixel_editor', pattern: /\bcanva\b/i },
  { token: 'fotor', kind: 'pixel_editor', pattern: /fotor/i },
  { token: 'photoscape', kind: 'pixel_editor', pattern: /photoscape/i },
  { token: 'polarr', kind: 'pixel_editor', pattern: /polarr/i },
  { token: 'meitu', kind: 'pixel_editor', pattern: /meitu/i },
  { token: 'ms_paint', kind: 'pixel_editor', pattern: /mspaint|microsoft paint|\bpaint 3d\b/i },
  { token: 'adobe_illustrator', kind: 'pixel_editor', pattern: /illustrator/i },
  { token: 'inkscape', kind: 'pixel_editor', pattern: /inkscape/i },
  { token: 'adobe_lightroom', kind: 'organizer', pattern: /lightroom/i },
  { token: 'shotwell', kind: 'organizer', pattern: /shotwell/i },
  { token: 'picasa', kind: 'organizer', pattern: /picasa/i },
  { token: 'digikam', kind: 'organizer', pattern: /digikam/i },
  { token: 'windows_photos', kind: 'organizer', pattern: /windows photo|microsoft windows photo|windows live photo/i },
  { token: 'acdsee', kind: 'organizer', pattern: /acdsee/i },
  { token: 'irfanview', kind: 'organizer', pattern: /irfanview/i },
  { token: 'xnview', kind: 'organizer', pattern: /xnview/i },
  { token: 'imagemagick', kind: 'organizer', pattern: /imagemagick|graphicsmagick/i },
  { token: 'gd_jpeg', kind: 'organizer', pattern: /gd-jpeg/i },
  { token: 'darktable', kind: 'organizer', pattern: /darktable|rawtherapee|capture one/i },
  { token: 'google_photos', kind: 'organizer', pattern: /google photos|picasa/i },
  { token: 'adobe_other', kind: 'organizer', pattern: /\badobe\b/i },
];

export interface SoftwareMatch {
  token: string;
  kind: SoftwareKind;
}

export function matchSoftware(text: string): SoftwareMatch | null {
  for (const f of FAMILIES) if (f.pattern.test(text)) return { token: f.token, kind: f.kind };
  return null;
}
