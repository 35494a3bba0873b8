import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  call,
  errorOf,
  operate,
  tokenOf,
  DEMO_CREDENTIALS as credentials,
  withReferencePanel,
} from '../support/reference-panel/raw-client.ts';
import { DEMO_USER, type PanelStyle, type Transport } from '../support/reference-panel/server.ts';

/**
 * The error envelopes of each Easypanel generation on the wire, with raw fetch: a refused log-in
 * input (zod's issues), a wrong password, too many log ins (429 with `data.reset`), and the RPC
 * layer's rules about bodies and methods.
 */

const NATIVE: [Exclude<PanelStyle, 'simple'>, Transport][] = [
  ['trpc', 'trpc'],
  ['rpc', 'rpc'],
  ['public', 'public'],
];

/** A failure as each generation's envelope carries it, written out as docs/easypanel-api.md gives them. */
function envelope(via: Transport, code: string, status: number, message: string, data?: Record<string, unknown>): unknown {
  const jsonRpc: Record<string, number> = { BAD_REQUEST: -32600, UNAUTHORIZED: -32001, TOO_MANY_REQUESTS: -32029 };
  if (via === 'trpc') {
    return { error: { json: { message, code: jsonRpc[code], data: { code, httpStatus: status, path: 'auth.login', ...data } } } };
  }
  const error = { code, status, message, ...(data === undefined ? {} : { data }) };
  return via === 'rpc' ? { json: { defined: false, ...error } } : error;
}

describe('a refused log-in input: a zod-style 400 in the shape of each generation', () => {
  const unknownField = [{ code: 'unrecognized_keys', keys: ['name'], path: [], message: "Unrecognized key(s) in object: 'name'" }];
  const missingPassword = [{ code: 'invalid_type', expected: 'string', received: 'undefined', path: ['password'], message: 'Required' }];

  /** tRPC sends the ZodError's message (its issues as JSON); RPC its issues; 2.33 `zodErrors`. */
  const refusal = (via: Transport, issues: object[], flat: object) =>
    via === 'trpc'
      ? envelope(via, 'BAD_REQUEST', 400, JSON.stringify(issues, null, 2))
      : envelope(via, 'BAD_REQUEST', 400, 'Input validation failed', via === 'rpc' ? { issues } : { zodErrors: flat });

  for (const [style, via] of NATIVE) {
    test(`${style}: an unknown field, a missing one, no object at all`, async () => {
      await withReferencePanel({ style }, async (panel) => {
        const extra = await operate(panel, via, 'login', { ...credentials, name: 'x' });
        assert.deepEqual(
          [extra.status, extra.body],
          [400, refusal(via, unknownField, { formErrors: [unknownField[0]?.message], fieldErrors: {} })],
        );
        const missing = await operate(panel, via, 'login', { email: DEMO_USER.email });
        assert.deepEqual(
          [missing.status, missing.body],
          [400, refusal(via, missingPassword, { formErrors: [], fieldErrors: { password: ['Required'] } })],
        );
        const nothing = await operate(panel, via, 'login', [credentials]);
        const issue = { code: 'invalid_type', expected: 'object', received: 'array', path: [], message: 'Expected object, received array' };
        assert.deepEqual([nothing.status, nothing.body], [400, refusal(via, [issue], { formErrors: [issue.message], fieldErrors: {} })]);
        assert.deepEqual(panel.issuedTokens(), []);
      });
    });
  }

  test('the simple style still lets unknown fields through', async () => {
    await withReferencePanel({}, async (panel) => {
      tokenOf('public', await call(panel, 'POST', '/api/login', { json: { ...credentials, name: 'x' } }));
    });
  });
});

