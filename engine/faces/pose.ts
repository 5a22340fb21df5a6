import type { Point } from './image.js';

export interface HeadPose {
  /** Degrees; positive when the nose points to the image's right. */
  yaw: number;
  /** Degrees; positive when the chin goes up. Absolute values are biased: compare within a session. */
  pitch: number;
  roll: number;
  /**
   * The fitted rotation, rows r1, r2, r3 (camera x right, y up, z towards the camera ← model axes).
   * v8 compares two poses in the head's own frame with it (`relativeYawPitch`); the angles above are
   * read in the image's axes, where a rolled or lifted head's turn also moves pitch.
   */
  rotation?: [number[], number[], number[]];
}

/**
 * A generic 3-D head (x right, y up, z towards the camera, millimetre-like units) at the iBUG
 * points nose tip 30, chin 8, outer eye corners 36/45, mouth corners 48/54.
 */
const MODEL_POINTS: Array<[number, [number, number, number]]> = [
  [30, [0, 0, 0]],
  [8, [0, -330, -65]],
  [36, [-225, 170, -135]],
  [45, [225, 170, -135]],
  [48, [-150, -150, -125]],
  [54, [150, -150, -125]],
];

function solve3(A: number[][], b: number[]): number[] {
  const [a, c, d] = [A[0]!, A[1]!, A[2]!];
  const det = a[0]! * (c[1]! * d[2]! - c[2]! * d[1]!) - a[1]! * (c[0]! * d[2]! - c[2]! * d[0]!) + a[2]! * (c[0]! * d[1]! - c[1]! * d[0]!);
  const rep = (col: number) => A.map((row, i) => row.map((v, j) => (j === col ? b[i]! : v)));
  const det3 = (M: number[][]) =>
    M[0]![0]! * (M[1]![1]! * M[2]![2]! - M[1]![2]! * M[2]![1]!) -
    M[0]![1]! * (M[1]![0]! * M[2]![2]! - M[1]![2]! * M[2]![0]!) +
    M[0]![2]! * (M[1]![0]! * M[2]![1]! - M[1]![1]! * M[2]![0]!);
  return [det3(rep(0)) / det, det3(rep(1)) / det, det3(rep(2)) / det];
}

/**
 * Weak-perspective fit of the generic head to six landmarks (least squares for the 2×3 projection,
 * then orthonormalised). Cheap and stable enough to see a turn or a nod against the person's own
 * neutral pose; not an absolute pose estimate.
 */
export function estimatePose(landmarks: Point[]): HeadPose {
  return weakPerspective(MODEL_POINTS.map(([, p]) => p), MODEL_POINTS.map(([i]) => landmarks[i]!));
}

/**
 * Rigid face-mesh points (MediaPipe topology): forehead 10/151, nose bridge 168/6/197, outer and
 * inner eye corners 33/133/362/263, cheekbones 116/345. None moves with the mouth or the jaw, so
 * talking, smiling or yawning leaves the fitted pitch alone (the 68-point fit uses the chin and
 * the mouth corners, which is why it read speech as nodding).
 *
 * Reference: the mesh's own 3-D output on a frontal face (`../shared/faces/obama.jpg`),
 * mirror-symmetrised (left/right pairs averaged, midline at x = 0) so the reference has no yaw
 * of its own. Units: pixels of a 192-px crop; x right, y up, z towards the camera.
 */
const RIGID_REFERENCE: Array<[number, [number, number, number]]> = [
  [10, [0, 36.1, 6.6]],
  [151, [0, 24.2, 8.7]],
  [168, [0, -0.2, 9.9]],
  [6, [0, -5.5, 13.5]],
  [197, [0, -10.9, 17.2]],
  [33, [-35.05, -3.0, -7.5]],
  [263, [35.05, -3.0, -7.5]],
  [133, [-13.35, -4.05, -3.7]],
  [362, [13.35, -4.05, -3.7]],
  [116, [-49.35, -14.75, -16.8]],
  [345, [49.35, -14.75, -16.8]],
];
export const RIGID_MESH_POINTS = RIGID_REFERENCE.map(([i]) => i);

