/**
 * The world of the authorization suites: two organizations with no relation between them, each
 * with one real row of every kind the API serves, and signed-in users whose roles hold exactly the
 * permissions a case names. Built on the shared test server (tests/support/test-server.ts).
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { allowedSections, type Permission } from '../../../src/domain/permissions';
import { hashToken, newToken } from '../../../server/auth/secrets';
import {
  alertingZones,
  apiKeys,
  areas,
  areaTypes,
  closures,
  deviceConfigs,
  exports,
  hazards,
  integrationConfigurations,
  locations,
  monthlyReports,
  roles,
  things,
  thingTypes,
  wzdxFeeds,
} from '../../../server/db/schema';
import { createFileStore } from '../../../server/files';
import type { TestServer } from '../../support/test-server';

export interface Actor {
  readonly id: string;
  readonly email: string;
  readonly organizationId: string;
  readonly roleId: number;
  readonly token: string;
}

/** One organization's rows: one of every record a call reads or writes. */
export interface OrgRows {
  readonly orgId: string;
  /** A plain member (role USER): the creator of the export and owner of the API key. */
  readonly member: { id: string; email: string; roleId: number };
  readonly thingId: string;
  readonly locationId: string;
  readonly areaId: string;
  readonly closureId: string;
  readonly zoneId: string;
  readonly hazardId: string;
  readonly reportFileId: string;
  readonly exportId: string;
  readonly integrationId: string;
  readonly deviceConfigId: string;
  readonly apiKeyId: string;
  readonly wzdxFeedId: string;
}

/**
 * A permission that opens a dashboard section and is named by no call whose holder case adds it:
 * sign-in refuses a user who opens no section (part 1 §2), so a role holding only, say,
 * billing:read gets this one too.
 */
export const SIGN_IN_FLOOR: Permission = 'zone:read';

const MINUTE_MS = 60_000;

export class AuthzWorld {
  readonly store;
  private readonly actors = new Map<string, Promise<Actor>>();
  private haasCounter = 0;
  stationTypeId = '';
  policeTypeId = '';

  constructor(
    readonly server: TestServer,
    readonly own: OrgRows,
    readonly other: OrgRows,
  ) {
    this.store = createFileStore(server.dataDir);
  }

  static async build(server: TestServer): Promise<AuthzWorld> {
    const [station] = await server.database.db.select().from(areaTypes).where(eq(areaTypes.dbName, 'station'));
    const [police] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
    const placeholder = { orgId: '' } as OrgRows;
    const world = new AuthzWorld(server, placeholder, placeholder);
    world.stationTypeId = station!.id;
    world.policeTypeId = police!.id;
    const own = await world.orgWithRows('Alpha County', 1);
    const other = await world.orgWithRows('Bravo City', 2);
    return Object.assign(world, { own, other });
  }

  private async orgWithRows(name: string, month: number): Promise<OrgRows> {
    const { server } = this;
    const org = await server.createOrg({ name, isWzdxOrg: true });
    const member = await server.createUser({ org, role: 'USER' });
    const thingId = await this.thing(org.id);
    const [zone] = await server.database.db
      .insert(alertingZones)
      .values({ organizationId: org.id, typeName: 'school', description: `${name} school zone`, isActive: true })
      .returning();
    const [hazard] = await server.database.db
      .insert(hazards)
      .values({
        organizationId: org.id,
        thingId,
        hazardType: 'debris',
        severity: 'medium',
        lat: 41.88,
        lng: -87.63,
        reportedAt: new Date(server.clock.ms - 30 * MINUTE_MS),
      })
      .returning();
    const reportFileId = this.store.newId('pdf');
    await this.store.write(reportFileId, Buffer.from('%PDF-1.4 monthly report'));
    await server.database.db.insert(monthlyReports).values({ organizationId: org.id, year: 2026, month, fileId: reportFileId });
    return {
      orgId: org.id,
      member: { id: member.id, email: member.email, roleId: member.roleId },
      thingId,
      locationId: await this.location(org.id),
      areaId: await this.area(org.id),
      closureId: await this.closure(org.id),
      zoneId: zone!.id,
      hazardId: hazard!.id,
      reportFileId,
      exportId: await this.export(org.id, member.id),
      integrationId: await this.integration(org.id),
      deviceConfigId: await this.deviceConfig(org.id),
      apiKeyId: (await this.apiKey(member.id, org.id)).id,
      wzdxFeedId: await this.wzdxFeed(org.id),
    };
  }

  // ── fresh rows: a write case acts on its own row, so no case changes another's ──
  async thing(organizationId: string): Promise<string> {
    const [row] = await this.server.database.db
      .insert(things)
      .values({
        organizationId,
        haasId: `AUTHZ-${++this.haasCounter}`,
        thingTypeId: this.policeTypeId,
        lat: 41.88,
        lng: -87.63,
        heartbeatAt: this.server.clock.now(),
      })
      .returning();
    return row!.id;
  }

  async location(organizationId: string): Promise<string> {
    const [row] = await this.server.database.db
      .insert(locations)
      .values({ organizationId, lat: 41.88, lng: -87.63, isActive: true, startTime: new Date(this.server.clock.ms - 10 * MINUTE_MS) })
      .returning();
    return row!.id;
  }

  async area(organizationId: string): Promise<string> {
    const [row] = await this.server.database.db
      .insert(areas)
      .values({
        organizationId,
        name: 'Station 12',
        ezTypeId: this.stationTypeId,
        lat: 41.88,
        lng: -87.63,
        pointGeom: { lat: 41.88, lon: -87.63 },
      })
      .returning();
    return row!.id;
  }

