/**
 * Real `ws` clients against the real server for the socket security suites (the harness of
 * tests/server/cable.test.ts, shared): connect with the protocol pair, record every frame, and
 * read the frames of one message type.
 */
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { eventsChannelIdentifier, serverFrameSchema, type LiveMessage, type ServerFrame } from '../../src/domain/live-message';
import { things, thingTypes } from '../../server/db/schema';
import type { IngestEngine } from '../../server/live/ingest';
import type { TestServer } from '../support/test-server';

export interface Client {
  ws: WebSocket;
  frames: ServerFrame[];
  closed: Promise<{ code: number; reason: string }>;
}

export async function connect(base: string, token: string): Promise<Client> {
  const frames: ServerFrame[] = [];
  const ws = new WebSocket(`${base}/cable`, ['actioncable-v1-json', token]);
  ws.on('message', (data) => frames.push(serverFrameSchema.parse(JSON.parse(data.toString()))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}

/** The answer of a refused handshake: status and body. */
export function refusedHandshake(base: string, token: string): Promise<{ status: number; body: unknown }> {
  const ws = new WebSocket(`${base}/cable`, ['actioncable-v1-json', token]);
  return new Promise((resolve, reject) => {
    ws.once('open', () => reject(new Error('the handshake was accepted')));
    ws.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
  });
}

export function subscribe(client: Client, organization: string, identifier = eventsChannelIdentifier(organization)): void {
  client.ws.send(JSON.stringify({ command: 'subscribe', identifier }));
}

export const isType = (type: string) => (frame: ServerFrame) => 'type' in frame && frame.type === type;

/** The data frames (identifier + message). */
export const messages = (client: Client): { identifier: string; message: LiveMessage }[] =>
  client.frames.filter(
    (frame): frame is { identifier: string; message: LiveMessage } => 'message' in frame && typeof frame.message === 'object',
  );

/** The asset a data message is about. */
export function thingIdOf(message: LiveMessage): string {
  return message.type === 'thing' ? message.thing.id : message.thing_id;
}

export const engineOf = (server: TestServer): IngestEngine => (server.app as unknown as { ingest: IngestEngine }).ingest;

let haasCounter = 0;

/** An asset of an organization, known to the ingest (as a seeded fleet is after `reload`). */
export async function createThing(server: TestServer, organizationId: string, nickname: string) {
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const [row] = await server.database.db
    .insert(things)
    .values({ organizationId, haasId: `HA5-SEC${++haasCounter}-${Date.now()}`, nickname, thingTypeId: type!.id, lat: 30.27, lng: -97.74 })
    .returning();
  return row!;
}

/** A device point of an asset through the real ingest (the path /ingest and the simulator take). */
export async function ingestPoints(server: TestServer, haasIds: readonly string[], lat = 30.27): Promise<void> {
  const timestamp = server.clock.now().toISOString();
  const result = await engineOf(server).ingest(
    haasIds.map((haas_id) => ({ type: 'point', haas_id, lat, lng: -97.74, speed: 20, course: 90, accuracy: 5, timestamp })),
    null,
  );
  if (result.accepted !== haasIds.length) throw new Error(`ingest refused points: ${JSON.stringify(result.rejected)}`);
}
