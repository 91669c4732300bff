import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StatusClock } from '../../src/workers/status-clock';

describe('the one clock: an indexed deadline queue', () => {
  it('answers the earliest deadline and pops what is due, in time order', () => {
    const clock = new StatusClock(4);
    clock.set(3, 300);
    clock.set(1, 100);
    clock.set(7, 700); // grows past the initial capacity
    clock.set(2, 200);
    expect(clock.next()).toBe(100);
    const due: number[] = [];
    clock.popDue(250, due);
    expect(due).toEqual([1, 2]);
    expect(clock.next()).toBe(300);
    expect(clock.length).toBe(2);
  });

  it('moving a slot’s deadline keeps one entry per slot; null removes it', () => {
    const clock = new StatusClock();
    clock.set(0, 500);
    clock.set(0, 50);
    clock.set(0, 5000);
    expect(clock.length).toBe(1);
    expect(clock.get(0)).toBe(5000);
    clock.set(0, null);
    expect(clock.length).toBe(0);
    expect(clock.next()).toBeNull();
  });

  it('matches a naive model under any sequence of sets, deletes and pops (property)', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        slot: fc.integer({ min: 0, max: 40 }),
        at: fc.option(fc.integer({ min: 0, max: 1000 })),
      }),
      fc.record({ kind: fc.constant('pop' as const), now: fc.integer({ min: 0, max: 1000 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const clock = new StatusClock(2);
        const model = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            clock.set(o.slot, o.at);
            if (o.at === null) model.delete(o.slot);
            else model.set(o.slot, o.at);
          } else {
            const due: number[] = [];
            clock.popDue(o.now, due);
            const expected = [...model].filter(([, at]) => at <= o.now).map(([slot]) => slot);
            expect(due.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
            for (const slot of expected) model.delete(slot);
          }
          const min = model.size ? Math.min(...model.values()) : null;
          expect(clock.next()).toBe(min);
          expect(clock.length).toBe(model.size);
        }
      }),
      { numRuns: 100 },
    );
  });
});
