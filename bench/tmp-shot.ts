import { samplePanel } from '../tests/support/panel-fixture.ts';
import { openBenchPage, startBenchRenderer } from './bench-page.ts';
const mod = await import('./fleet-services-view-page.ts');
const bench = await startBenchRenderer();
const { page, errors } = await openBenchPage(bench, mod.installFakeMain, {
  panels: Number(process.env.N ?? 30),
  perPanel: 10,
  row: 'tr',
  template: samplePanel(1),
});
await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Services', exact: true }).click();
await page.waitForTimeout(1000);
for (const g of (process.env.G ?? 'Panel').split(',')) {
  await page.getByRole('button', { name: g, exact: true }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shot-${g}-900.png` });
  console.log(
    g,
    await page.evaluate(() =>
      ['.fleet-services-scroller', '.fleet-services-table', 'thead tr', '.fleet-group-row', 'tbody tr:not(.fleet-group-row)']
        .map((s) => `${s}=${document.querySelector(s)?.getBoundingClientRect().width}`)
        .join(' '),
    ),
  );
  console.log(
    g,
    await page.evaluate(() =>
      [...document.querySelectorAll('thead th')].map((th) => Math.round(th.getBoundingClientRect().width)).join(','),
    ),
  );
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `/tmp/shot-${g}-1920.png` });
  await page.setViewportSize({ width: 900, height: 600 });
}
console.log(errors);
await bench.close();
