/**
 * @module catalog/validate/sequence
 * Matches a container's children against its content model: runs of children in order, each run
 * taking certain types between a minimum and a maximum. Children are fed one at a time, so the
 * first misplaced child is reported before anything inside later children is looked at.
 */
import { SPEC } from '../kit/messages.ts';
import type { ContentModel, Slot } from '../kit/spec.ts';
import type { PathSegment } from '../kit/types.ts';
import { fail } from '../kit/state.ts';

type Slots = Extract<ContentModel, { kind: 'slots' }>;

export class Sequence {
  private slot = 0;
  private count = 0;
  private readonly model: Slots;
  private readonly parent: string;
  private readonly path: PathSegment[];
  private readonly children: readonly unknown[];

  constructor(model: Slots, parent: string, path: PathSegment[], children: readonly unknown[]) {
    this.model = model;
    this.parent = parent;
    this.path = path;
    this.children = children;
  }

  /** Places child `index` (named `name`, at `at`) or fails with the reason it does not fit. */
  accept(index: number, name: string, at: PathSegment[]): void {
    const child = this.children[index] as Readonly<Record<string, unknown>>;
    const slots = this.model.slots;
    const current = slots[this.slot];
    if (current?.accepts(child)) {
      if (this.count < current.max) {
        this.count++;
        return;
      }
      if (current.count) fail(current.count, at);
    }
    for (let next = this.slot + 1; next < slots.length; next++) {
      if (!slots[next]!.accepts(child)) continue;
      // Skipping a run still owed children: when a later sibling would fill it, this child came too
      // early (the root says so in its ordering message); otherwise the run is simply missing.
      if (this.model.order && this.owedLater(this.slot, next, index)) fail(this.model.order(name), at);
      this.satisfied(this.slot, this.count);
      for (let skipped = this.slot + 1; skipped < next; skipped++) this.satisfied(skipped, 0);
      this.slot = next;
      this.count = 1;
      return;
    }
    const last = slots.length - 1;
    if (this.model.after && this.slot === last && this.count >= slots[last]!.min) fail(this.model.after, at);
    if (this.model.order && slots.slice(0, this.slot + 1).some((s) => s.accepts(child))) fail(this.model.order(name), at);
    fail(SPEC.cantHold(this.parent, name), at);
  }

  /** After the last child: every run still owed children says so. */
  finish(): void {
    this.satisfied(this.slot, this.count);
    for (let rest = this.slot + 1; rest < this.model.slots.length; rest++) this.satisfied(rest, 0);
  }

  private owedLater(from: number, to: number, index: number): boolean {
    for (let k = from; k < to; k++) {
      const slot = this.model.slots[k]!;
      const have = k === from ? this.count : 0;
      if (have >= slot.min) continue;
      for (let later = index + 1; later < this.children.length; later++) {
        const sibling = this.children[later];
        if (typeof sibling === 'object' && sibling !== null && slot.accepts(sibling as Record<string, unknown>)) return true;
      }
    }
    return false;
  }

  private satisfied(index: number, count: number): void {
    const slot: Slot | undefined = this.model.slots[index];
    if (slot && count < slot.min) fail(slot.few ?? slot.count ?? SPEC.needs(this.parent, slot.what), this.path);
  }
}
