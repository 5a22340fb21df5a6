import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { adviseCapture, type CaptureAdviceResult, type CaptureAdviceSettings } from './advice.js';
import { mrzReadParams, mrzWorker } from './ocr/workers.js';

/**
 * Runs capture advice off the api's event loop: the band search is synchronous pixel work (about
 * 0.3 s on an idle core, over 1 s under load) that would otherwise stall every other request of
 * the process. The MRZ tesseract worker lives here too. Messages: a job in, its reply out.
 */
export type AdviceRequest = { id: number; kind: 'advise'; image: Uint8Array; expectMrz: boolean } | { id: number; kind: 'warm' } | { id: number; kind: 'close' };
export type AdviceReply = { id: number; ok: true; result?: CaptureAdviceResult } | { id: number; ok: false };
export interface AdviceWorkerData { settings: CaptureAdviceSettings; mrzSha256: string }

const { settings, mrzSha256 } = workerData as AdviceWorkerData;
const tesseract = mrzWorker(mrzSha256);
const port = parentPort!;

async function handle(msg: AdviceRequest): Promise<AdviceReply> {
  if (msg.kind === 'advise') {
    const result = await adviseCapture(Buffer.from(msg.image.buffer, msg.image.byteOffset, msg.image.byteLength), msg.expectMrz, tesseract, settings);
    return { id: msg.id, ok: true, result };
  }
  if (msg.kind === 'warm') {
    // A blank strip of MRZ size starts the model (and checks its sha256) before the first upload.
    const blank = await sharp({ create: { width: 600, height: 80, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await tesseract.recognize(blank, mrzReadParams({}), 20_000, { lines: false });
    return { id: msg.id, ok: true };
  }
  await tesseract.close();
  return { id: msg.id, ok: true };
}

port.on('message', (msg: AdviceRequest) => {
  handle(msg).then(
    (reply) => port.postMessage(reply),
    () => port.postMessage({ id: msg.id, ok: false } satisfies AdviceReply),
  );
});
