/**
 * Incident notes and acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement"):
 * GET/POST /locations/{id}/notes, POST /locations/{id}/acknowledge, the location wire's
 * acknowledged_at / acknowledged_by / notes_count, and the live 'location' message they publish.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import { incrementalAnswerSchema } from '../../src/domain/incremental';
import { locationWireSchema } from '../../src/domain/location';
import { acknowledgementWireSchema, locationNotesAnswerSchema, locationNoteWireSchema } from '../../src/domain/location-notes';
import type { LiveMessageInput } from '../../src/domain/live-message';
import { locationNotes, locations } from '../../server/db/schema';
import { call } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
const locationsAnswer = incrementalAnswerSchema(locationWireSchema);
type UserKey = 'admin' | 'reader' | 'stranger' | 'engineer';
const user = {} as Record<UserKey, { id: string; firstname: string; lastname: string }>;
const token = {} as Record<UserKey, string>;
let orgA = { id: '', name: '' };
let orgStranger = { id: '', name: '' };
let orgAccessed = { id: '', name: '' };

async function insertLocation(organizationId: string, values: Partial<typeof locations.$inferInsert> = {}) {
  const [row] = await server.database.db
    .insert(locations)
    .values({
      organizationId,
      lat: 41.88,
      lng: -87.63,
      startTime: new Date(server.clock.ms - HOUR_MS),
      updatedAt: server.clock.now(),
      ...values,
    })
    .returning();
  return row!;
}

async function notesRows(locationId: string) {
  return server.database.db.select().from(locationNotes).where(eq(locationNotes.locationId, locationId));
}

async function wireOf(locationId: string, who = token.admin) {
  const answer = await call(server, 'GET', '/locations', who);
  expect(answer.status).toBe(200);
  return locationsAnswer.parse(answer.json).data.find((row) => row.id === locationId);
}

/** The live messages published to an organization while `run` runs. */
async function published(organizationId: string, run: () => Promise<void>): Promise<LiveMessageInput[]> {
  const seen: LiveMessageInput[] = [];
  const stop = server.deps.bus.subscribe(organizationId, (message) => seen.push(message));
  try {
    await run();
  } finally {
    stop();
  }
  return seen;
}

const nameOf = (key: UserKey) => `${user[key].firstname} ${user[key].lastname}`;

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Notes Fire' });
  orgStranger = await server.createOrg({ name: 'Notes Stranger' });
  const eng = await server.createOrg({ name: 'Notes Engineering' });
  orgAccessed = await server.createOrg({ name: 'Notes Accessed County' });
  await server.relate(orgAccessed.id, orgA.id, 'accessor');
  const make = async (key: UserKey, o: { id: string }, role: string) => {
    const row = await server.createUser({ org: o, role });
    user[key] = row;
    token[key] = await server.signIn(row.email);
  };
  await make('admin', orgA, 'ADMIN');
  await make('reader', orgA, 'USER');
  await make('stranger', orgStranger, 'ADMIN');
  await make('engineer', eng, 'ENGINEER');
});
afterAll(() => server.close());

