/** part 1 §2 shell rules: nav sections and labels, last selected ids, organization search, mobile name, browser steps. */
import { describe, expect, it } from 'vitest';
import {
  browserOf,
  BOTTOM_NAV_KEYS,
  chooserOrganizations,
  filterOrganizations,
  mobileOrganizationName,
  navSections,
  organizationChoice,
  profileOrganizations,
  sectionLabel,
  sectionLinkTarget,
  sectionOfPath,
  showsOrganizationSearch,
} from '../../../src/app/shell/shell-model';

describe('part1 §2 shell model', () => {
  it.each([
    ['all', 'Incidents'],
    ['some', 'Events'],
    ['none', 'Events'],
  ] as const)('events are labelled by responder mix: %s → %s', (mix, label) => {
    expect(sectionLabel('events', mix)).toBe(label);
    expect(sectionLabel('things', mix)).toBe('Live');
  });

  it('the bottom nav has four items only, shown by permission', () => {
    expect(BOTTOM_NAV_KEYS).toEqual(['things', 'events', 'areas', 'closures']);
    expect(navSections(['incident:read'], BOTTOM_NAV_KEYS)).toEqual(['events']);
  });

  it('section links append the last selected id; paths name their section and id', () => {
    expect(sectionLinkTarget('things', {})).toBe('/dashboard/things');
    expect(sectionLinkTarget('things', { things: 'a b' })).toBe('/dashboard/things/a%20b');
    expect(sectionOfPath('/dashboard/things/42/edit')).toEqual({ key: 'things', id: '42' });
    expect(sectionOfPath('/dashboard/data/reports')).toEqual({ key: 'reports', id: null });
    // A section's own pages name no item.
    expect(sectionOfPath('/dashboard/areas/new')).toEqual({ key: 'areas', id: null });
    expect(sectionOfPath('/dashboard/closures/wzdx-feeds')).toEqual({ key: 'closures', id: null });
    expect(sectionOfPath('/dashboard/data/exports/new')).toEqual({ key: 'exports', id: null });
    expect(sectionOfPath('/welcome/signin')).toBeNull();
  });

  it('organization list: own, managed, accessed once each; search over 5; case-insensitive filter', () => {
    const orgs = profileOrganizations({
      organizationId: 'a',
      userOrg: { id: 'a', name: 'Alpha' },
      managedOrgs: [
        { id: 'b', name: 'Bravo' },
        { id: 'a', name: 'Alpha' },
      ],
      accessedOrgs: [{ id: 'c', name: 'Charlie' }],
    });
    expect(orgs.map((o) => o.id)).toEqual(['a', 'b', 'c']);
    expect(showsOrganizationSearch(5)).toBe(false);
    expect(showsOrganizationSearch(6)).toBe(true);
    expect(filterOrganizations(orgs, ' brav ').map((o) => o.name)).toEqual(['Bravo']);
  });

  it('mobile organization name truncated to 70 characters', () => {
    expect(mobileOrganizationName('x'.repeat(70))).toBe('x'.repeat(70));
    expect(mobileOrganizationName('x'.repeat(71))).toBe(`${'x'.repeat(70)}…`);
  });

  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36', 'chrome'],
    ['Mozilla/5.0 Chrome/120.0 Safari/537.36 Edg/120.0', 'edge'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0', 'firefox'],
    ['Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15', 'safari'],
    ['curl/8', 'other'],
  ])('WebGL steps for %s: %s', (ua, browser) => {
    expect(browserOf(ua)).toBe(browser);
  });
});

describe('part1 §1, §2 the acs organization chooser', () => {
  it("lists the profile's organizations first, then the visible ones, each once", () => {
    const own = { id: 'acs', name: 'Lightbar Integrations' };
    const a = { id: 'a', name: 'Austin Fire Department' };
    const b = { id: 'b', name: 'Travis County Regional' };
    expect(chooserOrganizations([own, b], [a, b, own])).toEqual([own, b, a]);
    expect(chooserOrganizations([own], [])).toEqual([own]);
  });

  it("switching subscribes to the chosen organization and asks for its assets; back home, the caller's own scope", () => {
    expect(organizationChoice('other', 'own')).toEqual({ organizationId: 'other', orgIds: ['other'] });
    expect(organizationChoice('own', 'own')).toEqual({ organizationId: 'own', orgIds: [] });
  });
});
