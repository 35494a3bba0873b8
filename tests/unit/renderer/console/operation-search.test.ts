import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchOperations } from '../../../../renderer/console/operation-search.ts';

const catalogue = [
  { name: 'users.listUsers', summary: 'Every user of the panel' },
  { name: 'projects.listProjectsAndServices', summary: null },
  { name: 'projects.createProject', summary: 'Makes an empty project' },
  { name: 'settings.getServerIp', summary: 'The address users reach' },
];

test('every word must start a word of the name or the summary; names before summaries', () => {
  assert.deepEqual(searchOperations(catalogue, '').length, 4);
  assert.deepEqual(
    searchOperations(catalogue, 'projects.l').map((operation) => operation.name),
    ['projects.listProjectsAndServices'],
  );
  assert.deepEqual(
    searchOperations(catalogue, 'list serv').map((operation) => operation.name),
    ['projects.listProjectsAndServices'],
  );
  assert.deepEqual(
    searchOperations(catalogue, 'users').map((operation) => operation.name),
    ['users.listUsers', 'settings.getServerIp'],
  );
  assert.deepEqual(
    searchOperations(catalogue, 'empty').map((operation) => operation.name),
    ['projects.createProject'],
  );
  assert.deepEqual(searchOperations(catalogue, 'nothing'), []);
});