describe('notes: GET/POST /locations/{id}/notes', () => {
  it('a reader adds notes; everyone who sees the incident lists them newest first with author and time', async () => {
    const location = await insertLocation(orgA.id);
    const first = await call(server, 'POST', `/locations/${location.id}/notes`, token.reader, { text: '  Lane 2 blocked  ' });
    expect(first.status).toBe(201);
    const note = locationNoteWireSchema.parse(first.json);
    expect(note.text).toBe('Lane 2 blocked');
    expect(note.author).toEqual({ id: user.reader.id, name: nameOf('reader') });
    expect(note.created_at).toBe(server.clock.now().toISOString());
    server.clock.advance(MINUTE_MS);
    expect((await call(server, 'POST', `/locations/${location.id}/notes`, token.admin, { text: 'Tow on the way' })).status).toBe(201);

    const listed = await call(server, 'GET', `/locations/${location.id}/notes`, token.reader);
    expect(listed.status).toBe(200);
    const { data } = locationNotesAnswerSchema.parse(listed.json);
    expect(data.map((row) => [row.text, row.author?.name])).toEqual([
      ['Tow on the way', nameOf('admin')],
      ['Lane 2 blocked', nameOf('reader')],
    ]);
    expect((await wireOf(location.id))?.notes_count).toBe(2);
    // haas:manage sees every organization's notes.
    expect((await call(server, 'GET', `/locations/${location.id}/notes`, token.engineer)).status).toBe(200);
  });

  it('422 with the field named: blank (after trimming) and over 1,000 characters; nothing stored', async () => {
    const location = await insertLocation(orgA.id);
    for (const [body, text] of [
      [{ text: '   ' }, 'text: Required'],
      [{}, 'text: Required'],
      [{ text: 'x'.repeat(1001) }, 'text: Must be 1000 or fewer characters'],
    ] as const) {
      const answer = await call(server, 'POST', `/locations/${location.id}/notes`, token.admin, body);
      expect(answer.status).toBe(422);
      expect(answer.body.message).toBe(text);
    }
    expect(await notesRows(location.id)).toEqual([]);
    expect((await call(server, 'POST', `/locations/${location.id}/notes`, token.admin, { text: 'y'.repeat(1000) })).status).toBe(201);
  });

  it("another organization's incident, an unknown and a deleted one: 404 'Location not found'; nothing stored", async () => {
    const location = await insertLocation(orgA.id);
    const deleted = await insertLocation(orgA.id, { deletedAt: server.clock.now() });
    for (const [id, who] of [
      [location.id, token.stranger],
      [randomUUID(), token.admin],
      [deleted.id, token.admin],
    ] as const) {
      const posted = await call(server, 'POST', `/locations/${id}/notes`, who, { text: 'Hello' });
      expect(posted.status).toBe(404);
      expect(posted.body.message).toBe('Location not found');
      const listed = await call(server, 'GET', `/locations/${id}/notes`, who);
      expect(listed.status).toBe(404);
      expect(listed.body.message).toBe('Location not found');
    }
    expect(await notesRows(location.id)).toEqual([]);
    expect((await call(server, 'GET', `/locations/${location.id}/notes`, null)).status).toBe(401);
  });

  it("a note publishes the incident's live 'location' message with its notes_count", async () => {
    const location = await insertLocation(orgA.id);
    const messages = await published(orgA.id, async () => {
      expect((await call(server, 'POST', `/locations/${location.id}/notes`, token.reader, { text: 'On scene' })).status).toBe(201);
    });
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.type).toBe('location');
    if (message?.type !== 'location') return;
    expect(message.location_id).toBe(location.id);
    expect(message.location?.notes_count).toBe(1);
    // Not to an organization that does not see it.
    const none = await published(orgStranger.id, async () => {
      await call(server, 'POST', `/locations/${location.id}/notes`, token.reader, { text: 'Again' });
    });
    expect(none).toEqual([]);
  });
});

describe('POST /locations/{id}/acknowledge', () => {
  it('records who and when once; a second acknowledgement keeps the first; the wire carries it', async () => {
    const location = await insertLocation(orgA.id);
    expect(await wireOf(location.id)).toMatchObject({ acknowledged_at: null, acknowledged_by: null, notes_count: 0 });
    const at = server.clock.now().toISOString();
    const messages = await published(orgA.id, async () => {
      const first = await call(server, 'POST', `/locations/${location.id}/acknowledge`, token.admin);
      expect(first.status).toBe(200);
      expect(acknowledgementWireSchema.parse(first.json)).toEqual({
        location_id: location.id,
        acknowledged_at: at,
        acknowledged_by: { id: user.admin.id, name: nameOf('admin') },
      });
    });
    expect(messages.map((message) => message.type)).toEqual(['location']);
    server.clock.advance(MINUTE_MS);
    const again = await call(server, 'POST', `/locations/${location.id}/acknowledge`, token.engineer);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({
      location_id: location.id,
      acknowledged_at: at,
      acknowledged_by: { id: user.admin.id, name: nameOf('admin') },
    });
    expect(await wireOf(location.id)).toMatchObject({ acknowledged_at: at, acknowledged_by: { id: user.admin.id, name: nameOf('admin') } });
  });

  it('permissions: incident read only 403; another organization 404; nothing changes', async () => {
    const location = await insertLocation(orgA.id);
    expect((await call(server, 'POST', `/locations/${location.id}/acknowledge`, token.reader)).status).toBe(403);
    const stranger = await call(server, 'POST', `/locations/${location.id}/acknowledge`, token.stranger);
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Location not found');
    expect((await call(server, 'POST', `/locations/${location.id}/acknowledge`, null)).status).toBe(401);
    const [row] = await server.database.db.select().from(locations).where(eq(locations.id, location.id));
    expect(row?.acknowledgedAt).toBeNull();
    expect(row?.acknowledgedBy).toBeNull();
  });

  it("an accessed organization's incident: notes yes, acknowledge 422 as its edit", async () => {
    const location = await insertLocation(orgAccessed.id);
    expect((await call(server, 'POST', `/locations/${location.id}/notes`, token.admin, { text: 'Seen' })).status).toBe(201);
    const refused = await call(server, 'POST', `/locations/${location.id}/acknowledge`, token.admin);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('User does not have access to Location');
    const [row] = await server.database.db.select().from(locations).where(eq(locations.id, location.id));
    expect(row?.acknowledgedAt).toBeNull();
  });
});
