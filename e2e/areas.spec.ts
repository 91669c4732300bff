/**
 * The areas section against the real seeded server in Chromium (part 2 §2 Areas, §5, §8): the admin
 * draws a polygon around a parked asset with the mouse, saves it, opens it and sees its badge count
 * the assets inside; edits it into a circle; deletes it. A polygon over 0.5 sq mi gets the server's
 * refusal and changes nothing. axe finds no serious violation on the list, the detail and the form.
 */
import type { Page, TestInfo } from '@playwright/test';
import { z } from 'zod';
import { areaWireSchema, fromAreaWire, type Area } from '../src/domain/area';
import { isInPolygon, latLonToLatLng, type LatLng } from '../src/domain/geometry';
import { expect, test } from './server-fixture';
import { apiGet, signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';
import { drawingClick, drawingReady } from './frames';
import { expectMapCentredAt, mapView, settledMapView } from './map-view';

/** The waits of this spec: software WebGL and a busy machine make every redraw slow. */
const soon = expect.configure({ timeout: 60_000 });

/** The areas of the signed-in user's organization, as the section asks for them (part 2 §7 `org_ids[]`). */
async function areas(page: Page, url: string): Promise<Area[]> {
  const { organization_id: orgId } = z.object({ organization_id: z.string() }).parse(await apiGet(page, url, '/profile'));
  return z
    .array(areaWireSchema)
    .parse(await apiGet(page, url, `/organization/exclusion_zone?org_ids[]=${encodeURIComponent(orgId)}`))
    .map(fromAreaWire);
}

const thingsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      lat: z.number().nullish(),
      lng: z.number().nullish(),
      in_service: z.boolean().optional(),
      street: z.string().nullish(),
    }),
  ),
});

