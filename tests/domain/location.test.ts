import { describe, expect, it } from 'vitest';
import { DAY_MS, EVENTS_KEPT, HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import {
  incidentName,
  DEFAULT_EVENT_DISPLAY,
  EVENT_DISPLAY_CHOICES,
  EVENT_DISPLAY_LABELS,
  EVENTS_SEARCH_PLACEHOLDER,
  capEvents,
  eventCounts,
  eventCountsText,
  eventRowHeight,
  filterEventsByDisplay,
  fromLocationWire,
  locationPayloadSchema,
  locationToForm,
  locationWireSchema,
  matchesEventSearch,
  sortEvents,
  startOfDayIn,
  timeToScene,
  toLocationPayload,
  type Location,
  type LocationWireInput,
  type SortableEvent,
} from '../../src/domain/location';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0); // 08:00 in New York (EDT)
const iso = (ms: number): string => new Date(ms).toISOString();

function locationWire(overrides: Partial<LocationWireInput> = {}) {
  return locationWireSchema.parse({ id: 'l1', is_active: true, lat: 40, lng: -75, ...overrides });
}

describe('part1 §3 location wire and model', () => {
  it('maps every field', () => {
    const loc = fromLocationWire(
      locationWire({
        external_id: 'SYS-1',
        display_name: 'I-95 NB',
        is_geo_marker: true,
        marker_position: { lat: 40.5, lng: -75.5 },
        street: 'I-95',
        roadway_heading: 270,
        start_time: iso(NOW - HOUR_MS),
        end_time: null,
        alert_message: 'Slow down',
        wzdx_id: 'W1',
        organization_id: 'o1',
        updated_at: iso(NOW),
        things_active: [
          {
            id: 't1',
            haas_id: 'haas-1',
            nickname: null,
            external_id: 'E1',
            vin_number: 'V',
            license_plate_number: 'P',
            registry_number: 'R',
            start_time: iso(NOW - 50 * MINUTE_MS),
            runtime: 600,
          },
        ],
        things_inactive: [{ id: 't2', haas_id: 'haas-2', nickname: 'Tow 2', end_time: iso(NOW) }],
        features: [
          { type: 'Feature', geometry: { type: 'Point', coordinates: [-75, 40] }, properties: { radius: 50 } },
          {
            type: 'Feature',
            geometry: {
              type: 'LineString',
              coordinates: [
                [-75, 40],
                [-75.1, 40.1],
              ],
            },
          },
        ],
      }),
    );
    expect(loc).toMatchObject({
      id: 'l1',
      externalId: 'SYS-1',
      displayName: 'I-95 NB',
      isActive: true,
      isGeoMarker: true,
      markerPosition: { lat: 40.5, lng: -75.5 },
      lat: 40,
      lng: -75,
      street: 'I-95',
      roadwayHeading: 270,
      startTime: NOW - HOUR_MS,
      endTime: null,
      alertMessage: 'Slow down',
      wzdxId: 'W1',
      organizationId: 'o1',
      updatedAt: NOW,
    });
    expect(loc.thingsActive[0]).toEqual({
      id: 't1',
      displayName: 'HAAS-1',
      name: 'haas-1',
      nickname: null,
      externalId: 'E1',
      vinNumber: 'V',
      plateNumber: 'P',
      registryNumber: 'R',
      startTime: NOW - 50 * MINUTE_MS,
      endTime: null,
      runtime: 600,
    });
    expect(loc.thingsInactive[0]?.displayName).toBe('Tow 2');
    expect(loc.features).toEqual([
      { kind: 'circle', center: { lat: 40, lng: -75 }, radius: 50 },
      {
        kind: 'line',
        path: [
          { lat: 40, lng: -75 },
          { lat: 40.1, lng: -75.1 },
        ],
      },
    ]);
    expect(timeToScene(loc, loc.thingsActive[0]!)).toBe(10 * MINUTE_MS);
  });

  it.each([
    ['a display name', { display_name: 'Scene', street: 'Main' }, 'Scene'],
    ['only a street', { display_name: null, street: 'Main' }, 'Main'],
    ['neither', {}, ''],
  ])('displayName with %s', (_name, overrides, expected) => {
    expect(fromLocationWire(locationWire(overrides)).displayName).toBe(expected);
  });

  it('a missing roadway heading is null (no heading dial)', () => {
    expect(fromLocationWire(locationWire()).roadwayHeading).toBeNull();
  });

  it('rejects a location without coordinates', () => {
    expect(locationWireSchema.safeParse({ id: 'l', is_active: true }).success).toBe(false);
  });
});

