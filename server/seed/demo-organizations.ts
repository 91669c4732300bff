/**
 * The demo organizations and their relationships (a WZDx organization that manages part of the
 * regional one, an accessor county), and one user per role (docs/api/seed.md, Accounts).
 */
import { roleLabel } from '../../src/domain/role';
import type { organizationRelationships, organizations, users } from '../db/schema';
import { CITY } from '../region/geography';
import type { Random } from '../region/random';
import { DEMO_ORGS, type DemoOrgKey, type Insert, type OrgIds, type PlanContext } from './demo-context';

export interface DemoAccount {
  email: string;
  /** The role's server name. */
  role: string;
  /** The role as the dashboard shows it (Media, User, Admin, Org Admin, ENGINEER). */
  roleLabel: string;
  organization: string;
}

export interface DemoOrganizations {
  orgIds: OrgIds;
  organizations: Insert<typeof organizations>[];
  organizationRelationships: Insert<typeof organizationRelationships>[];
}

export function planOrganizations(ctx: PlanContext, orgRandom: Random): DemoOrganizations {
  const { refs, now } = ctx;
  const orgIds = Object.fromEntries((Object.keys(DEMO_ORGS) as DemoOrgKey[]).map((key) => [key, orgRandom.uuid()])) as Record<
    DemoOrgKey,
    string
  >;
  const orgType = (name: string): string | null => refs.orgTypeIds[name] ?? null;
  const orgBase = (key: DemoOrgKey, values: Partial<Insert<typeof organizations>>): Insert<typeof organizations> => ({
    id: orgIds[key],
    name: DEMO_ORGS[key],
    countryCode: CITY.countryCode,
    city: CITY.name,
    state: CITY.state,
    timezone: CITY.timezone,
    createdAt: now,
    updatedAt: now,
    ...values,
  });
  const regionalChild = { parentId: orgIds.regional, organizationTypeId: orgType('Public Safety') };
  const organizationRows: Insert<typeof organizations>[] = [
    orgBase('regional', {
      organizationTypeId: orgType('Public Safety'),
      email: 'operations@travis-regional.example',
      phoneNumber: '(512) 555-0100',
      contactName: 'Regional Operations Center',
      address1: '700 Lavaca St',
      postalCode: '78701',
      lat: 30.2716,
      lng: -97.7452,
      showInfiniteTimeoutOption: true,
      billingId: 'BILL-TCR-0001',
      maxioCustId: 'cus_demo_travis_regional',
    }),
    orgBase('fire', {
      ...regionalChild,
      email: 'fleet@afd.example',
      phoneNumber: '(512) 555-0111',
      address1: '4201 Ed Bluestein Blvd',
      postalCode: '78721',
      lat: 30.2781,
      lng: -97.6862,
    }),
    orgBase('ems', {
      ...regionalChild,
      email: 'fleet@atcems.example',
      phoneNumber: '(512) 555-0122',
      address1: '15 Waller St',
      postalCode: '78702',
      lat: 30.2597,
      lng: -97.7301,
    }),
    orgBase('police', {
      ...regionalChild,
      email: 'fleet@apd.example',
      phoneNumber: '(512) 555-0133',
      address1: '715 E 8th St',
      postalCode: '78701',
      lat: 30.268,
      lng: -97.7355,
    }),
    orgBase('publicWorks', {
      ...regionalChild,
      email: 'fleet@tcpw.example',
      phoneNumber: '(512) 555-0144',
      address1: '5501 Airport Blvd',
      postalCode: '78751',
      lat: 30.3148,
      lng: -97.7113,
    }),
    orgBase('txdot', {
      organizationTypeId: orgType('Department of Transportation'),
      isWzdxOrg: true,
      email: 'aus-workzones@txdot.example',
      phoneNumber: '(512) 555-0155',
      contactName: 'Austin District Traffic Operations',
      address1: '7901 N IH-35',
      postalCode: '78753',
      lat: 30.3418,
      lng: -97.6953,
    }),
    orgBase('williamson', {
      organizationTypeId: orgType('Public Safety'),
      email: 'dispatch@wilco.example',
      phoneNumber: '(512) 555-0166',
      address1: '710 S Main St',
      city: 'Georgetown',
      postalCode: '78626',
      lat: 30.6333,
      lng: -97.677,
    }),
    orgBase('acs', {
      organizationTypeId: orgType('ACS'),
      email: 'integrations@lightbar.example',
      phoneNumber: '(512) 555-0177',
      address1: '500 W 2nd St',
      postalCode: '78701',
      lat: 30.2655,
      lng: -97.7497,
    }),
    orgBase('capmetro', {
      organizationTypeId: orgType('Department of Transportation'),
      isLargeOrg: true,
      email: 'fleet@capmetro.example',
      phoneNumber: '(512) 555-0188',
      address1: '2910 E 5th St',
      postalCode: '78702',
      lat: 30.2573,
      lng: -97.7096,
    }),
  ];
  const organizationRelationshipRows: Insert<typeof organizationRelationships>[] = [
    { organizationId: orgIds.regional, relatedOrganizationId: orgIds.txdot, relationshipType: 'manager', createdAt: now },
    { organizationId: orgIds.regional, relatedOrganizationId: orgIds.williamson, relationshipType: 'accessor', createdAt: now },
  ];
  return { orgIds, organizations: organizationRows, organizationRelationships: organizationRelationshipRows };
}