async function things(page: Page, url: string) {
  return thingsSchema.parse(await apiGet(page, url, '/organization/things?per_page=500')).data;
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

/** A click of the drawing on the dashboard map, waited for until the drawing took it (no double click). */
const click = (page: Page, x: number, y: number) => drawingClick(page, page.getByTestId('dashboard-map'), x, y);

test.describe('part2 §2 areas: draw, count, edit, delete', () => {
  test('a polygon area is drawn, counts its assets, becomes a circle and is deleted; one over 0.5 sq mi is refused', async ({
    page,
    demoServer: server,
  }, testInfo) => {
    test.setTimeout(600_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${server.url}/dashboard/areas`);
    await signIn(page, 'admin@lightbar.demo');
    await soon(page).toHaveURL(/\/dashboard\/areas$/);
    const map = page.getByTestId('dashboard-map');
    await soon(map.locator('canvas').first()).toBeVisible();

    // The list: sorted, counted.
    await soon(page.getByRole('heading', { level: 1, name: 'Areas' })).toBeVisible();
    const before = await areas(page, server.url);
    await soon(page.getByText(`Showing (${before.length}/${before.length})`)).toBeVisible();
    await soon(page.locator('.area-row-slot').first()).toHaveCSS('height', '75px');
    await shot(page, testInfo, 'areas-list');
    await expectNoSeriousViolations(page, '.areas-list');

    // A parked asset: one in service at the same place in three reads 2 s apart (the simulator moves its
    // vehicles every second), stationary by the ingest's own rule (its stationary street named) when one is.
    const reads: Awaited<ReturnType<typeof things>>[] = [await things(page, server.url)];
    let parked: (typeof reads)[number][number] | undefined;
    await expect
      .poll(
        async () => {
          reads.push(await things(page, server.url));
          const [a, b, c] = reads.slice(-3).map((read) => new Map(read.map((t) => [t.id, t])));
          if (!a || !b || !c) return false;
          const still = [...c.values()].filter((t) => {
            const same = (other: typeof a) => other.get(t.id)?.lat === t.lat && other.get(t.id)?.lng === t.lng;
            return t.lat != null && t.lng != null && t.in_service !== false && same(a) && same(b);
          });
          parked = still.find((t) => t.street) ?? still[0];
          return parked !== undefined;
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toBe(true);

    // Centre the map on it (zoom 17 at least), then '+ Add' opens the form, drawing.
    const search = page.getByPlaceholder('lat, lng');
    await search.fill(`${parked!.lat!.toFixed(6)}, ${parked!.lng!.toFixed(6)}`);
    await search.press('Enter');
    await soon(page.getByRole('button', { name: '+ Add' })).toBeVisible();
    await expectMapCentredAt(page, { lat: parked!.lat!, lng: parked!.lng! });
    await page.getByRole('button', { name: '+ Add' }).click();
    await soon(page).toHaveURL(/\/dashboard\/areas\/new$/);
    await soon(page.getByRole('heading', { level: 1, name: 'New Area' })).toBeVisible();
    await soon(page.getByRole('radio', { name: 'Polygon' })).toBeChecked();
    await soon(page.getByText('Drawing on the map...')).toBeVisible();
    await drawingReady(page, map, 'polygon'); // the drawing chunk loads on the first drawing

    const box = (await map.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const name = `E2E Lot ${Date.now()}`;
    await page.getByLabel('Name *').fill(name);
    await page.getByLabel('Type *').selectOption({ label: 'Other' });
    // Four corners 70 px about the asset, then Enter. The size follows the clicks: the first three
    // make half the square, the fourth the whole of it.
    const size = page.getByTestId('area-size');
    const sqMiles = async () => Number(/^Size: (\d+\.\d{3}) sq mi$/.exec((await size.textContent()) ?? '')?.[1] ?? NaN);
    for (const [dx, dy] of [
      [-70, -70],
      [70, -70],
      [70, 70],
    ] as const) {
      await click(page, cx + dx, cy + dy);
    }
    await soon(size).toHaveText(/^Size: 0\.\d{3} sq mi$/);
    const half = await sqMiles();
    await click(page, cx - 70, cy + 70);
    await expect.poll(async () => Math.abs((await sqMiles()) - 2 * half), { timeout: 60_000 }).toBeLessThanOrEqual(0.002);
    await page.keyboard.press('Enter');
    await soon(page.getByText('Drawing on the map...')).toBeHidden();
    await shot(page, testInfo, 'area-new-polygon');
    await expectNoSeriousViolations(page, '.area-edit');
    const created = page.waitForResponse((r) => r.url().endsWith('/organization/exclusion_zone') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await created).status()).toBe(201);
    await soon(page).toHaveURL(/\/dashboard\/areas$/);
    const saved = (await areas(page, server.url)).find((a) => a.displayName === name);
    expect(saved?.lineStringArray).toHaveLength(4);
    const ring: LatLng[] = saved!.lineStringArray.map(latLonToLatLng);
    expect(isInPolygon({ lat: parked!.lat!, lng: parked!.lng! }, ring)).toBe(true);

    await page.getByPlaceholder('Search areas').fill(name);
    await soon(page.getByText(`Showing (1/${before.length + 1})`)).toBeVisible();
    // The row opens the detail, targets the area and fits the map to it: the badge sits at the centre.
    await page.locator(`.area-row[data-area-id="${saved!.id}"]`).click();
    await soon(page).toHaveURL(new RegExp(`/dashboard/areas/${saved!.id}$`));
    await soon(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await soon(page.locator('.area-field', { hasText: 'Type' }).locator('dd')).toHaveText('Other');
    // The map fitted to the area stands still (its badge is then at the centre).
    await settledMapView(page);
    await shot(page, testInfo, 'area-detail');
    await expectNoSeriousViolations(page, '.area-detail');
    // The badge's popup: the worker's count equals the assets inside the ring (the fleet moves: polled).
    const counted = async () => {
      await page.mouse.move(cx + 3, cy + 3);
      await page.mouse.move(cx, cy);
      const tip = page.getByRole('tooltip', { name });
      if (!(await tip.isVisible().catch(() => false))) return 'no popup';
      const shown = (await tip.locator('dt', { hasText: 'Assets' }).locator('xpath=following-sibling::dd').textContent()) ?? '';
      const inside = (await things(page, server.url)).filter(
        (t) => t.in_service !== false && t.lat != null && t.lng != null && isInPolygon({ lat: t.lat, lng: t.lng }, ring),
      ).length;
      return `${shown} of ${inside}`;
    };
    await expect.poll(counted, { timeout: 120_000, intervals: [2_000] }).toMatch(/^([1-9]\d*) of \1$/);
    await shot(page, testInfo, 'area-badge');

    // Edit it into a circle: centre, then edge, Enter.
    await page.getByRole('link', { name: 'Edit' }).click();
    await soon(page).toHaveURL(new RegExp(`/dashboard/areas/${saved!.id}/edit$`));
    await soon(page.getByLabel('Name *')).toHaveValue(name);
    await page.getByRole('radio', { name: 'Circle' }).check();
    await soon(page.getByText('Drawing on the map...')).toBeVisible();
    await drawingReady(page, map, 'circle');
    await click(page, cx, cy);
    await click(page, cx + 60, cy);
    await soon(page.getByTestId('area-size')).toHaveText(/^Size: 0\.\d{3} sq mi$/);
    await page.keyboard.press('Enter');
    await shot(page, testInfo, 'area-edit-circle');
    const updated = page.waitForResponse(
      (r) => r.url().endsWith(`/organization/exclusion_zone/${saved!.id}`) && r.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await updated).status()).toBe(200);
    await soon(page).toHaveURL(new RegExp(`/dashboard/areas/${saved!.id}$`));
    const circle = (await areas(page, server.url)).find((a) => a.id === saved!.id)!;
    expect(circle.lineStringArray).toEqual([]);
    expect(circle.radius).toBeGreaterThan(0);
    expect(circle.position).not.toBeNull();

    // Delete it: a confirmation, then the list without it.
    await page.getByRole('button', { name: 'Delete Area' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete ${name}?` });
    await soon(dialog).toBeVisible();
    await shot(page, testInfo, 'area-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete Area' }).click();
    await soon(page).toHaveURL(/\/dashboard\/areas$/);
    await soon(page.getByText(`Showing (${before.length}/${before.length})`)).toBeVisible();
    expect((await areas(page, server.url)).some((a) => a.id === saved!.id)).toBe(false);

    // Over 0.5 sq mi: zoomed out, a large polygon; the server refuses, nothing changes.
    await page.getByRole('link', { name: 'Add New Area' }).click();
    await soon(page.getByRole('heading', { level: 1, name: 'New Area' })).toBeVisible();
    for (let i = 0; i < 3; i += 1) {
      const { zoom } = await mapView(page);
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await settledMapView(page, { accept: (view) => view.zoom < zoom - 0.5 });
    }
    await drawingReady(page, map, 'polygon');
    await page.getByLabel('Name *').fill(`${name} big`);
    await page.getByLabel('Type *').selectOption({ label: 'Other' });
    for (const [dx, dy] of [
      [-200, -150],
      [200, -150],
      [200, 150],
      [-200, 150],
    ] as const) {
      await click(page, cx + dx, cy + dy);
    }
    await page.keyboard.press('Enter');
    await soon(page.getByTestId('area-size')).toHaveAttribute('data-too-large', 'true');
    await page.getByRole('button', { name: 'Save' }).click();
    await soon(page.getByText('Polygon area is too large, please keep area under .5 square miles')).toBeVisible();
    await shot(page, testInfo, 'area-too-large');
    expect(page.url()).toMatch(/\/dashboard\/areas\/new$/);
    expect((await areas(page, server.url)).map((a) => a.id).sort()).toEqual(before.map((a) => a.id).sort());
    expect(pageErrors).toEqual([]);
  });
});
