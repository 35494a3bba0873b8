import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { argumentSchemas, methodNames, parseArguments } from '../../../shared/contract/contract.ts';
import { settle } from '../../../shared/contract/envelope.ts';
import { INTERNAL_MESSAGE, PanelError, isErrorCode } from '../../../shared/contract/errors.ts';
import { rejectsWith } from '../../support/helpers.ts';
import { isPanelEvent } from '../../../shared/contract/events.ts';

const id = '3f0b1c2a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

test('the contract names exactly the product API, the fleet checks, certificate trust, the app status, import, export, bulk methods, the update install, the activity log, the service actions, what a panel runs, its runtime logs, its deployments, the alerts, the API console and the text files of the window', () => {
  assert.deepEqual([...methodNames].sort(), [
    'acknowledgeAlert',
    'addPanel',
    'addPanelAccount',
    'applyImport',
    'callOperation',
    'callOperationOnPanels',
    'cancelBackups',
    'cancelChecks',
    'cancelDeployment',
    'cancelLogIns',
    'cancelOperationRun',
    'cancelServiceActions',
    'cancelSessionRead',
    'cancelUpgrades',
    'checkPanels',
    'chooseWriteAccount',
    'closeFleetFile',
    'createFleetFile',
    'duplicatePanel',
    'exportPanels',
    'followServiceLogs',
    'forgetCertificate',
    'getAppStatus',
    'getCachedSession',
    'getDeploymentLog',
    'getFleetServices',
    'getFleetState',
    'getOperations',
    'getPanelFeatures',
    'getServerStats',
    'getServiceActionRun',
    'getSession',
    'getStartSummary',
    'getUpgradeRun',
    'installUpdate',
    'listActivity',
    'listAlerts',
    'listBackups',
    'listCertificates',
    'listDeployments',
    'listFleetFiles',
    'listPanels',
    'listServices',
    'listTimeline',
    'logIn',
    'logInPanels',
    'logInWithApiToken',
    'logOut',
    'logOutPanels',
    'openFleetFile',
    'openTextFile',
    'previewImport',
    'readServiceLogs',
    'removePanel',
    'removePanelAccount',
    'removePanels',
    'resolveFleetConflict',
    'runBackups',
    'runServiceAction',
    'runServiceActions',
    'saveTextFile',
    'shareInFleetFile',
    'stopFollowingServiceLogs',
    'trustCertificate',
    'trustFleetFilePin',
    'updatePanel',
    'updatePanels',
    'updateSettings',
    'upgradePanels',
  ]);
});

test('listAlerts takes no argument, and the alertRaised event passes only a well-formed alert', () => {
  assert.deepEqual(parseArguments('listAlerts', []), []);
  assert.throws(() => parseArguments('listAlerts', [{}]), /Too many arguments/);
  const alert = {
    id: '1-1',
    at: '2030-01-01T00:00:00.000Z',
    panelId: id,
    panelName: 'Prod',
    kind: 'diskFull',
    message: 'Full.',
    tab: 'overview',
    service: null,
    host: null,
    resolvedAt: null,
    acknowledgedAt: null,
  };
  assert.equal(isPanelEvent({ type: 'alertRaised', alert }), true);
  assert.equal(isPanelEvent({ type: 'alertChanged', alert: { ...alert, resolvedAt: '2030-01-01T00:05:00.000Z' } }), true);
  assert.equal(isPanelEvent({ type: 'alertChanged', alert: { ...alert, resolvedAt: 'x'.repeat(1000) } }), false);
  assert.deepEqual(parseArguments('acknowledgeAlert', ['1893456000000-3']), ['1893456000000-3']);
  assert.throws(() => parseArguments('acknowledgeAlert', ['../etc']), /Alert id must be an id from the alert list/);
  assert.deepEqual(parseArguments('getStartSummary', []), []);
  assert.equal(isPanelEvent({ type: 'alertRaised', alert: { ...alert, kind: 'other' } }), false);
  assert.equal(isPanelEvent({ type: 'alertRaised', alert: { ...alert, tab: 'settings' } }), false);
  assert.equal(isPanelEvent({ type: 'alertRaised', alert: { ...alert, message: 'x'.repeat(100_000) } }), false);
  assert.equal(isPanelEvent({ type: 'focusPanel', panelId: id, tab: 'services' }), true);
  assert.equal(isPanelEvent({ type: 'focusPanel', panelId: id, tab: 'settings' }), false);
});