describe('part1 §7 PUT /locations/{id} payload', () => {
  it('maps lat, lng, roadway_heading and organization_id', () => {
    const payload = toLocationPayload({ lat: 1.5, lng: -2.5, roadwayHeading: 90 }, 'org-1');
    expect(payload).toEqual({ lat: 1.5, lng: -2.5, roadway_heading: 90, organization_id: 'org-1' });
    expect(locationPayloadSchema.safeParse(payload).success).toBe(true);
  });

  it('the form starts from the location', () => {
    expect(locationToForm({ lat: 1, lng: 2, roadwayHeading: 45 })).toEqual({ lat: 1, lng: 2, roadwayHeading: 45 });
    expect(locationToForm({ lat: 1, lng: 2, roadwayHeading: null }).roadwayHeading).toBe(0);
  });
});

function ev(id: string, isActive: boolean, startTime: number | null, endTime: number | null = null): SortableEvent {
  return { id, isActive, startTime, endTime };
}

describe('part1 §4 event sort: active first; active by newest start; inactive by newest end', () => {
  it('sorts', () => {
    const list = [
      ev('i-old', false, 0, 100),
      ev('a-old', true, 10),
      ev('i-new', false, 0, 300),
      ev('a-new', true, 50),
      ev('i-noend', false, 0, null),
      ev('a-nostart', true, null),
      ev('i-mid', false, 999, 200),
    ];
    expect(sortEvents(list).map((e) => e.id)).toEqual(['a-new', 'a-old', 'a-nostart', 'i-new', 'i-mid', 'i-old', 'i-noend']);
  });

  it('ties by id and returns a copy', () => {
    const input = [ev('b', true, 5), ev('a', true, 5)];
    expect(sortEvents(input).map((e) => e.id)).toEqual(['a', 'b']);
    expect(input.map((e) => e.id)).toEqual(['b', 'a']);
  });
});

describe('part1 §4, §9 at most 500 events kept, oldest removed', () => {
  const inactive = (n: number) => Array.from({ length: n }, (_, i) => ev(`i${i}`, false, 0, i));
  it.each([
    [EVENTS_KEPT - 1, EVENTS_KEPT - 1],
    [EVENTS_KEPT, EVENTS_KEPT],
    [EVENTS_KEPT + 1, EVENTS_KEPT],
    [EVENTS_KEPT + 37, EVENTS_KEPT],
  ])('%i events → %i', (count, kept) => {
    expect(capEvents(inactive(count))).toHaveLength(kept);
  });

  it('removes the oldest ended and never an active one first', () => {
    const list = [...inactive(EVENTS_KEPT), ev('active', true, -1)];
    const kept = capEvents(list);
    expect(kept[0]?.id).toBe('active');
    expect(kept.some((e) => e.id === 'i0')).toBe(false);
    expect(kept.some((e) => e.id === 'i1')).toBe(true);
    expect(EVENTS_KEPT).toBe(500);
  });
});