/** The weak-perspective fit itself (exported for tools/faces/rigid68-reference.ts, which rebuilds v6's reference). */
export function weakPerspectiveFit(model: Array<[number, number, number]>, image: Point[]): HeadPose {
  return weakPerspective(model, image);
}

function weakPerspective(model: Array<[number, number, number]>, image: Point[]): HeadPose {
  const n = model.length;
  const Q = image.map((p) => [p[0], -p[1]]); // image y down → model y up
  const mp = [0, 1, 2].map((k) => model.reduce((s, p) => s + p[k]!, 0) / n);
  const mq = [0, 1].map((k) => Q.reduce((s, q) => s + q[k]!, 0) / n);
  const Pc = model.map((p) => p.map((v, k) => v - mp[k]!));
  const Qc = Q.map((q) => q.map((v, k) => v - mq[k]!));
  const PtP = [0, 1, 2].map((i) => [0, 1, 2].map((j) => Pc.reduce((s, p) => s + p[i]! * p[j]!, 0)));
  const rows = [0, 1].map((r) => solve3(PtP, [0, 1, 2].map((i) => Pc.reduce((s, p, k) => s + p[i]! * Qc[k]![r]!, 0))));
  const norm = (v: number[]) => {
    const l = Math.hypot(...v);
    return v.map((x) => x / l);
  };
  const r1 = norm(rows[0]!);
  let r2 = rows[1]!;
  const dot = r1.reduce((s, v, i) => s + v * r2[i]!, 0);
  r2 = norm(r2.map((v, i) => v - dot * r1[i]!));
  const r3 = [r1[1]! * r2[2]! - r1[2]! * r2[1]!, r1[2]! * r2[0]! - r1[0]! * r2[2]!, r1[0]! * r2[1]! - r1[1]! * r2[0]!];
  const deg = 180 / Math.PI;
  // r3 is the model's z axis (out of the face) seen in camera coordinates.
  return { yaw: Math.atan2(r1[2]!, r3[2]!) * deg, pitch: Math.atan2(r2[2]!, r3[2]!) * deg, roll: Math.atan2(r1[1]!, r1[0]!) * deg, rotation: [r1, r2, r3] };
}

/**
 * v8: the mean of rotations (chordal: the summed matrices, orthonormalised again), for the neutral
 * pose of several frames. Undefined when a pose carries no rotation.
 */
export function meanRotation(poses: HeadPose[]): [number[], number[], number[]] | undefined {
  if (!poses.length || poses.some((p) => !p.rotation)) return undefined;
  const sum = [0, 1, 2].map((i) => [0, 1, 2].map((j) => poses.reduce((s, p) => s + p.rotation![i]![j]!, 0)));
  const norm = (v: number[]) => {
    const l = Math.hypot(...v);
    return v.map((x) => x / l);
  };
  const r1 = norm(sum[0]!);
  const d = r1.reduce((s, v, i) => s + v * sum[1]![i]!, 0);
  const r2 = norm(sum[1]!.map((v, i) => v - d * r1[i]!));
  const r3 = [r1[1]! * r2[2]! - r1[2]! * r2[1]!, r1[2]! * r2[0]! - r1[0]! * r2[2]!, r1[0]! * r2[1]! - r1[1]! * r2[0]!];
  return [r1, r2, r3];
}

/**
 * v8: yaw and pitch of a pose relative to a reference rotation, in the reference head's own frame:
 * where the face's forward axis now points, seen from the head as it was (the rotation R_ref^T R).
 * A turn about the neck reads as yaw whatever the head's roll or lift at the reference (in the
 * image's axes a rolled head's turn also reads as pitch). Same signs as `HeadPose`.
 */