test('the end of a run of service actions passes only with results in shape', () => {
  const result = { panelId: id, projectName: 'shop', serviceName: 'web', action: 'restart', outcome: 'cancelled', message: null };
  assert.equal(
    isPanelEvent({ type: 'serviceActionsEnded', results: [result, { ...result, outcome: 'failed', message: 'Refused.' }] }),
    true,
  );
  assert.equal(isPanelEvent({ type: 'serviceActionsEnded', results: [] }), true);
  assert.equal(isPanelEvent({ type: 'serviceActionsEnded', results: [{ ...result, outcome: 'sent' }] }), false);
  assert.equal(isPanelEvent({ type: 'serviceActionsEnded', results: [{ ...result, action: 'destroy' }] }), false);
  assert.equal(isPanelEvent({ type: 'serviceActionsEnded', results: [{ ...result, message: 'x'.repeat(100_000) }] }), false);
  assert.equal(isPanelEvent({ type: 'serviceActionsEnded', results: [{ ...result, serviceName: 7 }] }), false);
  assert.equal(isPanelEvent({ type: 'serviceActionsEnded', results: 'all done' }), false);
});

test('arguments are parsed and normalised', () => {
  assert.deepEqual(parseArguments('addPanel', [{ address: 'x', name: '  Prod  ' }]), [{ address: 'x', name: 'Prod' }]);
  assert.deepEqual(parseArguments('updatePanel', [id, { tokenField: '' }]), [id, { tokenField: null }]);
  assert.deepEqual(parseArguments('logIn', [id, { email: ' ops@example.com ', password: ' p ' }]), [
    id,
    { email: 'ops@example.com', password: ' p ' },
  ]);
  assert.deepEqual(parseArguments('logIn', [id, { email: 'a', password: 'p', rememberMe: false }]), [
    id,
    { email: 'a', password: 'p', rememberMe: false },
  ]);
  // A token copied from a terminal comes with a line break: only the token is kept.
  assert.deepEqual(parseArguments('logInWithApiToken', [id, { token: '  tok_123\n' }]), [id, { token: 'tok_123' }]);
});

test('bad arguments become INVALID_INPUT with a message an operator can read', async () => {
  const cases: [Parameters<typeof parseArguments>[0], unknown, RegExp][] = [
    ['listPanels', [1], /Too many arguments/],
    ['getSession', [], /Missing arguments/],
    ['listServices', ['not-a-uuid'], /Panel id must be a UUID/],
    ['getServerStats', [id, 'extra'], /Too many arguments/],
    ['getFleetState', [id], /Too many arguments/],
    ['getSession', 'abc', /must be a list/],
    ['getSession', ['abc'], /UUID/],
    ['addPanel', [{}], /Address must be text/],
    ['addPanel', [{ address: 'a'.repeat(3000) }], /too long/],
    ['addPanel', [{ address: 'x', ['x'.repeat(500)]: 1 }], /^Unexpected field: "x{40}"\.$/],
    ['updatePanel', [id, { name: '   ' }], /Name cannot be empty/],
    ['updatePanel', [id, { name: 'a\u0007b' }], /control characters/],
    ['logIn', [id, { email: 'a b', password: 'x' }], /spaces/],
    ['logIn', [id, { email: 'a', password: '' }], /Enter the password/],
    ['logIn', [id, null], /Expected \{ email, password, code\?, rememberMe\? \}/],
    ['logIn', [id, { email: 'a', password: 'x', rememberMe: 'yes' }], /Keep me signed in must be true or false/],
    ['logInPanels', [[], { email: 'a', password: 'x' }], /Choose at least one panel/],
    ['logInPanels', [[id], { email: 'a', password: 'x', code: '123456' }], /Unexpected field: "code"/],
    ['logInPanels', [[id], { email: 'a', password: 'x', sendOverPlainHttp: ['x'] }], /UUID/],
    ['logInWithApiToken', [id, { token: '   ' }], /Paste the API token you made in Easypanel/],
    ['logInWithApiToken', [id, { token: 'abc def' }], /no spaces or line breaks inside it/],
    ['logInWithApiToken', [id, { token: 'a'.repeat(5000) }], /too long to be an API token/],
    ['logInWithApiToken', [id, { token: 'abc', email: 'x' }], /Unexpected field: "email"/],
    ['previewImport', [{ from: 'disk', path: '/etc/passwd' }], /Expected \{ from: "file" \} or \{ from: "text", text \}/],
    ['previewImport', [{ from: 'file', path: '/etc/passwd' }], /Unexpected field: "path"/],
    ['applyImport', [id, { duplicates: 'merge' }], /Duplicates must be "skip" or "update"/],
    ['updatePanels', [[id], { tags: ['a'] }], /Unexpected field: "tags"/],
    ['updatePanels', [[], {}], /Choose at least one panel/],
    ['duplicatePanel', [id, { address: 'x', group: 'Acme' }], /Unexpected field: "group"/],
    ['duplicatePanel', [id, { address: 'x', allowPlainHttp: 'yes' }], /must be true or false/],
  ];
  for (const [method, args, message] of cases) {
    await rejectsWith(
      Promise.resolve().then(() => parseArguments(method, args)),
      'INVALID_INPUT',
      message,
    );
  }
});

