import assert from 'node:assert/strict';
import { test } from 'node:test';
import { typedConfirmation } from '../../../../renderer/console/console-writes.ts';

/** A console write is typed to confirm when a red (production) panel is among those it goes to. */

test('no red panel: nothing typed; one: its name; several: the number of panels written to', () => {
  const panel = (name: string, colour: 'red' | 'blue' | null = null) => ({ name, colour });
  assert.equal(typedConfirmation([panel('Shop'), panel('Blog', 'blue')]), null);
  assert.equal(typedConfirmation([panel('Shop', 'red')]), 'Shop');
  assert.equal(typedConfirmation([panel('Shop', 'red'), panel('Blog')]), 'Shop');
  assert.equal(typedConfirmation([panel('Shop', 'red'), panel('Blog', 'red'), panel('Wiki')]), '3');
});
