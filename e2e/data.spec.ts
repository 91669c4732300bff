/**
 * The Data section against the real seeded server (part 2 §2 Data, §4 exports, §6, §7): the
 * administrator opens /dashboard/data (reports: the admin holds report:manage), downloads a monthly
 * report PDF and reads its first page; requests a point export through the wizard, watches it go
 * from In-Progress to Completed without a reload, downloads the CSV and checks its header and row
 * count, and deletes it; another user of the organization sees the admin's exports with Delete
 * disabled and the tooltip. Pages are checked with axe; screenshots go to the test's output.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './server-fixture';
import { apiGet, sessionToken, signIn } from './sign-in';
import { expectNoSeriousViolations } from './axe';

/** The waits of this spec: sign-in, the section chunk and the job runner (a 5 s tick) are slow on a busy machine. */
const soon = expect.configure({ timeout: 90_000 });

const SHOTS = process.env.DATA_SHOTS_DIR;

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  if (SHOTS) fs.copyFileSync(file, `${SHOTS}/${name}.png`);
}

/** CSV lines, the header first (the export writes no line break inside a cell for points). */
const csvLines = (text: string) => text.split(/\r?\n/).filter((line) => line.length > 0);

test.describe('part2 §2 Data: monthly reports and exports', () => {
  test('reports tree and PDF; a point export with progress to Completed, its CSV, delete by the creator only', async ({
    page,
    browser,
    demoServer,
  }, testInfo) => {
    test.setTimeout(600_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.setViewportSize({ width: 1366, height: 860 });
    await page.goto(`${demoServer.url}/dashboard/data`);
    await signIn(page, 'admin@lightbar.demo');
    // part 2 §2: the data index goes to reports with a report permission.
    await soon(page).toHaveURL(/\/dashboard\/data\/reports$/);
    await soon(page.getByRole('heading', { level: 1, name: 'Monthly Reports' })).toBeVisible();

    // The seed queues three months of reports; the runner makes them within a tick or two.
    // The list is asked for until it has them (the page itself asks once), then the page shows them.
    const tree = page.getByRole('list', { name: 'Monthly Reports' });
    const profile = (await apiGet(page, demoServer.url, '/profile')) as { organization_id: string };
    await expect
      .poll(
        async () =>
          ((await apiGet(page, demoServer.url, `/reports/${profile.organization_id}/organization_monthly_report_list`)) as unknown[])
            .length,
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBeGreaterThan(0);
    if (!(await tree.isVisible())) await page.reload();
    await soon(tree).toBeVisible();
    const years = await tree.locator('details > summary').allTextContents();
    expect(years).toEqual([...years].sort().reverse());
    const months = await tree.locator('details[open] .report-month h2').allTextContents();
    expect(months.length).toBeGreaterThan(0);
    await expectNoSeriousViolations(page, '.data-page');
    await shot(page, testInfo, 'reports-tree');

    const [pdfDownload] = await Promise.all([
      page.waitForEvent('download'),
      tree
        .getByRole('button', { name: /^Download / })
        .first()
        .click(),
    ]);
    const pdfPath = testInfo.outputPath('report.pdf');
    await pdfDownload.saveAs(pdfPath);
    expect(pdfDownload.suggestedFilename()).toMatch(/\.pdf$/);
    expect(fs.readFileSync(pdfPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const firstPage = execFileSync('pdftotext', ['-f', '1', '-l', '1', pdfPath, '-'], { encoding: 'utf8' });
    expect(firstPage).toContain('Lightbar monthly report');
    expect(firstPage).toContain(months[0]!);
    const chartsPage = execFileSync('pdftotext', ['-f', '2', '-l', '2', pdfPath, '-'], { encoding: 'utf8' });
    expect(chartsPage).toContain('Incidents per day');

    // Exports: from the profile card's Data navigation.
    await page.getByRole('button', { name: /^Profile menu/ }).hover();
    await page.getByRole('group', { name: 'Profile menu' }).getByRole('link', { name: 'Data Exports' }).click();
    await soon(page).toHaveURL(/\/dashboard\/data\/exports$/);
    await soon(page.getByRole('tab', { name: /^Completed \(\d+\)$/ })).toBeVisible();
    // The seeded requests finish first (two running exports per user at most). The seed keeps one
    // closure export in progress for the server's first ten minutes: on a slow run, when this spec
    // starts later than that, it has finished too.
    const inProgressTab = page.getByRole('tab', { name: /^In-Progress/ });
    await soon(inProgressTab).toHaveText(/^In-Progress \([01]\)$/);
    const seededInProgress = Number(/\((\d)\)/.exec((await inProgressTab.textContent()) ?? '')![1]);
    await expectNoSeriousViolations(page, '.data-page');
    await shot(page, testInfo, 'exports-completed');

    // The wizard: type, then the form; a point export without an asset says so under the list.
    await page.getByRole('link', { name: 'Create New' }).click();
    await soon(page.getByRole('heading', { level: 1, name: 'Choose the export type' })).toBeVisible();
    await shot(page, testInfo, 'wizard-type');
    await page.getByRole('button', { name: 'Point' }).click();
    await soon(page.getByRole('heading', { level: 1, name: 'Export details: Point' })).toBeVisible();
    const title = await page.getByLabel('Title *').inputValue();
    expect(title).toMatch(/^Point Export \d{4}-\d{2}-\d{2}$/);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await soon(page.getByRole('group', { name: 'Assets *' }).getByRole('alert')).toHaveText('Must select at least 1 Asset');
    await page.getByLabel('Title *').fill('');
    await soon(page.getByText('Required', { exact: true })).toBeVisible();
    await shot(page, testInfo, 'wizard-errors');
    await expectNoSeriousViolations(page, '.export-wizard');
    const exportTitle = `E2E points ${Date.now()}`;
    await page.getByLabel('Title *').fill(exportTitle);
    // The whole of yesterday for one asset (the simulator drives the seeded fleet).
    await page.locator('.asset-option-button').first().click();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await soon(page.getByRole('heading', { level: 1, name: 'Export In-Progress' })).toBeVisible();
    await shot(page, testInfo, 'wizard-done');
    await page.evaluate(() => ((window as unknown as { stillThisPage: boolean }).stillThisPage = true));
    await page.getByRole('button', { name: 'Got It' }).click();
    await soon(page).toHaveURL(/\/dashboard\/data\/exports\?tab=in_progress$/);

    // In-Progress (waiting for the runner's tick, or its bar) then Completed, with no reload.
    const mine = page.locator('.export-row', { hasText: exportTitle });
    const inProgressSeen = await mine
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (inProgressSeen) await shot(page, testInfo, 'exports-in-progress');
    await soon(mine).toHaveCount(0);
    // Back to the seeded one alone (or none, had its ten minutes ended meanwhile).
    await soon(inProgressTab).toHaveText(new RegExp(`^In-Progress \\((${seededInProgress}|0)\\)$`));
    await page.getByRole('tab', { name: /^Completed/ }).click();
    await soon(mine).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);

    // The CSV: its header and as many rows as the job wrote.
    const token = await sessionToken(page);
    const listed = (await (
      await page.request.get(`${demoServer.url}/organization/export`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { title: string; rows_written: number; rows_total: number | null }[];
    const record = listed.find((e) => e.title === exportTitle)!;
    expect(record.rows_written).toBe(record.rows_total);
    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      mine.getByRole('button', { name: `Download ${exportTitle}` }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toBe(`${exportTitle}.csv`);
    const csvPath = testInfo.outputPath('export.csv');
    await csvDownload.saveAs(csvPath);
    const lines = csvLines(fs.readFileSync(csvPath, 'utf8'));
    expect(lines[0]).toBe('asset_id,asset_name,timestamp,lat,lng,speed,course,accuracy,run_id');
    expect(lines.length - 1).toBe(record.rows_written);
    await shot(page, testInfo, 'exports-mine-completed');

    // Another user of the organization: the admin's exports show Delete disabled with the tooltip.
    const other = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const otherPage = await other.newPage();
    await otherPage.goto(`${demoServer.url}/dashboard/data/exports`);
    await signIn(otherPage, 'user@lightbar.demo');
    const theirs = otherPage.locator('.export-row', { hasText: exportTitle });
    await soon(theirs).toBeVisible();
    const disabled = theirs.getByRole('button', { name: `Delete ${exportTitle}` });
    await expect(disabled).toHaveAttribute('aria-disabled', 'true');
    await disabled.hover();
    await soon(theirs.getByRole('tooltip')).toHaveText('Only the export creator can delete.');
    await disabled.click({ force: true });
    await expect(otherPage.getByRole('alertdialog')).toHaveCount(0);
    await shot(otherPage, testInfo, 'exports-not-creator');
    await other.close();

    // The creator deletes it.
    await mine.getByRole('button', { name: `Delete ${exportTitle}` }).click();
    const dialog = page.getByRole('alertdialog');
    await soon(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await soon(mine).toHaveCount(0);

    // A phone: exports are desktop only; reports open.
    await page.setViewportSize({ width: 390, height: 844 });
    await soon(page.getByText("This page isn't available on mobile devices.")).toBeVisible();
    await shot(page, testInfo, 'phone-exports');
    await page.goto(`${demoServer.url}/dashboard/data/reports`);
    await soon(page.getByRole('heading', { level: 1, name: 'Monthly Reports' })).toBeVisible();
    await soon(page.getByRole('list', { name: 'Monthly Reports' })).toBeVisible();
    await shot(page, testInfo, 'phone-reports');

    expect(pageErrors).toEqual([]);
  });
});