test('property: any value as arguments parses or fails with INVALID_INPUT, never anything else', () => {
  const anyArgs = fc.oneof(fc.anything({ withObjectString: true, withNullPrototype: true }), fc.array(fc.anything(), { maxLength: 3 }));
  fc.assert(
    fc.property(fc.constantFrom(...methodNames), anyArgs, (method, args) => {
      try {
        parseArguments(method, args);
      } catch (error) {
        assert.ok(error instanceof PanelError && error.code === 'INVALID_INPUT', String(error));
      }
    }),
    { numRuns: 2000 },
  );
});

test('every schema in the table is a tuple schema', () => {
  for (const method of methodNames) assert.equal(argumentSchemas[method].def.type, 'tuple');
});

test('settle wraps values and PanelErrors, and hides the text of unexpected errors', async () => {
  assert.deepEqual(await settle(async () => 42), { ok: true, value: 42 });
  assert.deepEqual(
    await settle(async () => {
      throw new PanelError('NOT_FOUND', 'gone');
    }),
    { ok: false, error: { code: 'NOT_FOUND', message: 'gone' } },
  );
  const hidden = await settle(async () => {
    throw new Error('token=abc123 leaked in a stack');
  });
  assert.deepEqual(hidden, { ok: false, error: { code: 'INTERNAL', message: INTERNAL_MESSAGE } });
});

test('isErrorCode knows the contract\u2019s codes and no others', () => {
  assert.ok(isErrorCode('TLS') && !isErrorCode('NOPE'));
});

test('listActivity takes an optional panel and a limit up to the bound, and nothing else', () => {
  assert.deepEqual(parseArguments('listActivity', []), []);
  assert.deepEqual(parseArguments('listActivity', [{ panelId: id, limit: 50 }]), [{ panelId: id, limit: 50 }]);
  for (const wrong of [{ limit: 0 }, { limit: 10_001 }, { limit: 1.5 }, { panelId: 'x' }, { token: 'y' }]) {
    assert.throws(() => parseArguments('listActivity', [wrong]), { code: 'INVALID_INPUT' }, JSON.stringify(wrong));
  }
});

test('runServiceAction takes a panel, project and service names as Easypanel allows them, and one of four actions', () => {
  const input = { projectName: 'shop', serviceName: 'web-1_a', action: 'deploy' };
  assert.deepEqual(parseArguments('runServiceAction', [id, input]), [id, input]);
  for (const wrong of [
    { ...input, projectName: 'Shop' },
    { ...input, serviceName: 'web/1' },
    { ...input, serviceName: 'web\n' },
    { ...input, serviceName: 'a'.repeat(65) },
    { ...input, action: 'delete' },
    { ...input, token: 'x' },
    { projectName: 'shop', serviceName: 'web' },
  ]) {
    assert.throws(() => parseArguments('runServiceAction', [id, wrong]), { code: 'INVALID_INPUT' }, JSON.stringify(wrong));
  }
  assert.throws(() => parseArguments('runServiceAction', ['x', input]), { code: 'INVALID_INPUT' });
});

