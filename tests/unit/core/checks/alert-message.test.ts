import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptAlertMessage } from '../../../../electron/core/checks/alerts.ts';
import { ALERT_MESSAGE_MAX } from '../../../../shared/alerts.ts';

test('an alert whose words echo the token where the cut falls keeps none of it: searched whole, then cut', () => {
  const token = 'k3x9q2m7v1z8b4n6c5l0w2e7r';
  // The token begins a few characters before the cut: cut first, what is left of it would pass unseen.
  const before = 'x'.repeat(ALERT_MESSAGE_MAX - 10);
  const whole = `${before}${token} and more`;
  const cutFirst = whole.slice(0, ALERT_MESSAGE_MAX);
  assert.ok(cutFirst.includes(token.slice(0, 10)), 'a cut would keep the first part of the token');
  const kept = keptAlertMessage(whole, 'Billing', token);
  assert.equal(kept, 'Something changed for the worse on Billing.');
  assert.equal(keptAlertMessage('shop/web on Billing is down.', 'Billing', token), 'shop/web on Billing is down.');
  assert.equal(keptAlertMessage('y'.repeat(ALERT_MESSAGE_MAX * 2), 'Billing', token).length, ALERT_MESSAGE_MAX);
});
