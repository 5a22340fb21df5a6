// Types of hosted/guidance.js (a plain browser module, served as is; the bench imports it too).
export interface FrameMeasure { mean: number; centre: number; border: number; skin: number; cx: number; cy: number }
export type GuidanceKey = 'guideDark' | 'guideBacklit' | 'guideSeveral' | 'guideFar' | 'guideClose' | 'guideCentre';
export const GUIDE: { darkMean: number; backlitGap: number; backlitBorder: number; farSkin: number; closeSkin: number; offCentre: number };
export function measureFrame(data: ArrayLike<number>, w: number, h: number): FrameMeasure;
export function guidanceFor(m: FrameMeasure, faces?: number | null): GuidanceKey | null;
export interface PreviewAnswer { status: 'checked' | 'unavailable'; faces: number; face: { yaw: number; pitch: number; size: number } | null }
export interface StepWatchOptions { turnShift: number; nodShift: number; hintAfter: number; minNeutral: number; minLooked: number }
export const STEP_WATCH: StepWatchOptions;
export interface ScriptLike { neutral_ms?: number; slots?: { step: string; start_ms: number; end_ms: number }[] }
export interface StepWatch {
  observe(t: number, answer: PreviewAnswer | null): void;
  pending(t: number): string | null;
  missed(): { step: string; start_ms: number; end_ms: number }[] | null;
  shift(face: PreviewAnswer['face']): { dx: number; dy: number } | null;
}
export function createStepWatch(challenge: ScriptLike, opts?: StepWatchOptions): StepWatch;
export function facesSeen(answers: (PreviewAnswer | null)[]): number | null;
export interface RecordingAdviceOptions { minChecked: number; noFaceShare: number }
export const RECORDING_ADVICE: RecordingAdviceOptions;
export function recordingAdvice(answers: (PreviewAnswer | null)[], opts?: RecordingAdviceOptions): { several: boolean; faceMissing: boolean; checked: number };