test('readServiceLogs and followServiceLogs take names as Easypanel allows them and a bounded line count; nothing else reaches main', () => {
  const names = { projectName: 'shop', serviceName: 'web_2-a' };
  assert.deepEqual(parseArguments('readServiceLogs', [id, { ...names, lines: 10_000 }]), [id, { ...names, lines: 10_000 }]);
  assert.deepEqual(parseArguments('followServiceLogs', [id, names]), [id, names]);
  const wrong = [
    { ...names, projectName: 'Shop' },
    { ...names, serviceName: 'web/../x' },
    { ...names, serviceName: '' },
    { ...names, serviceName: 'web\u0000' },
    { ...names, projectName: 'x'.repeat(65) },
    { ...names, lines: 0 },
    { ...names, lines: 10_001 },
    { ...names, lines: 1.5 },
    { ...names, token: 'y' },
  ];
  for (const input of wrong) {
    assert.throws(() => parseArguments('readServiceLogs', [id, input]), { code: 'INVALID_INPUT' }, JSON.stringify(input));
  }
  assert.throws(() => parseArguments('followServiceLogs', [id, { ...names, lines: 5 }]), { code: 'INVALID_INPUT' });
  assert.throws(() => parseArguments('stopFollowingServiceLogs', ['not-a-uuid']), { code: 'INVALID_INPUT' });
});

test('deployments: a service named as the panel allows, a deployment id of bounded length and charset', () => {
  const names = { projectName: 'shop', serviceName: 'web_2-a' };
  assert.deepEqual(parseArguments('listDeployments', [id, names]), [id, names]);
  for (const input of [
    { ...names, projectName: 'Shop' },
    { ...names, serviceName: 'a b' },
    { ...names, limit: 5 },
    { projectName: 'shop' },
  ]) {
    assert.throws(() => parseArguments('listDeployments', [id, input]), { code: 'INVALID_INPUT' }, JSON.stringify(input));
  }
  assert.deepEqual(parseArguments('getDeploymentLog', [id, 'a1B2_c-3']), [id, 'a1B2_c-3']);
  for (const deploymentId of ['', 'x'.repeat(129), '../x', 'a?b=1', 'a\u0000', 5, null]) {
    assert.throws(() => parseArguments('getDeploymentLog', [id, deploymentId]), { code: 'INVALID_INPUT' }, JSON.stringify(deploymentId));
    assert.throws(() => parseArguments('cancelDeployment', [id, deploymentId]), { code: 'INVALID_INPUT' }, JSON.stringify(deploymentId));
  }
  assert.deepEqual(parseArguments('cancelDeployment', [id, 'a1B2_c-3']), [id, 'a1B2_c-3']);
  assert.throws(() => parseArguments('getDeploymentLog', ['nope', 'abc']), { code: 'INVALID_INPUT' });
});

test('upgradePanels takes distinct panel ids and { canary, waveSize } within their bounds; cancelUpgrades takes nothing', () => {
  const other = '00000000-0000-4000-8000-000000000002';
  assert.deepEqual(parseArguments('upgradePanels', [[id, other], { canary: 1, waveSize: 5 }]), [[id, other], { canary: 1, waveSize: 5 }]);
  assert.deepEqual(parseArguments('upgradePanels', [[id], { canary: 0, waveSize: 1 }]), [[id], { canary: 0, waveSize: 1 }]);
  for (const options of [
    { canary: -1, waveSize: 5 },
    { canary: 1, waveSize: 0 },
    { canary: 21, waveSize: 5 },
    { canary: 1, waveSize: 21 },
    { canary: 1.5, waveSize: 5 },
    { canary: 1 },
    { canary: 1, waveSize: 5, force: true },
  ]) {
    assert.throws(() => parseArguments('upgradePanels', [[id], options]), { code: 'INVALID_INPUT' }, JSON.stringify(options));
  }
  for (const ids of [[], [id, id], ['nope']]) {
    assert.throws(() => parseArguments('upgradePanels', [ids, { canary: 1, waveSize: 5 }]), { code: 'INVALID_INPUT' }, JSON.stringify(ids));
  }
  assert.deepEqual(parseArguments('cancelUpgrades', []), []);
  assert.deepEqual(parseArguments('getUpgradeRun', []), []);
  assert.throws(() => parseArguments('getUpgradeRun', [{}]), /Too many arguments/);
});