describe('part1 §2 events display choice', () => {
  it('has the four choices, 24 hrs by default', () => {
    expect(EVENT_DISPLAY_CHOICES.map((c) => EVENT_DISPLAY_LABELS[c])).toEqual(['Active Only', 'Today', '24 hrs', 'All Recent']);
    expect(EVENT_DISPLAY_LABELS[DEFAULT_EVENT_DISPLAY]).toBe('24 hrs');
  });

  const events = [
    ev('active', true, NOW - 3 * DAY_MS),
    ev('ended-1h', false, NOW - 2 * HOUR_MS, NOW - HOUR_MS),
    ev('ended-24h-exactly', false, NOW - 2 * DAY_MS, NOW - DAY_MS),
    ev('ended-24h-plus-1ms', false, NOW - 2 * DAY_MS, NOW - DAY_MS - 1),
    ev('ended-0200Z', false, NOW - 12 * HOUR_MS, Date.UTC(2024, 5, 1, 2, 0, 0)),
    ev('ended-3d', false, NOW - 4 * DAY_MS, NOW - 3 * DAY_MS),
    ev('no-times', false, null, null),
    ev('started-1h-no-end', false, NOW - HOUR_MS, null),
  ];

  it.each([
    ['active', undefined, ['active']],
    ['24h', undefined, ['active', 'ended-1h', 'ended-24h-exactly', 'ended-0200Z', 'started-1h-no-end']],
    ['today', 'UTC', ['active', 'ended-1h', 'ended-0200Z', 'started-1h-no-end']],
    ['today', 'America/New_York', ['active', 'ended-1h', 'started-1h-no-end']],
    ['all', undefined, events.map((e) => e.id)],
  ] as const)('%s (time zone %s)', (choice, timeZone, ids) => {
    expect(filterEventsByDisplay(events, choice, NOW, timeZone).map((e) => e.id)).toEqual(ids);
  });

  it.each([
    ['UTC', Date.UTC(2024, 5, 1, 0, 0, 0)],
    ['America/New_York', Date.UTC(2024, 5, 1, 4, 0, 0)],
    // 2024-06-01T12:00Z is 21:00 on June 1 in Tokyo, whose midnight is 2024-05-31T15:00Z.
    ['Asia/Tokyo', Date.UTC(2024, 4, 31, 15, 0, 0)],
  ])('start of today in %s', (zone, expected) => {
    expect(startOfDayIn(NOW, zone)).toBe(expected);
  });

  it('an event ending exactly at midnight counts as today', () => {
    const midnight = Date.UTC(2024, 5, 1);
    expect(
      filterEventsByDisplay([ev('m', false, 0, midnight), ev('b', false, 0, midnight - 1)], 'today', NOW, 'UTC').map((e) => e.id),
    ).toEqual(['m']);
  });
});

function searchable(overrides: Partial<Location> = {}) {
  const base = fromLocationWire(
    locationWire({
      external_id: 'SYS-100',
      street: 'Market Street',
      things_active: [{ id: 't1', haas_id: 'haas-11', nickname: 'Ladder 3', license_plate_number: 'PL-9' }],
      things_inactive: [{ id: 't2', haas_id: 'haas-22', external_id: 'EXT-22' }],
    }),
  );
  return { ...base, ...overrides };
}

describe("part1 §2 events search ('Search Asset, Street, or System ID')", () => {
  it('has the placeholder', () => {
    expect(EVENTS_SEARCH_PLACEHOLDER).toBe('Search Asset, Street, or System ID');
  });

  it.each([
    ['', true],
    ['   ', true],
    ['market', true],
    ['MARKET ST', true],
    ['sys-100', true],
    ['ladder', true],
    ['HAAS-11', true],
    ['haas-22', true],
    ['ext-22', true],
    ['pl-9', true],
    ['broad', false],
    ['engine', false],
  ])('%j → %s', (text, expected) => {
    expect(matchesEventSearch(searchable(), text)).toBe(expected);
  });
});

describe('part1 §2 counts and row height', () => {
  it('counts active and recent', () => {
    const counts = eventCounts([{ isActive: true }, { isActive: false }, { isActive: false }]);
    expect(counts).toEqual({ active: 1, recent: 2 });
    expect(eventCountsText(counts)).toBe('Active Events 1 | Recent Events 2');
    expect(eventCountsText(eventCounts([]))).toBe('Active Events 0 | Recent Events 0');
  });

  it.each([
    [true, 90],
    [false, 80],
  ])('active %s → %i px', (isActive, height) => {
    expect(eventRowHeight({ isActive })).toBe(height);
  });
});

describe('the name of an event the ingest opens', () => {
  it('says what kind by the first unit and where; an unknown type is an Incident', () => {
    expect(incidentName('fire', 'Guadalupe St & W 24th St')).toBe('Fire: Guadalupe St & W 24th St');
    expect(incidentName('ambulance', 'Koenig Ln & Burnet Rd')).toBe('Medical: Koenig Ln & Burnet Rd');
    expect(incidentName('hovercraft', 'Lady Bird Lake')).toBe('Incident: Lady Bird Lake');
    expect(incidentName(null, 'Congress Ave')).toBe('Incident: Congress Ave');
  });
});