export interface DemoUsers {
  users: Insert<typeof users>[];
  /** By e-mail. */
  userIds: Map<string, string>;
  accounts: DemoAccount[];
}

export function planUsers(ctx: PlanContext, userRandom: Random, orgIds: OrgIds): DemoUsers {
  const { refs, input, now } = ctx;
  const people: { email: string; role: string; org: DemoOrgKey; first: string; last: string }[] = [
    { email: 'media@lightbar.demo', role: 'USER (Incidents / Events only)', org: 'regional', first: 'Mina', last: 'Park' },
    { email: 'user@lightbar.demo', role: 'USER', org: 'regional', first: 'Owen', last: 'Garcia' },
    { email: 'admin@lightbar.demo', role: 'ADMIN', org: 'regional', first: 'Alex', last: 'Rivera' },
    { email: 'orgadmin@lightbar.demo', role: 'MANUFACTURER ADMIN', org: 'regional', first: 'Jordan', last: 'Lee' },
    { email: 'engineer@lightbar.demo', role: 'ENGINEER', org: 'acs', first: 'Sam', last: 'Patel' },
    { email: 'txdot.admin@lightbar.demo', role: 'ADMIN', org: 'txdot', first: 'Taylor', last: 'Brooks' },
    { email: 'capmetro.admin@lightbar.demo', role: 'ADMIN', org: 'capmetro', first: 'Casey', last: 'Nguyen' },
    { email: 'wilco.user@lightbar.demo', role: 'USER', org: 'williamson', first: 'Riley', last: 'Chen' },
  ];
  const userIds = new Map<string, string>();
  const userRows: Insert<typeof users>[] = people.map((person) => {
    const roleId = refs.roleIds[person.role];
    if (roleId === undefined) throw new Error(`reference data lacks the role ${person.role}`);
    const id = userRandom.uuid();
    userIds.set(person.email, id);
    return {
      id,
      organizationId: orgIds[person.org],
      email: person.email,
      firstname: person.first,
      lastname: person.last,
      phone: `(512) 555-01${String(userRandom.int(10, 99))}`,
      roleId,
      passwordHash: input.passwordHash,
      passwordChangedAt: now,
      lastActivityAt: now,
      createdAt: now,
      updatedAt: now,
    };
  });
  const accounts: DemoAccount[] = people.map((p) => ({
    email: p.email,
    role: p.role,
    roleLabel: roleLabel(p.role),
    organization: DEMO_ORGS[p.org],
  }));
  return { users: userRows, userIds, accounts };
}
