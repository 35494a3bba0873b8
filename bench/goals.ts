/**
 * A bench's goals, said the one way `npm run bench` collects them (bench/run-all.ts): each goal
 * names what it holds to, the figure this round measured and whether it held. A bench prints its
 * own tables as before; `goal()` adds one machine-readable line per goal, which the runner reads
 * from the bench's output and sums over its rounds.
 */

/** One goal as a bench measured it in one round. */
export interface GoalFigure {
  /** Which bench (its file's name), so two benches' goals of the same words stay apart. */
  bench: string;
  /** What is held, in the words ("keystroke in the table at 10,000 panels"). */
  goal: string;
  /** The limit, as said ("<= 50 ms", "<= 1.5x"). */
  limit: string;
  /** The figure, as said ("43.2 ms", "1.21x"). */
  figure: string;
  met: boolean;
}

/** The prefix of a goal's line in a bench's output: the runner keeps these lines, the reader skips them. */
export const GOAL_LINE = '::goal::';

/** Says one goal of this round: a line for the runner (and a readable one after it). */
export function goal(bench: string, name: string, limit: string, figure: string, met: boolean): void {
  const measured: GoalFigure = { bench, goal: name, limit, figure, met };
  console.log(`${GOAL_LINE}${JSON.stringify(measured)}`);
}

/** A time goal: at most `limit` ms. */
export function timeGoal(bench: string, name: string, valueMs: number, limitMs: number): void {
  goal(bench, name, `<= ${limitMs} ms`, Number.isFinite(valueMs) ? `${valueMs.toFixed(1)} ms` : 'not measured', valueMs <= limitMs);
}

/** A ratio goal: at most `limit` times the baseline measured in the same run. */
export function ratioGoal(bench: string, name: string, ratio: number, limit: number): void {
  goal(bench, name, `<= ${limit}x`, Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'not measured', ratio <= limit);
}

/** A count goal: at most `limit`. */
export function countGoal(bench: string, name: string, value: number, limit: number): void {
  goal(
    bench,
    name,
    `<= ${limit.toLocaleString('en')}`,
    Number.isFinite(value) ? value.toLocaleString('en') : 'not measured',
    value <= limit,
  );
}

/** The goal lines of a bench's output, in order; other lines are left out, a damaged line too. */
export function readGoals(output: string): GoalFigure[] {
  const goals: GoalFigure[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith(GOAL_LINE)) continue;
    try {
      const read = JSON.parse(line.slice(GOAL_LINE.length)) as Partial<GoalFigure>;
      if (
        typeof read.bench === 'string' &&
        typeof read.goal === 'string' &&
        typeof read.limit === 'string' &&
        typeof read.figure === 'string' &&
        typeof read.met === 'boolean'
      )
        goals.push(read as GoalFigure);
    } catch {
      // Not one of ours: a bench's own line that happens to start so.
    }
  }
  return goals;
}

/** One goal over the rounds: its figure in each (null where that round did not measure it) and how many met it. */
export interface GoalRounds {
  bench: string;
  goal: string;
  limit: string;
  figures: (string | null)[];
  /** Whether each round met it (null: not measured that round). */
  metIn: (boolean | null)[];
  met: number;
}

/**
 * The goals of every round, one row per goal in the order first seen. A round that did not measure
 * a goal did not meet it; a goal said twice in one round counts as the later.
 */
export function goalRounds(rounds: readonly (readonly GoalFigure[])[]): GoalRounds[] {
  const rows = new Map<string, GoalRounds>();
  rounds.forEach((round, index) => {
    for (const one of round) {
      const key = `${one.bench}\u0000${one.goal}`;
      let row = rows.get(key);
      if (!row) {
        row = {
          bench: one.bench,
          goal: one.goal,
          limit: one.limit,
          figures: rounds.map(() => null),
          metIn: rounds.map(() => null),
          met: 0,
        };
        rows.set(key, row);
      }
      row.figures[index] = one.figure;
      row.metIn[index] = one.met;
    }
  });
  for (const row of rows.values()) row.met = row.metIn.filter((met) => met === true).length;
  return [...rows.values()];
}
