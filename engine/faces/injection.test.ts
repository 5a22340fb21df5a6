import { describe, expect, it } from 'vitest';
import type { TLivenessFrameMeta } from '../../domain/liveness.js';
import { captureSourceSignal, labelClass } from './injection.js';
import { FACE_SETTINGS_V4 } from './settings.js';

const s = FACE_SETTINGS_V4.v2!.attack.injection!;
const nonce = 'a'.repeat(32);
const meta = (i: number, extra: Partial<TLivenessFrameMeta> = {}): TLivenessFrameMeta => ({ nonce, timestamp_ms: i * 100, colour: 'red', ...extra });

describe('capture_source (injection evidence)', () => {
  it('classifies device labels without keeping them', () => {
    expect(labelClass('OBS Virtual Camera', s)).toEqual({ cls: 'virtual', family: 'obs' });
    expect(labelClass('OBS-Camera', s).cls).toBe('virtual');
    expect(labelClass('ManyCam Virtual Webcam', s)).toEqual({ cls: 'virtual', family: 'manycam' });
    expect(labelClass('Dummy video device (0x0000)', s)).toEqual({ cls: 'virtual', family: 'v4l2loopback' });
    expect(labelClass('Cam Link 4K (0fd9:0066)', s)).toEqual({ cls: 'virtual', family: 'capture_card' });
    expect(labelClass('Logitech StreamCam (046d:0893)', s).cls).toBe('usb');
    expect(labelClass('fake_device_0', s)).toEqual({ cls: 'browser_fake', family: 'chromium_fake' });
    expect(labelClass('/tmp/swap.y4m', s)).toEqual({ cls: 'browser_fake', family: 'chromium_file' });
    expect(labelClass('HD Webcam C615 (046d:082c)', s).cls).toBe('usb');
    expect(labelClass('FaceTime HD Camera', s).cls).toBe('other');
    expect(labelClass('camera2 1, facing front', s).cls).toBe('other');
    expect(labelClass('', s).cls).toBe('empty');
  });

  it('is not measured when the page reported nothing (older pages, the bench, API clients)', () => {
    expect(captureSourceSignal([meta(0), meta(1)], s)).toEqual({ dissent: null, value: null, detail: { reported: false } });
  });

  it('says live for a USB camera whose frames all differ, and reports its timing', () => {
    const intervals = [33.2, 33.5, 33.1];
    const metas = [meta(0, { source: { label: 'Integrated Camera (04f2:b6d9)', capabilities: ['width', 'exposureMode', 'focusMode'], devices: { videoinput: 1, audioinput: 1, audiooutput: 1 }, clock: 'capture' }, camera: { presented: 3, duplicates: 0, intervals_ms: intervals } })];
    for (let i = 1; i < 10; i++) metas.push(meta(i, { camera: { presented: 3, duplicates: 0, intervals_ms: intervals } }));
    const r = captureSourceSignal(metas, s);
    expect(r.dissent).toBe(false);
    expect(r.value).toBe(0);
    expect(r.detail).toMatchObject({ label_class: 'usb', sensor_controls: 2, video_inputs: 1, camera_frames: 30, duplicate_frames: 0, findings: [] });
    expect((r.detail.timing as { intervals: number }).intervals).toBe(30);
    expect(JSON.stringify(r.detail)).not.toContain('04f2');
  });

  it('dissents on a virtual-camera label even when its frames differ', () => {
    const r = captureSourceSignal([meta(0, { source: { label: 'OBS Virtual Camera' }, camera: { presented: 3, duplicates: 0, intervals_ms: [] } })], s);
    expect(r.dissent).toBe(true);
    expect(r.detail.findings).toEqual(['label_virtual']);
    expect(r.detail.label_family).toBe('obs');
  });

  it('dissents on repeated frames (a renderer behind its output rate) under an innocent label', () => {
    const metas = Array.from({ length: 20 }, (_, i) => meta(i, { ...(i === 0 ? { source: { label: 'USB Camera (1bcf:2284)' } } : {}), camera: { presented: 3, duplicates: 1, intervals_ms: [33, 33, 34] } }));
    const r = captureSourceSignal(metas, s);
    expect(r.dissent).toBe(true);
    expect(r.value).toBeCloseTo(1 / 3, 3);
    expect(r.detail.findings).toEqual(['duplicate_frames']);
  });

  it('tolerates a few repeats (a browser glitch), and a client cannot claim more repeats than frames', () => {
    const few = Array.from({ length: 20 }, (_, i) => meta(i, { camera: { presented: 3, duplicates: i < 4 ? 1 : 0, intervals_ms: [] } }));
    expect(captureSourceSignal(few, s).dissent).toBe(false);
    const odd = captureSourceSignal([meta(0, { camera: { presented: 1, duplicates: 9, intervals_ms: [] } })], s);
    expect(odd.value).toBe(1);
  });
});
