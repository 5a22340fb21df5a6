/**
 * Lazily created engines, one instance per worker process (model sessions and OCR workers are
 * expensive to start and are reused across Cases). An engine that cannot start (models missing,
 * hash mismatch) is remembered as unavailable with its reason, and its checks report
 * `unavailable`: never a pass.
 */
/** `<engine>:<engine profile id>`: one instance per engine and profile, since settings differ between profiles. */
export type EngineName = `${'document' | 'faces' | 'authenticity'}:${string}`;

export type EngineSlot<T> = { ok: true; engine: T } | { ok: false; reason: string };

export interface EngineRegistry {
  get<T>(name: EngineName, create: () => Promise<T & { close(): Promise<void> }>): Promise<EngineSlot<T>>;
  close(): Promise<void>;
}

export function createEngineRegistry(log: { warn(o: object, m: string): void }): EngineRegistry {
  const slots = new Map<EngineName, Promise<EngineSlot<unknown & { close(): Promise<void> }>>>();
  return {
    get<T>(name: EngineName, create: () => Promise<T & { close(): Promise<void> }>): Promise<EngineSlot<T>> {
      let slot = slots.get(name);
      if (!slot) {
        slot = create().then(
          (engine) => ({ ok: true as const, engine }),
          (err: Error) => {
            log.warn({ engine: name, err: err.message }, 'engine unavailable');
            // Forget the failure after a minute so a fixed deployment recovers without a restart.
            setTimeout(() => slots.delete(name), 60_000).unref();
            return { ok: false as const, reason: `${name.split(':')[0]}_engine_unavailable` };
          },
        );
        slots.set(name, slot);
      }
      return slot as Promise<EngineSlot<T>>;
    },
    async close() {
      for (const slot of slots.values()) {
        const s = await slot;
        if (s.ok) await s.engine.close().catch((err: Error) => log.warn({ err: err.message }, 'engine did not close cleanly'));
      }
      slots.clear();
    },
  };
}
