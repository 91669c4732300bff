/**
 * What the parts of the demo plan share (server/seed/demo.ts composes them, docs/api/seed.md): the
 * demo organizations, the ids of the reference data, the plan's input and clock, and the rounding of
 * generated coordinates.
 */
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AssetType } from '../../src/domain/constants';
import type { RoadNetwork } from '../region/geography';

export const DEMO_ORGS = {
  regional: 'Travis County Regional',
  fire: 'Austin Fire Department',
  ems: 'Austin-Travis County EMS',
  police: 'Austin Police Department',
  publicWorks: 'Travis County Public Works',
  txdot: 'TxDOT Austin District',
  williamson: 'Williamson County',
  acs: 'Lightbar Integrations',
  capmetro: 'Capital Metro Large Fleet',
} as const;
export type DemoOrgKey = keyof typeof DEMO_ORGS;
/** The demo organizations' ids, drawn first: every other part points at them. */
export type OrgIds = Record<DemoOrgKey, string>;

/** Ids of the reference data (server/db/reference-data.ts) the plan points at. */
export interface DemoReferences {
  roleIds: Readonly<Record<string, number>>;
  thingTypeIds: Readonly<Record<AssetType, string>>;
  /** By asset type, then by subtype name ('truck_mounted'). */
  subtypeIds: Readonly<Record<AssetType, Readonly<Record<string, string>>>>;
  /** By db_name ('station'). */
  areaTypeIds: Readonly<Record<string, string>>;
  /** By name ('ACS'). */
  orgTypeIds: Readonly<Record<string, string>>;
}

export type Insert<T extends PgTable> = T['$inferInsert'];

export interface PlanInput {
  assets: number;
  seed: number;
  now: Date;
  passwordHash: string;
}

/** What every part of the plan reads: the references, the input, its clock and the road network. */
export interface PlanContext {
  refs: DemoReferences;
  input: PlanInput;
  now: Date;
  nowMs: number;
  net: RoadNetwork;
  /** The moment `ms` before now. */
  ago(ms: number): Date;
}

export function at(ms: number): Date {
  return new Date(ms);
}

/**
 * Generated coordinates kept to 7 decimals (part 2 §9's precision). Rounded arithmetically: the
 * string-exact truncation of the domain is for what users type, and too slow for 100k points.
 */
export function truncateCoordinate(value: number): number {
  return Math.round(value * 1e7) / 1e7;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
