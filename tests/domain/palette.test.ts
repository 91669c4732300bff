import { describe, expect, it } from 'vitest';
import {
  isPaletteShortcut,
  matchGrade,
  parseRecent,
  PALETTE_RECENT_MAX,
  rankPalette,
  withRecent,
  type PaletteItem,
} from '../../src/domain/palette';

const ENGINE_12: PaletteItem = { kind: 'asset', id: 'a12', label: 'ENGINE 12', terms: ['engine 12', 'E-12-PLATE'] };
const MEDIC_7: PaletteItem = { kind: 'asset', id: 'a7', label: 'Big Red', detail: 'MEDIC 7', terms: ['medic 7'] };
const CRASH: PaletteItem = { kind: 'incident', id: 'loc-1', label: 'Crash on Lamar', detail: 'N Lamar Blvd', terms: ['N Lamar Blvd'] };
const PARK: PaletteItem = { kind: 'area', id: 'area-1', label: 'Zilker Park' };
const AREAS: PaletteItem = { kind: 'section', id: 'areas', label: 'Areas' };
const LIVE: PaletteItem = { kind: 'section', id: 'things', label: 'Live' };
const LAMAR_AREA: PaletteItem = { kind: 'area', id: 'area-2', label: 'Lamar Depot' };
const ALL = [ENGINE_12, MEDIC_7, CRASH, PARK, AREAS, LIVE, LAMAR_AREA];

const labels = (items: readonly PaletteItem[]) => items.map((item) => item.label);

describe('command palette: how a text matches (docs/accessibility.md "Keyboard")', () => {
  it.each([
    ['eng', 'ENGINE 12', 0], // prefix, case ignored
    ['12', 'ENGINE 12', 1], // substring
    ['en12', 'ENGINE 12', 2], // fuzzy: the characters in order
    ['eg 2', 'ENGINE 12', 2], // fuzzy ignores the query's spaces
    ['21', 'ENGINE 12', null], // out of order
    ['x', 'ENGINE 12', null],
    ['eng', null, null],
    ['', 'ENGINE 12', null],
  ] as const)('%j in %j → %s', (needle, text, grade) => {
    expect(matchGrade(needle, text)).toBe(grade);
  });
});

describe('command palette ranking (rankPalette)', () => {
  it.each([
    // query, expected labels
    ['eng', ['ENGINE 12']],
    // the nickname's asset found by its name (a term); the section by its label
    ['medic', ['Big Red']],
    // prefix (Lamar Depot, by label) above substring (Crash on Lamar); never the unrelated
    ['lamar', ['Lamar Depot', 'Crash on Lamar']],
    // same grade (substring): kind order asset, incident, area, section, then name
    ['r', ['Big Red', 'Crash on Lamar', 'Lamar Depot', 'Zilker Park', 'Areas']],
    // prefix (an area) above substring (an asset's plate, an incident) above fuzzy (l…a in Zilker Park)
    ['la', ['Lamar Depot', 'ENGINE 12', 'Crash on Lamar', 'Zilker Park']],
    ['  LIVE ', ['Live']],
    ['qqq', []],
  ] as const)('%j → %j', (query, expected) => {
    expect(labels(rankPalette(query, ALL))).toEqual(expected);
  });

  it('ties of grade and kind go by name, A to Z ignoring case', () => {
    const a: PaletteItem = { kind: 'area', id: '2', label: 'north yard' };
    const b: PaletteItem = { kind: 'area', id: '1', label: 'North Station' };
    const c: PaletteItem = { kind: 'area', id: '3', label: 'Northcross' };
    expect(labels(rankPalette('north', [c, a, b]))).toEqual(['North Station', 'north yard', 'Northcross']);
  });

  it('recent choices that match come first, most recent first, each once', () => {
    const recent = [PARK, ENGINE_12];
    // 'e': Engine 12 is a prefix match, Zilker Park a substring one, but both are recent.
    expect(labels(rankPalette('e', ALL, recent))).toEqual(['Zilker Park', 'ENGINE 12', 'Big Red', 'Lamar Depot', 'Areas', 'Live']);
    // A recent choice that does not match the query is not listed.
    expect(labels(rankPalette('lamar', ALL, recent))).toEqual(['Lamar Depot', 'Crash on Lamar']);
  });

  it('an empty query lists the recent choices only', () => {
    expect(labels(rankPalette('', ALL, [CRASH, LIVE]))).toEqual(['Crash on Lamar', 'Live']);
    expect(rankPalette('  ', ALL)).toEqual([]);
  });

  it('lists at most the limit', () => {
    expect(rankPalette('a', ALL, [], 3)).toHaveLength(3);
  });
});

describe('command palette recent choices', () => {
  it('the chosen item goes first, once, and the list keeps at most a few', () => {
    let recent: PaletteItem[] = [];
    for (const item of [ENGINE_12, CRASH, PARK, LIVE, AREAS, MEDIC_7, ENGINE_12]) recent = withRecent(recent, item);
    expect(recent).toHaveLength(PALETTE_RECENT_MAX);
    expect(labels(recent)).toEqual(['ENGINE 12', 'Big Red', 'Areas', 'Live', 'Zilker Park']);
  });

  it.each([
    [null, []],
    ['not json', []],
    ['{"kind":"asset"}', []],
    [
      '[{"kind":"asset","id":"a12","label":"ENGINE 12"},{"kind":"planet","id":"x","label":"Mars"},{"id":5}]',
      [{ kind: 'asset', id: 'a12', label: 'ENGINE 12' }],
    ],
  ] as const)('reads back %j as %j', (raw, expected) => {
    expect(parseRecent(raw)).toEqual(expected);
  });

  it('what is written reads back the same', () => {
    const recent = withRecent(withRecent([], MEDIC_7), CRASH);
    expect(parseRecent(JSON.stringify(recent))).toEqual(recent);
  });
});

describe('command palette shortcut', () => {
  const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });
  it.each([
    ['Ctrl+K', key('k', { ctrlKey: true }), true],
    ['⌘+K', key('k', { metaKey: true }), true],
    ['Ctrl+K with Caps Lock', key('K', { ctrlKey: true }), true],
    ['K alone (a plain letter never opens it)', key('k'), false],
    ['Ctrl+Shift+K', key('K', { ctrlKey: true, shiftKey: true }), false],
    ['Ctrl+Alt+K', key('k', { ctrlKey: true, altKey: true }), false],
    ['Ctrl+J', key('j', { ctrlKey: true }), false],
  ] as const)('%s → %s', (_name, event, opens) => {
    expect(isPaletteShortcut(event)).toBe(opens);
  });
});