export function relativeYawPitch(pose: HeadPose, ref: [number[], number[], number[]]): { yaw: number; pitch: number } {
  const v = forwardInReference(pose, ref);
  const deg = 180 / Math.PI;
  return { yaw: Math.atan2(v[0]!, v[2]!) * deg, pitch: Math.atan2(v[1]!, v[2]!) * deg };
}

/** The current head's forward axis (the third column of its rotation) in the reference head's coordinates: R_ref^T n. */
function forwardInReference(pose: HeadPose, ref: [number[], number[], number[]]): number[] {
  const R = pose.rotation!;
  const n = [R[0]![2]!, R[1]![2]!, R[2]![2]!];
  // The rows of R_ref are its camera-to-head map transposed.
  return [0, 1, 2].map((k) => ref[0]![k]! * n[0]! + ref[1]![k]! * n[1]! + ref[2]![k]! * n[2]!);
}

/**
 * v10: the whole rotation of the face from a reference, whatever kind of movement it is read as:
 * the angle (degrees) between the face's forward axis now and at the reference. A turn, a nod or
 * any diagonal between them is measured on one scale, so no turn/nod reading can shrink it.
 */
export function forwardAngle(pose: HeadPose, ref: [number[], number[], number[]]): number {
  const v = forwardInReference(pose, ref);
  return (Math.atan2(Math.hypot(v[0]!, v[1]!), v[2]!) * 180) / Math.PI;
}

/** Head pose from the rigid subset of a 468-point mesh (image x, y only; the mesh's z is not trusted). */
export function estimateRigidPose(mesh: ReadonlyArray<readonly [number, number, number]>): HeadPose {
  return weakPerspective(
    RIGID_REFERENCE.map(([, p]) => p),
    RIGID_REFERENCE.map(([i]) => [mesh[i]![0], mesh[i]![1]] as Point),
  );
}

/**
 * Settings v6: the rigid points of the 68-point model — nose bridge and tip 27–30, nose base
 * 31/33/35, inner and outer eye corners 36/39/42/45. No chin, jaw, mouth, brow or eyelid point, so
 * talking, smiling, raised brows and blinks leave the pose alone (what the mesh's rigid points
 * give), without running the 468-point mesh on every frame.
 *
 * Reference: the face mesh's own 3-D output at the mesh point nearest each of these landmarks on
 * a frontal photo (`../shared/faces/obama.jpg`: 27→6, 28→197, 29→5, 30→1, 31→75, 33→164, 35→305,
 * 36→144, 39→244, 42→256, 45→255), centred on the outer eye corners, roll removed, mirror-
 * symmetrised; then depth × 0.65 and height × 0.8, the one scaling under which the yaw and pitch of
 * this fit follow the mesh's rigid pose 1 : 1 over the tuning clips (least-squares slopes 1.00 and
 * 1.02 on 782 frames; correlation 0.97 / 0.96 before scaling): v4's 15° / 8° thresholds keep their
 * meaning. Rebuilt by `npx tsx tools/faces/rigid68-reference.ts`; measured against the mesh in
 * engine/faces/README.md "Liveness v6".
 */
const RIGID68_REFERENCE: Array<[number, [number, number, number]]> = [
  [27, [0, -0.6, 16.3]],
  [28, [0, -6.31, 19.52]],
  [29, [0, -16.88, 27.2]],
  [30, [0, -28.93, 27.35]],
  [33, [0, -36.18, 14.93]],
  [31, [-15.77, -29.52, 14.41]],
  [35, [15.77, -29.52, 14.41]],
  [36, [-41.31, 0, 0]],
  [45, [41.31, 0, 0]],
  [39, [-16.13, -0.93, 3.51]],
  [42, [16.13, -0.93, 3.51]],
];

/** Head pose from the rigid subset of the 68 landmarks (settings v6; see `RIGID68_REFERENCE`). */
export function estimateRigid68Pose(landmarks: Point[]): HeadPose {
  return weakPerspective(
    RIGID68_REFERENCE.map(([, p]) => p),
    RIGID68_REFERENCE.map(([i]) => landmarks[i]!),
  );
}
