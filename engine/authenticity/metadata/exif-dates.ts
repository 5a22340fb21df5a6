/**
 * EXIF dates are "YYYY:MM:DD HH:MM:SS" in the camera's local time, with an optional separate
 * offset tag (EXIF 2.31). Without the offset the instant is only known within ±14 h, which the
 * capture-time check must respect. We parse the strings ourselves so that the result does not
 * depend on the time zone of the process that runs the engine.
 */
export interface ExifInstant {
  /** Milliseconds since epoch, reading the wall clock as if it were UTC. */
  wallClockAsUtcMs: number;
  /** Offset in minutes east of UTC when the file states it, else null. */
  offsetMinutes: number | null;
}

export function parseExifDate(value: unknown, offset?: unknown): ExifInstant | null {
  let text: string | null = null;
  if (typeof value === 'string') text = value;
  else if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return { wallClockAsUtcMs: value.getTime() - value.getTimezoneOffset() * 60_000, offsetMinutes: parseOffset(offset) };
  }
  if (!text) return null;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text.trim());
  if (!m) return null;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (Number.isNaN(ms) || +m[1]! < 1990) return null;
  return { wallClockAsUtcMs: ms, offsetMinutes: parseOffset(offset) };
}

function parseOffset(offset: unknown): number | null {
  if (typeof offset !== 'string') return null;
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset.trim());
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (+m[2]! * 60 + +m[3]!);
}

/** The UTC instant if the offset is known, else null (the caller then applies a tolerance). */
export function exactUtcMs(instant: ExifInstant): number | null {
  return instant.offsetMinutes === null ? null : instant.wallClockAsUtcMs - instant.offsetMinutes * 60_000;
}
