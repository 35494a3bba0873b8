// What other folders use of the upgrade run, free of React: which panels it is offered for.
export { upgradeTargets } from './upgrade-rows.ts';
