/**
 * The bus between server processes (ARCHITECTURE "Embedded default and scale-out"): a subject's
 * messages of one turn travel as one NATS message, in order, split past NATS_BATCH_BYTES; a lone
 * message (a process of an earlier version) is still delivered. Runs where TEST_NATS_URL is set
 * (`npm run test:pg`; CI requires it).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveMessage } from '../../src/domain/live-message';
import type { Bus } from '../../server/deps';
import { connectNatsBus, NATS_BATCH_BYTES, natsSubject } from '../../server/live/bus';
import { until } from '../support/until';

const natsUrl = process.env.TEST_NATS_URL;

const point = (index: number, nickname = ''): LiveMessage =>
  ({
    type: 'point',
    thing_id: `thing-${index}${nickname}`,
    lat: 30 + index / 1_000,
    lng: -97.74,
    speed: 10,
    course: 90,
    accuracy: 5,
    timestamp: '2026-11-22T12:00:00.000Z',
  }) as LiveMessage;

describe.runIf(natsUrl)('the NATS bus between server processes', () => {
  let publisher: Bus;
  let subscriber: Bus;
  let raw: Awaited<ReturnType<typeof import('nats').connect>>;

  beforeAll(async () => {
    publisher = await connectNatsBus(natsUrl!, 'lightbar-test-bus-publisher');
    subscriber = await connectNatsBus(natsUrl!, 'lightbar-test-bus-subscriber');
    raw = await (await import('nats')).connect({ servers: natsUrl!, name: 'lightbar-test-bus-raw' });
  });
  afterAll(async () => {
    await publisher.close();
    await subscriber.close();
    await raw.close();
  });

  /** What another process's listener and a plain NATS client see of one organization's subject. */
  async function watch(organizationId: string) {
    const received: unknown[] = [];
    const natsMessages: { bytes: number; data: unknown }[] = [];
    subscriber.subscribe(organizationId, (message) => received.push(message));
    raw.subscribe(natsSubject(organizationId), {
      callback: (error, msg) => {
        if (!error) natsMessages.push({ bytes: msg.data.length, data: JSON.parse(new TextDecoder().decode(msg.data)) });
      },
    });
    // Both subscriptions registered with the server before anything is published.
    await raw.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { received, natsMessages };
  }

  /**
   * Until both have had `count` live messages: the bus's listener and the plain client each read
   * the subject on their own connection, so one may be done while the other still reads.
   */
  async function untilBothHave(watched: { received: unknown[]; natsMessages: { data: unknown }[] }, count: number, timeoutMs?: number) {
    const plain = () => watched.natsMessages.reduce((sum, message) => sum + (Array.isArray(message.data) ? message.data.length : 1), 0);
    await until(
      () => (watched.received.length >= count && plain() >= count ? true : undefined),
      'every message, on both connections',
      timeoutMs,
    );
  }

  it('a turn of messages on one subject is one NATS message, delivered in order to another process', async () => {
    const organizationId = randomUUID();
    const { received, natsMessages } = await watch(organizationId);
    const sent = [point(1), point(2), point(3)];
    for (const message of sent) publisher.publish(organizationId, message);
    await untilBothHave({ received, natsMessages }, sent.length);
    expect(received).toEqual(sent);
    expect(natsMessages.map((m) => m.data)).toEqual([sent]);
  });

  it('a turn larger than NATS_BATCH_BYTES leaves in several NATS messages, none larger, every message in order', async () => {
    const organizationId = randomUUID();
    const { received, natsMessages } = await watch(organizationId);
    // About 1,100 bytes each: 700 of them are about three batches.
    const padding = '-'.repeat(1_000);
    const sent = Array.from({ length: 700 }, (_, i) => point(i, padding));
    for (const message of sent) publisher.publish(organizationId, message);
    await untilBothHave({ received, natsMessages }, sent.length, 10_000);
    expect(received).toEqual(sent);
    expect(natsMessages.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...natsMessages.map((m) => m.bytes))).toBeLessThanOrEqual(NATS_BATCH_BYTES);
    expect(natsMessages.flatMap((m) => m.data as unknown[])).toEqual(sent);
  });

  it('a message published alone, as a process of an earlier version does, is delivered', async () => {
    const organizationId = randomUUID();
    const { received } = await watch(organizationId);
    raw.publish(natsSubject(organizationId), new TextEncoder().encode(JSON.stringify(point(9))));
    await until(() => (received.length >= 1 ? true : undefined), 'the message');
    expect(received).toEqual([point(9)]);
  });
});
