/**
 * part 1 §2, §4 responder mix in the worker: the fleet keeps its count of responder assets on
 * upsert and remove (no loop over the fleet), and the mix follows assets arriving and leaving.
 */
import { describe, expect, it } from 'vitest';
import { responderMix } from '../../src/domain/asset-status';
import { liveMessageSchema } from '../../src/domain/live-message';
import { LiveCore } from '../../src/workers/live-core';
import { NOW, parsedThing } from '../support/live-fixtures';

function load(core: LiveCore, things: ReturnType<typeof parsedThing>[], deleted: string[] = []): void {
  core.loadThings(things, deleted, NOW);
  core.flush(NOW);
}

/** The domain's rule over every asset the fleet holds (the count must agree with it). */
function mixByLoop(core: LiveCore) {
  return responderMix(core.fleet.assets.filter((asset) => asset !== null));
}

describe('part1 §2, §4 the fleet responder mix (worker)', () => {
  it("an empty fleet is 'all' (is_responder defaults to true)", () => {
    const core = new LiveCore();
    expect(core.responderMix()).toBe('all');
  });

  it("a non-responder arriving makes it 'some'; its leaving makes it 'all' again", () => {
    const core = new LiveCore();
    load(core, [parsedThing(1), parsedThing(2)]);
    expect(core.responderMix()).toBe('all');
    load(core, [parsedThing(3, { thing_type: 'tow', is_responder: false })]);
    expect(core.responderMix()).toBe('some');
    expect(core.fleet.responders).toBe(2);
    load(core, [], ['thing-00003']);
    expect(core.responderMix()).toBe('all');
    expect(core.fleet.responders).toBe(2);
  });

  it("only non-responders: 'none'; a thing update that changes is_responder moves the count", () => {
    const core = new LiveCore();
    load(core, [parsedThing(1, { is_responder: false }), parsedThing(2, { is_responder: false })]);
    expect(core.responderMix()).toBe('none');
    load(core, [parsedThing(2, { is_responder: true })]);
    expect(core.responderMix()).toBe('some');
    // A socket 'thing' message replaces the attributes the same way.
    core.enqueue(liveMessageSchema.parse({ type: 'thing', thing: parsedThing(1, { is_responder: true }) }));
    core.flush(NOW);
    expect(core.responderMix()).toBe('all');
    expect(core.fleet.responders).toBe(2);
  });

  it('a thing without a position is dropped and leaves the count; reset empties it', () => {
    const core = new LiveCore();
    load(core, [parsedThing(1, { is_responder: false }), parsedThing(2)]);
    expect(core.responderMix()).toBe('some');
    load(core, [parsedThing(2, { lat: null, lng: null })]);
    expect(core.responderMix()).toBe('none');
    expect(core.responderMix()).toBe(mixByLoop(core));
    core.reset();
    expect(core.fleet.responders).toBe(0);
    expect(core.responderMix()).toBe('all');
  });
});
