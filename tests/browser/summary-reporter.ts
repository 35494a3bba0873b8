import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Ends Playwright's output with the same plain `N passed, N failed` line as the unit tests. */
export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  onTestEnd(test: TestCase, result: TestResult): void {
    // Count a test once, on its final attempt.
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    if (result.status === 'passed') this.passed++;
    else if (result.status === 'skipped') this.skipped++;
    else this.failed++;
  }

  onEnd(_result: FullResult): void {
    console.log(`\n${this.passed} passed, ${this.failed} failed${this.skipped ? `, ${this.skipped} skipped` : ''}`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