test('runServiceActions takes 1 to 10,000 distinct services of panels by id and one action; the fleet services take no argument', () => {
  const item = { panelId: id, projectName: 'shop', serviceName: 'web' };
  const other = { ...item, serviceName: 'api' };
  assert.deepEqual(parseArguments('runServiceActions', [[item, other], 'restart']), [[item, other], 'restart']);
  assert.deepEqual(parseArguments('getFleetServices', []), []);
  assert.deepEqual(parseArguments('cancelServiceActions', []), []);
  assert.deepEqual(parseArguments('getServiceActionRun', []), []);
  const wrongItems: unknown[] = [
    [],
    [item, { ...item }],
    [{ ...item, panelId: 'x' }],
    [{ ...item, projectName: 'Shop' }],
    [{ ...item, serviceName: 'web/1' }],
    [{ ...item, token: 'x' }],
    [{ panelId: id, projectName: 'shop' }],
    Array.from({ length: 10_001 }, (_, index) => ({ ...item, serviceName: `s${index}` })),
    'all',
  ];
  for (const wrong of wrongItems) {
    assert.throws(
      () => parseArguments('runServiceActions', [wrong, 'restart']),
      { code: 'INVALID_INPUT' },
      JSON.stringify(wrong).slice(0, 80),
    );
  }
  assert.throws(() => parseArguments('runServiceActions', [[item], 'delete']), /deploy, start, stop or restart/);
  assert.throws(() => parseArguments('runServiceActions', [[item, item], 'stop']), /asked for twice/);
  assert.throws(() => parseArguments('getFleetServices', [{}]), /Too many arguments/);
});

test('the fleetServicesChanged event passes panels with their services and the ids of those gone, nothing else', () => {
  const panel = { panelId: id, readAt: '2030-01-01T00:00:00.000Z', services: [], truncated: false, problem: null };
  assert.equal(isPanelEvent({ type: 'fleetServicesChanged', panels: [panel], gone: [id] }), true);
  assert.equal(isPanelEvent({ type: 'fleetServicesChanged', panels: [panel] }), false);
  assert.equal(isPanelEvent({ type: 'fleetServicesChanged', panels: [{ ...panel, services: null }], gone: [] }), false);
  assert.equal(isPanelEvent({ type: 'fleetServicesChanged', panels: [], gone: [1] }), false);
});

test('listCertificates takes nothing or { refresh }, and nothing else', () => {
  assert.deepEqual(parseArguments('listCertificates', []), []);
  assert.deepEqual(parseArguments('listCertificates', [{ refresh: true }]), [{ refresh: true }]);
  assert.deepEqual(parseArguments('listCertificates', [{}]), [{}]);
  for (const wrong of [{ refresh: 'yes' }, { refresh: true, host: 'x' }, 'refresh', 1]) {
    assert.throws(() => parseArguments('listCertificates', [wrong]), { code: 'INVALID_INPUT' }, JSON.stringify(wrong));
  }
  assert.throws(() => parseArguments('listCertificates', [{}, {}]), /Too many arguments/);
});

test('listBackups takes nothing or { refresh }; runBackups a list of schedules, each once, and nothing else', () => {
  assert.deepEqual(parseArguments('listBackups', [{ refresh: true }]), [{ refresh: true }]);
  assert.throws(() => parseArguments('listBackups', [{ refresh: 1 }]), { code: 'INVALID_INPUT' });
  const item = { panelId: id, kind: 'database', id: 'b1', projectName: 'shop', serviceName: 'db' };
  assert.deepEqual(parseArguments('runBackups', [[item]]), [[item]]);
  for (const wrong of [[], [item, item], [{ ...item, kind: 'files' }], [{ ...item, id: '../x' }], [{ ...item, token: 't' }]]) {
    assert.throws(() => parseArguments('runBackups', [wrong]), { code: 'INVALID_INPUT' }, JSON.stringify(wrong));
  }
  assert.deepEqual(parseArguments('cancelBackups', []), []);
});

test('listTimeline takes an optional panel and a limit up to its bound, and nothing else', () => {
  assert.deepEqual(parseArguments('listTimeline', []), []);
  assert.deepEqual(parseArguments('listTimeline', [{ panelId: id, limit: 20_000 }]), [{ panelId: id, limit: 20_000 }]);
  for (const wrong of [{ limit: 0 }, { limit: 20_001 }, { panelId: 'x' }, { who: 'y' }]) {
    assert.throws(() => parseArguments('listTimeline', [wrong]), { code: 'INVALID_INPUT' }, JSON.stringify(wrong));
  }
});
