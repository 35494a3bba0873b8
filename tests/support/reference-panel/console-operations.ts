import { type CallContext, data, fail, type Operation, type Outcome } from './outcomes.ts';
import { NAME_PATTERN } from './services-state.ts';
import type { Route } from './types.ts';

/**
 * Operations the reference panel serves for the API console beyond what Paneldeck's views call:
 * `users.listUsers` (whose answer holds, as docs/easypanel-api.md says a real one does, each user's API
 * token, two-factor secret and password hash in clear: what the window masks) and
 * `projects.createProject` (a write with a `$ref`'d input in the catalogue).
 */

export type ConsoleRoute = 'listUsers' | 'createProject';

export const CONSOLE_OPERATIONS: readonly Operation[] = [
  { route: 'listUsers', kind: 'query', trpc: 'users.listUsers', rpc: 'users/listUsers', public: 'listUsers' },
  { route: 'createProject', kind: 'mutation', trpc: 'projects.createProject', rpc: 'projects/createProject', public: 'createProject' },
];

export function isConsoleRoute(route: Route): route is ConsoleRoute {
  return route === 'listUsers' || route === 'createProject';
}

/** A fixed bcrypt-shaped hash: what a real panel keeps, never a real password's. */
const DEMO_HASH = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';

export function performConsoleOperation(route: ConsoleRoute, input: unknown, { state }: CallContext): Outcome {
  if (route === 'listUsers') {
    const users = state.users.map((user, index) => ({
      id: user.id,
      email: user.email,
      admin: user.role === 'admin',
      createdAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
      password: DEMO_HASH,
      apiToken: `demo-api-token-${user.id}`,
      twoFactorEnabled: user.twoFactorCode !== undefined || user.totpSecret !== undefined,
      twoFactorSecret: user.totpSecret ?? (user.twoFactorCode === undefined ? null : 'JBSWY3DPEHPK3PXP'),
    }));
    return data(users);
  }
  const name = (input as { name?: unknown } | null | undefined)?.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) return fail('BAD_REQUEST', 'Input validation failed');
  if (state.services.projects().some((project) => project.name === name)) return fail('BAD_REQUEST', 'Project already exists');
  state.services.addProject(name);
  return data({ name, createdAt: new Date().toISOString() });
}