describe('a wrong password and too many log ins', () => {
  for (const [style, via] of NATIVE) {
    test(`${style}: 401 Invalid credentials; past the limit 429 with data.reset, the end of the window`, async () => {
      const windowMs = 60_000;
      await withReferencePanel({ style, logInLimit: { attempts: 2, windowMs } }, async (panel) => {
        const began = Date.now();
        const wrong = await operate(panel, via, 'login', { ...credentials, password: 'wrong' });
        assert.deepEqual([wrong.status, wrong.body], [401, envelope(via, 'UNAUTHORIZED', 401, 'Invalid credentials')]);
        tokenOf(via, await operate(panel, via, 'login', credentials));

        const limited = await operate(panel, via, 'login', credentials);
        const reset = (errorOf(via, limited.body).data as { reset?: unknown }).reset;
        assert.equal(typeof reset, 'number');
        assert.ok((reset as number) >= began + windowMs && (reset as number) <= Date.now() + windowMs, `reset ${reset} ends the window`);
        assert.deepEqual([limited.status, limited.body], [429, envelope(via, 'TOO_MANY_REQUESTS', 429, 'Too many requests', { reset })]);
        assert.equal(panel.issuedTokens().length, 1);
      });
    });
  }

  test('once the reset has passed, log ins are taken again', async () => {
    // A window long enough that the second try surely falls in it, even on a busy machine.
    await withReferencePanel({ style: 'rpc', logInLimit: { attempts: 1, windowMs: 1500 } }, async (panel) => {
      tokenOf('rpc', await operate(panel, 'rpc', 'login', credentials));
      const limited = await operate(panel, 'rpc', 'login', credentials);
      assert.equal(limited.status, 429);
      const reset = (errorOf('rpc', limited.body).data as { reset: number }).reset;
      await new Promise((resolve) => setTimeout(resolve, reset - Date.now() + 10));
      tokenOf('rpc', await operate(panel, 'rpc', 'login', credentials));
    });
  });

  test('setLogInLimit sets a limit at run time and lifts it', async () => {
    await withReferencePanel({ style: 'public' }, async (panel) => {
      panel.setLogInLimit({ attempts: 1, windowMs: 60_000 });
      tokenOf('public', await operate(panel, 'public', 'login', credentials));
      assert.equal((await operate(panel, 'rpc', 'login', credentials)).status, 429, 'one limit for every route');
      panel.setLogInLimit(null);
      tokenOf('rpc', await operate(panel, 'rpc', 'login', credentials));
    });
  });
});

describe("the RPC layer's rules", () => {
  const MALFORMED = {
    json: {
      defined: false,
      code: 'BAD_REQUEST',
      status: 400,
      message: "Malformed request. Ensure the request body is properly formatted and the 'Content-Type' header is set correctly.",
    },
  };

  test('POST needs a body ({"json": null} without input); GET works only without input', async () => {
    await withReferencePanel({ style: 'rpc' }, async (panel) => {
      const token = tokenOf('rpc', await operate(panel, 'rpc', 'login', credentials));
      for (const rawBody of ['', 'not json']) {
        const answer = await call(panel, 'POST', '/api/rpc/auth/getSession', { token, rawBody });
        assert.deepEqual([answer.status, answer.body], [400, MALFORMED], JSON.stringify(rawBody));
      }
      assert.equal((await call(panel, 'POST', '/api/rpc/auth/getSession', { token, json: { json: null } })).status, 200);
      assert.equal((await call(panel, 'GET', '/api/rpc/auth/getSession', { token })).status, 200);
      assert.deepEqual((await call(panel, 'GET', '/api/rpc/update/getStatus', { token })).body, {
        json: { version: '2.32.2', available: false },
      });

      const getLogin = await call(panel, 'GET', '/api/rpc/auth/login');
      const required = { code: 'invalid_type', expected: 'object', received: 'undefined', path: [], message: 'Required' };
      assert.deepEqual(
        [getLogin.status, getLogin.body],
        [400, envelope('rpc', 'BAD_REQUEST', 400, 'Input validation failed', { issues: [required] })],
      );
    });
  });

  test('an unknown procedure is a 404, another method a 405, in the RPC envelope', async () => {
    await withReferencePanel({ style: 'public' }, async (panel) => {
      const unknown = await call(panel, 'POST', '/api/rpc/auth/nothing', { json: { json: null } });
      assert.deepEqual(
        [unknown.status, unknown.body],
        [404, { json: { defined: false, code: 'NOT_FOUND', status: 404, message: 'Not found' } }],
      );
      const put = await call(panel, 'PUT', '/api/rpc/auth/getSession', { json: { json: null } });
      assert.deepEqual(
        [put.status, put.body],
        [405, { json: { defined: false, code: 'METHOD_NOT_SUPPORTED', status: 405, message: 'Method not supported' } }],
      );
    });
  });
});
