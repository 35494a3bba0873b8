import { join } from 'node:path';
import { ActivityLog } from '../../../electron/core/storage/activity-log.ts';

/**
 * Child process of activity-crash.test.ts: records `count` writes in the activity log of
 * `<dataDir>` as a writer does (begin, then finish), then begins one more and waits for the panel's
 * answer that never comes, until it is killed. It prints `begun <id>` once each begin resolved
 * (on disk) and `finished <id>` once each finish did.
 *
 * Usage: node --experimental-strip-types tests/support/crash/activity-writer.ts <dataDir> <count>
 */
const [dataDir, countArgument] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: activity-writer.ts <dataDir> <count>');
const say = (line: string) => process.stdout.write(`${line}\n`);
const log = await ActivityLog.open(join(dataDir, 'activity.jsonl'));
const start = (n: number) => ({
  panelId: '6f1c1f0e-8d4b-4c57-9a55-000000000001',
  panelName: 'Production',
  panelAddress: 'https://panel.example.com',
  what: { action: 'deploy' as const, projectName: 'shop', serviceName: `web-${n}` },
});
for (let n = 0; n < Number(countArgument ?? 0); n++) {
  const entry = await log.begin(start(n));
  say(`begun ${entry.id}`);
  await log.finish(entry.id, 'ok', null);
  say(`finished ${entry.id}`);
}
const last = await log.begin(start(-1));
say(`begun ${last.id}`);
// The request is "in flight": nothing more happens until the kill. The timer keeps the process alive, at most a minute.
setTimeout(() => undefined, 60_000);
