/**
 * @module supervisor/worker-slots
 * Where each sandbox worker of a node stands: `count` ordinary slots (placement hashes on the
 * index), the one quarantine slot, and the spares. Bookkeeping only: which process to start, and
 * when, is supervisor/workers.ts's.
 */
import type { WorkerRef, WorkerRole } from './worker-ref.ts';

export const QUARANTINE_INDEX = -1;
export const SPARE_INDEX = -2;

export const nameOf = (index: number): string => (index === QUARANTINE_INDEX ? 'quarantine' : index === SPARE_INDEX ? 'spare' : String(index));
const roleOf = (index: number): WorkerRole => (index === QUARANTINE_INDEX ? 'quarantine' : index === SPARE_INDEX ? 'spare' : 'normal');

export function createWorkerSlots(count: number) {
  const normal: Array<WorkerRef | null> = Array.from({ length: count }, () => null);
  const spares: WorkerRef[] = [];
  const held = { quarantine: null as WorkerRef | null };
  const all = (): WorkerRef[] => [...normal, held.quarantine, ...spares].filter((w): w is WorkerRef => w !== null);

  return {
    normal: normal as ReadonlyArray<WorkerRef | null>,
    get quarantine(): WorkerRef | null { return held.quarantine; },
    get spareCount(): number { return spares.length; },
    /** Puts `ref` in the slot `index` names (an ordinary index, the quarantine or a spare). */
    place(ref: WorkerRef, index: number): void {
      ref.index = index;
      ref.name = nameOf(index);
      ref.role = roleOf(index);
      if (ref.role === 'quarantine') held.quarantine = ref;
      else if (ref.role === 'spare') spares.push(ref);
      else normal[index] = ref;
    },
    /** Takes a spare: a ready one, else one still starting (it is nearer ready than a new process). */
    takeSpare(): WorkerRef | null {
      const live = spares.filter((s) => s.killedFor === null);
      const s = live.find((w) => w.handle.isReady) ?? live[0];
      if (s === undefined) return null;
      spares.splice(spares.indexOf(s), 1);
      return s;
    },
    /** Empties the slot `ref` holds; false when it holds none (it was moved or already vacated). */
    vacate(ref: WorkerRef): boolean {
      if (ref.role === 'quarantine' && held.quarantine === ref) held.quarantine = null;
      else if (ref.role === 'spare' && spares.includes(ref)) spares.splice(spares.indexOf(ref), 1);
      else if (ref.role === 'normal' && normal[ref.index] === ref) normal[ref.index] = null;
      else return false;
      return true;
    },
    /** A process in some slot is still starting. */
    starting(): boolean {
      return all().some((w) => !w.handle.isReady && w.killedFor === null);
    },
    all,
  };
}

export type WorkerSlots = ReturnType<typeof createWorkerSlots>;
