import { lumaTableOf, type QuantTable } from './jpeg-structure.js';
import { ANNEX_K_LUMA, exactIjgQuality } from './quantization.js';

/**
 * Which encoder family wrote a JPEG's luminance quantisation table.
 *
 * Most encoders scale one base table by the IJG quality formula (libjpeg's
 * `jpeg_add_quant_table`), so a stored table is either exactly `ijgTable(base, q)` for one known
 * base and some quality q, or it is a table we do not know (many phone vendors write their own).
 * Matching exactly, over every quality, names the base. This is the quantisation half of a
 * "camera signature" check (Kee, Johnson & Farid, "Digital Image Authentication From JPEG
 * Headers", IEEE TIFS 6(3), 2011): a file whose tables come from a family that cameras do not
 * write was last saved by software.
 *
 * The bases are mozjpeg's `std_luminance_quant_tbl[9]` (jcparam.c; selected by cjpeg's
 * `-quant-table N` and by sharp/libvips' `quantisationTable`), index 0 being ITU-T T.81 Annex K,
 * which libjpeg, libjpeg-turbo, browsers and many phones use. Entries above 255 are kept as
 * published: at high qualities they scale into range.
 */
export const TABLE_FAMILIES = [
  'annex_k',
  'flat',
  'mssim_tuned',
  'imagemagick_robidoux',
  'psnr_hvs_tuned',
  'klein_silverstein_carney',
  'watson_taylor_borthwick',
  'ahumada_watson_peterson',
  'peterson_ahumada_watson',
] as const;
export type TableFamily = (typeof TABLE_FAMILIES)[number];

const BASE_LUMA: Record<TableFamily, readonly number[]> = {
  annex_k: ANNEX_K_LUMA,
  flat: new Array<number>(64).fill(16),
  mssim_tuned: [
    12, 17, 20, 21, 30, 34, 56, 63, 18, 20, 20, 26, 28, 51, 61, 55, 19, 20, 21, 26, 33, 58, 69, 55, 26, 26, 26, 30, 46, 87, 86,
    66, 31, 33, 36, 40, 46, 96, 100, 73, 40, 35, 46, 62, 81, 100, 111, 91, 46, 66, 76, 86, 102, 121, 120, 101, 68, 90, 90, 96,
    113, 102, 105, 103,
  ],
  imagemagick_robidoux: [
    16, 16, 16, 18, 25, 37, 56, 85, 16, 17, 20, 27, 34, 40, 53, 75, 16, 20, 24, 31, 43, 62, 91, 135, 18, 27, 31, 40, 53, 74,
    106, 156, 25, 34, 43, 53, 69, 94, 131, 189, 37, 40, 62, 74, 94, 124, 169, 238, 56, 53, 91, 106, 131, 169, 226, 311, 85, 75,
    135, 156, 189, 238, 311, 418,
  ],
  psnr_hvs_tuned: [
    9, 10, 12, 14, 27, 32, 51, 62, 11, 12, 14, 19, 27, 44, 59, 73, 12, 14, 18, 25, 42, 59, 79, 78, 17, 18, 25, 42, 61, 92, 87,
    92, 23, 28, 42, 75, 79, 112, 112, 99, 40, 42, 59, 84, 88, 124, 132, 111, 42, 64, 78, 95, 105, 126, 125, 99, 70, 75, 100,
    102, 116, 100, 107, 98,
  ],
  klein_silverstein_carney: [
    10, 12, 14, 19, 26, 38, 57, 86, 12, 18, 21, 28, 35, 41, 54, 76, 14, 21, 25, 32, 44, 63, 92, 136, 19, 28, 32, 41, 54, 75,
    107, 157, 26, 35, 44, 54, 70, 95, 132, 190, 38, 41, 63, 75, 95, 125, 170, 239, 57, 54, 92, 107, 132, 170, 227, 312, 86, 76,
    136, 157, 190, 239, 312, 419,
  ],
  watson_taylor_borthwick: [
    7, 8, 10, 14, 23, 44, 95, 241, 8, 8, 11, 15, 25, 47, 102, 255, 10, 11, 13, 19, 31, 58, 127, 255, 14, 15, 19, 27, 44, 83,
    181, 255, 23, 25, 31, 44, 72, 136, 255, 255, 44, 47, 58, 83, 136, 255, 255, 255, 95, 102, 127, 181, 255, 255, 255, 255,
    241, 255, 255, 255, 255, 255, 255, 255,
  ],
  ahumada_watson_peterson: [
    15, 11, 11, 12, 15, 19, 25, 32, 11, 13, 10, 10, 12, 15, 19, 24, 11, 10, 14, 14, 16, 18, 22, 27, 12, 10, 14, 18, 21, 24, 28,
    33, 15, 12, 16, 21, 26, 31, 36, 42, 19, 15, 18, 24, 31, 38, 45, 53, 25, 19, 22, 28, 36, 45, 55, 65, 32, 24, 27, 33, 42, 53,
    65, 77,
  ],
  peterson_ahumada_watson: [
    14, 10, 11, 14, 19, 25, 34, 45, 10, 11, 11, 12, 15, 20, 26, 33, 11, 11, 15, 18, 21, 25, 31, 38, 14, 12, 18, 24, 28, 33, 39,
    47, 19, 15, 21, 28, 36, 43, 51, 59, 25, 20, 25, 33, 43, 54, 64, 74, 34, 26, 31, 39, 51, 64, 77, 91, 45, 33, 38, 47, 59, 74,
    91, 108,
  ],
};

export interface TableFamilyMatch {
  /** Every known family that writes exactly this luminance table (more than one only near quality 100). */
  families: TableFamily[];
  /** The IJG quality at which the first listed family produces the table. */
  quality: number;
}

/** Null when the luminance table matches no known family (a vendor's own table, or a custom encoder). */
export function identifyTableFamily(tables: QuantTable[]): TableFamilyMatch | null {
  const luma = lumaTableOf(tables);
  if (!luma) return null;
  const hits = TABLE_FAMILIES.map((family) => ({ family, quality: exactIjgQuality(luma.values, BASE_LUMA[family]) })).filter((h) => h.quality !== null);
  if (hits.length === 0) return null;
  return { families: hits.map((h) => h.family), quality: hits[0]!.quality! };
}
