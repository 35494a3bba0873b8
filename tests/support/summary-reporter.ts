/**
 * A node:test reporter that ends the output with one plain line, `N passed, N failed`, which CI
 * reads whatever else the run printed. Suites are not counted, only the tests in them.
 */
interface TestEvent {
  type: string;
  data: { details?: { type?: string }; skip?: unknown; todo?: unknown };
}

export default async function* summaryReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for await (const event of source) {
    if (event.data.details?.type === 'suite') continue;
    if (event.type === 'test:pass') {
      if (event.data.skip || event.data.todo) skipped++;
      else passed++;
    } else if (event.type === 'test:fail') {
      failed++;
    }
  }
  yield `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}
