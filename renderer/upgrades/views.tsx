// The upgrade run's dialog, for the window's dialogs.
export { UpgradeDialog } from './upgrade-dialog.tsx';
