/**
 * The layers control's rules (docs/map.md "Layers", src/domain/map-layers.ts): the stored choice
 * read over the defaults, the layers a user's permissions allow, and where a closure belongs.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/domain/constants';
import { allowedMapLayers, closureMapGroup, DEFAULT_MAP_LAYERS, mayShowMapLayer, readMapLayers } from '../../src/domain/map-layers';

const NOW = Date.UTC(2026, 11, 8, 12);

describe('the stored choice', () => {
  it('is read over the defaults: assets, incidents and areas on, the others off', () => {
    expect(readMapLayers(null)).toEqual({
      assets: true,
      events: true,
      areas: true,
      closuresActive: false,
      closuresScheduled: false,
      zones: false,
      hazards: false,
    });
    expect(readMapLayers(JSON.stringify({ zones: true, events: false }))).toEqual({ ...DEFAULT_MAP_LAYERS, zones: true, events: false });
  });

  it.each(['not json', '[]', JSON.stringify({ zones: 'yes' })])('ignores an unreadable %j', (text) => {
    expect(readMapLayers(text)).toEqual(DEFAULT_MAP_LAYERS);
  });
});

describe('the layers a user may have', () => {
  it('assets and incidents always; areas, closures, zones and hazards by their section', () => {
    const none: string[] = [];
    expect(mayShowMapLayer(none, 'assets')).toBe(true);
    expect(mayShowMapLayer(none, 'events')).toBe(true);
    expect(mayShowMapLayer(none, 'areas')).toBe(false);
    expect(mayShowMapLayer(['exclusion:read'], 'areas')).toBe(true);
    expect(mayShowMapLayer(['closure:read'], 'closuresActive')).toBe(true);
    expect(mayShowMapLayer(['closure:read'], 'closuresScheduled')).toBe(true);
    expect(mayShowMapLayer(['zone:read'], 'zones')).toBe(true);
    expect(mayShowMapLayer(['haas:manage'], 'hazards')).toBe(false);
    expect(mayShowMapLayer(['hazard:read'], 'hazards')).toBe(true);
    expect(mayShowMapLayer(null, 'zones')).toBe(false);
  });

  it('a stored layer the user may not have is off', () => {
    const all = { ...DEFAULT_MAP_LAYERS, closuresActive: true, zones: true, hazards: true };
    expect(allowedMapLayers(all, ['zone:read'])).toEqual({ ...DEFAULT_MAP_LAYERS, areas: false, zones: true });
  });
});

describe('where a closure belongs on the map', () => {
  const closure = (status: 'active' | 'standby' | 'pending' | 'offline', startTime: number | null, endTime: number | null) => ({
    status,
    startTime,
    endTime,
  });

  it.each([
    ['in effect', closure('active', NOW - HOUR_MS, NOW + DAY_MS), 'active'],
    ['in effect, open-ended', closure('active', null, null), 'active'],
    ['starting tomorrow', closure('standby', NOW + DAY_MS, NOW + 2 * DAY_MS), 'scheduled'],
    ['starting tomorrow, no end', closure('standby', NOW + DAY_MS, null), 'scheduled'],
    ['inactive, no times', closure('standby', null, null), null],
    ['start passed, not active', closure('standby', NOW - HOUR_MS, NOW + DAY_MS), null],
    ['start ahead but already ended', closure('standby', NOW + HOUR_MS, NOW - HOUR_MS), null],
    ['an automated closure gone quiet', closure('offline', null, null), null],
  ] as const)('%s', (_name, facts, group) => {
    expect(closureMapGroup(facts, NOW)).toBe(group);
  });
});