  async closure(organizationId: string): Promise<string> {
    const [row] = await this.server.database.db
      .insert(closures)
      .values({ organizationId, closureType: 'manual', description: 'Bridge deck repair', isActive: false, isDashboardManaged: true })
      .returning();
    return row!.id;
  }

  /** Deletes an organization's subscriptions but its standing one: a case adding one stays under the per-organization limit. */
  async clearWzdxFeeds(organizationId: string, keep: string): Promise<void> {
    await this.server.database.db.delete(wzdxFeeds).where(and(eq(wzdxFeeds.organizationId, organizationId), ne(wzdxFeeds.id, keep)));
  }

  /** A WZDx feed subscription; its address is refused by the fetcher at once (port 9), so a refresh never waits. */
  async wzdxFeed(organizationId: string): Promise<string> {
    const [row] = await this.server.database.db
      .insert(wzdxFeeds)
      .values({ organizationId, url: 'http://127.0.0.1:9/wzdx.geojson', pollIntervalS: 300, enabled: false })
      .returning();
    return row!.id;
  }

  /** A completed export with its CSV on disk, requested by `requestedBy`. */
  async export(organizationId: string, requestedBy: string): Promise<string> {
    const fileId = this.store.newId('csv');
    await this.store.write(fileId, Buffer.from('id\n1\n'));
    const [row] = await this.server.database.db
      .insert(exports)
      .values({
        organizationId,
        requestedBy,
        exportType: 'point',
        title: 'Points',
        status: 'completed',
        fileId,
        completedAt: this.server.clock.now(),
      })
      .returning();
    return row!.id;
  }

  /**
   * Ends every export still requested or in progress, as the job runner would: the matrix asks for
   * exports many times with one organization, and the running-export cap (its own suite,
   * export-limits) must not answer in place of the permission under test.
   */
  async finishRunningExports(): Promise<void> {
    await this.server.database.db
      .update(exports)
      .set({ status: 'completed', completedAt: this.server.clock.now() })
      .where(inArray(exports.status, ['requested', 'in_progress']));
  }

  /** Removes the organization's configuration of `provider` (there is at most one per provider). */
  async clearIntegration(organizationId: string, provider: string): Promise<void> {
    await this.server.database.db
      .delete(integrationConfigurations)
      .where(and(eq(integrationConfigurations.organizationId, organizationId), eq(integrationConfigurations.provider, provider)));
  }

  /** The organization's configuration of `provider`, made anew. */
  async integration(organizationId: string, provider = 'samsara'): Promise<string> {
    await this.clearIntegration(organizationId, provider);
    const [row] = await this.server.database.db
      .insert(integrationConfigurations)
      .values({ organizationId, provider, settings: { account: 'fleet-1' } })
      .returning();
    return row!.id;
  }

  async deviceConfig(organizationId: string): Promise<string> {
    const [row] = await this.server.database.db
      .insert(deviceConfigs)
      .values({
        organizationId,
        thingTypeId: this.policeTypeId,
        model: 'HA5',
        platform: 'linux-arm',
        fileName: 'patrol.conf',
        warningLightPin: 17,
      })
      .returning();
    return row!.id;
  }

  /** A live API key of `userId`; `key` is the secret a device sends in x-api-key. */
  async apiKey(userId: string, organizationId: string): Promise<{ id: string; key: string }> {
    const key = `lb_${newToken()}`;
    const [row] = await this.server.database.db
      .insert(apiKeys)
      .values({
        userId,
        organizationId,
        description: 'device',
        tokenHash: hashToken(key),
        tokenPrefix: key.slice(0, 11),
        createdAt: this.server.clock.now(),
      })
      .returning();
    return { id: row!.id, key };
  }

  /**
   * A signed-in user of `organizationId` whose role holds exactly `permissions` (plus
   * SIGN_IN_FLOOR when they open no section). One per permission set and organization: each signs
   * in once, through POST /user_token.
   */
  actor(permissions: readonly string[], organizationId = this.own.orgId): Promise<Actor> {
    const held = [...new Set(permissions)].sort();
    if (allowedSections(held).length === 0) held.push(SIGN_IN_FLOOR);
    const key = `${organizationId}:${held.join(',')}`;
    let actor = this.actors.get(key);
    if (!actor) {
      actor = this.makeActor(held, organizationId, key);
      this.actors.set(key, actor);
    }
    return actor;
  }

  /** A signed-in user of the own organization with one of the spec's roles (reference data), by name. */
  roleActor(roleName: string): Promise<Actor> {
    const key = `role:${roleName}`;
    let actor = this.actors.get(key);
    if (!actor) {
      actor = (async () => {
        const user = await this.server.createUser({ org: { id: this.own.orgId }, role: roleName });
        return {
          id: user.id,
          email: user.email,
          organizationId: this.own.orgId,
          roleId: user.roleId,
          token: await this.server.signIn(user.email),
        };
      })();
      this.actors.set(key, actor);
    }
    return actor;
  }

  private async makeActor(permissions: string[], organizationId: string, key: string): Promise<Actor> {
    const { server } = this;
    const name = `AUTHZ ${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
    const [role] = await server.database.db.insert(roles).values({ name, permissions }).onConflictDoNothing().returning();
    const roleId = role?.id ?? (await server.database.db.select().from(roles).where(eq(roles.name, name)))[0]!.id;
    const user = await server.createUser({ org: { id: organizationId }, role: 'USER', roleId });
    return { id: user.id, email: user.email, organizationId, roleId, token: await server.signIn(user.email) };
  }
}
