import { createPanelService } from '../../electron/core/index.ts';
import { testEncryption } from '../helpers.ts';

/**
 * Child process of crash-during-save.test.ts: changes the panel list of `<dataDir>` in a loop
 * until it is killed. It prints `try <op> ...` before each change and `<op> <id> <name>` only
 * after the change returned, so the parent knows what was committed and what may have been
 * in flight when the kill came. Writes to a pipe are synchronous on Linux, so a printed line is
 * in the pipe before the next change starts.
 *
 * Usage: node --experimental-strip-types tests/crash/registry-writer.ts <dataDir> [maxMs]
 */

const [dataDir, maxMsArgument] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: registry-writer.ts <dataDir> [maxMs]');
// A child whose parent died without killing it must not write forever.
const deadline = Date.now() + Number(maxMsArgument ?? 10_000);

const say = (line: string) => process.stdout.write(`${line}\n`);
const service = createPanelService({ dataDir, encryption: testEncryption() });
const panels = await service.listPanels();
say(`ready ${panels.length}`);

for (let step = 0; Date.now() < deadline; step++) {
  const current = await service.listPanels();
  const roll = Math.random();
  const target = current[Math.floor(Math.random() * current.length)];
  const tag = `${process.pid}-${step}`;
  if (target && roll < 0.25) {
    const name = `Renamed ${tag}`;
    say(`try rename ${target.id} ${name}`);
    await service.updatePanel(target.id, { name });
    say(`rename ${target.id} ${name}`);
  } else if (target && roll < 0.32 && current.length > 5) {
    say(`try remove ${target.id}`);
    await service.removePanel(target.id);
    say(`remove ${target.id}`);
  } else {
    const name = `Panel ${tag}`;
    say(`try add - ${name}`);
    const added = await service.addPanel({ address: `p${tag}.crash.example`, name });
    say(`add ${added.id} ${name}`);
  }
}
