import type { PanelApi } from './contract.ts';

export type MethodName = keyof PanelApi;

/**
 * Every method of the contract, once. Free of zod so the sandboxed preload bundle stays small;
 * the check below makes the compiler name any method of `PanelApi` missing from the list.
 */
export const methodNames = [
  'listPanels',
  'addPanel',
  'updatePanel',
  'removePanel',
  'logIn',
  'logInWithApiToken',
  'logOut',
  'addPanelAccount',
  'removePanelAccount',
  'chooseWriteAccount',
  'getSession',
  'getCachedSession',
  'checkPanels',
  'getFleetState',
  'cancelChecks',
  'cancelSessionRead',
  'trustCertificate',
  'forgetCertificate',
  'getAppStatus',
  'updateSettings',
  'exportPanels',
  'saveTextFile',
  'openTextFile',
  'previewImport',
  'applyImport',
  'duplicatePanel',
  'updatePanels',
  'logOutPanels',
  'logInPanels',
  'cancelLogIns',
  'removePanels',
  'installUpdate',
  'listActivity',
  'listTimeline',
  'listAlerts',
  'acknowledgeAlert',
  'getStartSummary',
  'runServiceAction',
  'listServices',
  'getServerStats',
  'readServiceLogs',
  'followServiceLogs',
  'stopFollowingServiceLogs',
  'listDeployments',
  'getDeploymentLog',
  'cancelDeployment',
  'upgradePanels',
  'cancelUpgrades',
  'getUpgradeRun',
  'listFleetFiles',
  'openFleetFile',
  'createFleetFile',
  'shareInFleetFile',
  'closeFleetFile',
  'resolveFleetConflict',
  'trustFleetFilePin',
  'getFleetServices',
  'listCertificates',
  'listBackups',
  'runBackups',
  'cancelBackups',
  'runServiceActions',
  'cancelServiceActions',
  'getServiceActionRun',
  'getOperations',
  'getPanelFeatures',
  'callOperation',
  'callOperationOnPanels',
  'cancelOperationRun',
] as const satisfies readonly MethodName[];

type UnlistedMethod = Exclude<MethodName, (typeof methodNames)[number]>;
export const everyMethodListed: [UnlistedMethod] extends [never] ? true : UnlistedMethod = true;

/** The IPC channel a method travels on: one per method, all under one prefix. */
export function channelOf(method: MethodName): string {
  return `panelApi:${method}`;
}
