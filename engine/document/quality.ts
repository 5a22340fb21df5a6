import sharp from 'sharp';
import { normalizeImage } from './image/normalize.js';
import { locateMrzBands } from './mrz/locate.js';
import type { TDocumentEngineSettings } from './settings.js';

/**
 * At-once capture feedback (2.x): cheap checks an applicant can act on before submitting —
 * blur and (for a passport page or an ID card's back) whether an MRZ-shaped band is visible at
 * all. Glare is not judged yet: the near-white share it was first measured by also fires on white
 * scan backgrounds (13 % on the Austrian ID scans), so it is reported as a metric only. It only advises: the Case is still judged in full after submit, and nothing
 * here is evidence. No OCR runs (a band search only), so it answers in a few hundred ms.
 */
export type QualityIssue = 'blurry' | 'mrz_not_found' | 'unreadable_image';
export interface QualityAdvice {
  ok: boolean;
  issues: QualityIssue[];
  /** One sentence per issue, per language, for the capture page. */
  messages: Record<'en' | 'pt' | 'es', string[]>;
  metrics: { sharpness: number; glareShare: number; mrzBands: number | null };
}

const MESSAGES: Record<QualityIssue, Record<'en' | 'pt' | 'es', string>> = {
  blurry: { en: 'The photo is blurred: hold still, let the camera focus and retake.', pt: 'A foto está desfocada: mantenha o telemóvel parado, deixe a câmara focar e tire outra.', es: 'La foto está borrosa: mantén el teléfono quieto, deja que la cámara enfoque y vuelve a tomarla.' },
  mrz_not_found: { en: 'We cannot see the two or three lines of code at the bottom (<<<): include the whole page and retake.', pt: 'Não vemos as linhas de código no fundo (<<<): inclua a página inteira e tire outra foto.', es: 'No vemos las líneas de código de la parte inferior (<<<): incluye toda la página y vuelve a tomar la foto.' },
  unreadable_image: { en: 'This file cannot be read: send a JPEG or PNG photo.', pt: 'Não conseguimos ler este ficheiro: envie uma foto JPEG ou PNG.', es: 'No podemos leer este archivo: envía una foto JPEG o PNG.' },
};

export interface QualityOptions { expectMrz: boolean }

/**
 * Sharpness is the variance of a 3×3 Laplacian on a 1000 px grey copy (limit in settings
 * `quality`); `glareShare` (near-white ≥ 250) is reported, not judged.
 */
export async function quickQuality(bytes: Buffer, s: TDocumentEngineSettings, opts: QualityOptions): Promise<QualityAdvice> {
  const q = s.quality!;
  let img;
  try {
    img = await normalizeImage(bytes, { ...s, acceptBmp: s.scan?.acceptBmp });
  } catch {
    return advice(['unreadable_image'], { sharpness: 0, glareShare: 0, mrzBands: null });
  }
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).greyscale().resize(1000, 1000, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true });
  const w = info.width, h = info.height;
  let sum = 0, sum2 = 0, n = 0, bright = 0;
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
    const i = y * w + x;
    const lap = 4 * data[i]! - data[i - 1]! - data[i + 1]! - data[i - w]! - data[i + w]!;
    sum += lap; sum2 += lap * lap; n++;
    if (data[i]! >= 250) bright++;
  }
  const sharpness = n ? sum2 / n - (sum / n) ** 2 : 0;
  const glareShare = n ? bright / n : 0;
  const issues: QualityIssue[] = [];
  if (sharpness < q.minSharpness) issues.push('blurry');
  let mrzBands: number | null = null;
  if (opts.expectMrz) {
    const bands = await locateMrzBands(img, { workSide: s.scan?.workSide ?? 1000, maxBands: 3, angles: undefined });
    mrzBands = bands.filter((b) => b.lines >= 2).length;
    if (!mrzBands) issues.push('mrz_not_found');
  }
  return advice(issues, { sharpness: Math.round(sharpness), glareShare: Math.round(glareShare * 1000) / 1000, mrzBands });
}

function advice(issues: QualityIssue[], metrics: QualityAdvice['metrics']): QualityAdvice {
  return {
    ok: issues.length === 0, issues, metrics,
    messages: { en: issues.map((i) => MESSAGES[i].en), pt: issues.map((i) => MESSAGES[i].pt), es: issues.map((i) => MESSAGES[i].es) },
  };
}
