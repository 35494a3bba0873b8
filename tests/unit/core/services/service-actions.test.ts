import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PanelError } from '../../../../shared/contract/errors.ts';
import { isPanelEvent } from '../../../../shared/contract/events.ts';
import { UnreadableAnswerError } from '../../../../electron/core/easypanel/panel-calls.ts';
import { REQUESTS } from '../../../../electron/core/easypanel/panel-requests.ts';
import { DEPLOY_DEADLINE_MS, SERVICE_ACTION_DEADLINE_MS } from '../../../../electron/core/easypanel/service-requests.ts';
import { ServiceActionsInFlight, serviceActionOutcome, writeFor } from '../../../../electron/core/services/service-actions.ts';
import type { PanelRecord } from '../../../../electron/core/storage/panel-registry.ts';

const record = { name: 'Billing' } as PanelRecord;
const web = { projectName: 'shop', serviceName: 'web' };

test('each action maps to the type\u2019s own write: apps and compose as asked, a database\u2019s start and stop are enable and disable', () => {
  assert.equal(writeFor(record, web, 'deploy', 'app'), 'deployAppService');
  assert.equal(writeFor(record, web, 'restart', 'compose'), 'restartComposeService');
  assert.equal(writeFor(record, web, 'start', 'postgres'), 'enablePostgresService');
  assert.equal(writeFor(record, web, 'stop', 'mysql'), 'disableMySQLService');
  assert.throws(() => writeFor(record, web, 'deploy', 'redis'), { code: 'INVALID_INPUT', message: /cannot be deployed/ });
  assert.throws(() => writeFor(record, web, 'restart', 'mongo'), { code: 'INVALID_INPUT', message: /stop it, then start it/ });
  assert.throws(() => writeFor(record, web, 'stop', 'wordpress'), {
    code: 'INVALID_INPUT',
    message: /wordpress service, which Paneldeck cannot stop/,
  });
});

test('the write operations: writes (never retried), a deploy with its own long deadline, routes in each generation', () => {
  const deploy = REQUESTS.deployAppService;
  assert.equal(deploy.effect, 'write');
  assert.equal(deploy.deadlineMs, DEPLOY_DEADLINE_MS);
  assert.deepEqual(deploy.routes, {
    public: '/deployAppService',
    rpc: '/rpc/services/app/deployService',
    trpc: '/trpc/services.app.deployService',
  });
  assert.equal(REQUESTS.disablePostgresService.deadlineMs, SERVICE_ACTION_DEADLINE_MS);
  assert.equal(REQUESTS.disablePostgresService.routes.trpc, '/trpc/services.postgres.disableService');
});

test('no answer is an unknown outcome, never a failure; a refusal or a connection never made is a failure', () => {
  const timedOut = serviceActionOutcome('deploy', new PanelError('TIMEOUT', 'The request timed out after 10 minutes.'));
  assert.deepEqual(timedOut, {
    outcome: 'unknown',
    message: 'The panel did not answer in time; the deploy may still be running: check the service.',
  });
  const closed = serviceActionOutcome('stop', new PanelError('NETWORK', 'The connection to 127.0.0.1:1 was closed before the answer.'));
  assert.equal(closed.outcome, 'unknown');
  assert.match(closed.message ?? '', /the stop may have been done: check the service/);
  const refused = serviceActionOutcome(
    'stop',
    new PanelError('NETWORK', '127.0.0.1:1 refused the connection: nothing is accepting connections.'),
  );
  assert.equal(refused.outcome, 'failed');
  assert.equal(serviceActionOutcome('deploy', new PanelError('SERVER_ERROR', 'The panel failed: "build broke".')).outcome, 'failed');
});

test('a refused token is a failure said as refused; an answer that came but could not be read is unknown', () => {
  const refused = serviceActionOutcome('stop', new PanelError('UNAUTHORIZED', 'The panel rejected the saved token (HTTP 401).'));
  assert.deepEqual(refused, { outcome: 'failed', message: 'Refused, not done: The panel rejected the saved token (HTTP 401).' });
  const unreadable = serviceActionOutcome('deploy', new UnreadableAnswerError('BAD_RESPONSE', 'An HTML page (HTTP 200).'));
  assert.deepEqual(unreadable, {
    outcome: 'unknown',
    message: "The panel's answer could not be read (An HTML page (HTTP 200).); the deploy may still be running: check the service.",
  });
  // The same words from a read (a plain PanelError) stay a failure.
  assert.equal(serviceActionOutcome('deploy', new PanelError('BAD_RESPONSE', 'An HTML page (HTTP 200).')).outcome, 'failed');
});

test('one action at a time per service; deploys in flight are listed by panel', () => {
  const inFlight = new ServiceActionsInFlight();
  assert.ok(inFlight.hold('p1', web, 'deploy'));
  assert.ok(!inFlight.hold('p1', web, 'stop'));
  assert.ok(inFlight.hold('p1', { projectName: 'shop', serviceName: 'db' }, 'stop'));
  assert.ok(inFlight.hold('p2', web, 'deploy'));
  assert.deepEqual(inFlight.deploying('p1'), [web]);
  assert.equal(inFlight.running('p1', web), 'deploy');
  inFlight.release('p1', web);
  assert.deepEqual(inFlight.deploying('p1'), []);
});

test('the bridge passes on a serviceActionChanged only with its fields in shape', () => {
  const event = { type: 'serviceActionChanged', panelId: 'p1', ...web, action: 'deploy', phase: 'unknown', message: 'check the service' };
  assert.ok(isPanelEvent(event));
  assert.ok(isPanelEvent({ ...event, message: null }));
  for (const wrong of [{ phase: 'cancelled' }, { action: 'delete' }, { message: 'x'.repeat(2001) }, { serviceName: 7 }]) {
    assert.ok(!isPanelEvent({ ...event, ...wrong }), JSON.stringify(wrong));
  }
});
