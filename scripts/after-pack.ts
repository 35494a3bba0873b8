import { join } from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion, type FuseV1Config } from '@electron/fuses';

/**
 * electron-builder's `afterPack` hook (electron-builder.yml): flips the packaged Electron's fuses,
 * after the app is copied in and before it is signed, so the signature covers the flipped bits.
 * electron-builder loads this file with `require`; Node 22.18 and later strip the types itself.
 */

/**
 * The fuses of every packaged build. `strictlyRequireAllFuses` makes packaging fail when an
 * Electron upgrade brings a fuse this list does not decide (and the type asks for all of them).
 */
export const PACKAGED_FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  // ELECTRON_RUN_AS_NODE would turn the signed app into a plain Node for anyone who sets it.
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  // No NODE_OPTIONS (e.g. --require) and no --inspect: nothing outside the app runs code in main.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // app.asar is checked against the hash electron-builder embeds (macOS, Windows), and is the only app loaded.
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // Electron's defaults: no custom V8 snapshot is shipped, and WebAssembly keeps its fast bounds checks.
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  [FuseV1Options.WasmTrapHandlers]: true,
  // The page comes from app://, never file://, so file:// needs no more than a browser gives it.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
} as const satisfies FuseV1Config;

/** electron-builder's `Arch` values for which macOS needs its ad-hoc signature redone. */
const ARCH_ARM64 = 3;
const ARCH_UNIVERSAL = 4;

/** The part of electron-builder's `AfterPackContext` read here (electron-builder is not a dependency). */
export interface AfterPackContext {
  appOutDir: string;
  /** `darwin`, `mas`, `win32` or `linux`. */
  electronPlatformName: string;
  /** electron-builder's `Arch` enum: ia32 0, x64 1, armv7l 2, arm64 3, universal 4. */
  arch: number;
  packager: {
    appInfo: { productFilename: string };
    /** Only the Linux packager has it. */
    executableName?: string;
  };
}

/** The packaged Electron binary: for macOS the .app bundle, in which @electron/fuses finds the framework. */
export function packagedElectronPath(context: AfterPackContext): string {
  const { appOutDir, electronPlatformName, packager } = context;
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(appOutDir, `${packager.appInfo.productFilename}.app`);
    case 'win32':
      return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
    case 'linux':
      if (!packager.executableName) throw new Error('after-pack: the Linux packager gave no executableName');
      return join(appOutDir, packager.executableName);
    default:
      throw new Error(`after-pack: no known Electron binary for platform "${electronPlatformName}"`);
  }
}

/** PACKAGED_FUSES for one build. */
export function fuseConfigFor(context: AfterPackContext): FuseV1Config {
  const isMac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  // Flipping bits breaks an arm64 binary's ad-hoc signature, and macOS will not start an arm64
  // binary without a valid one; a real signature, if configured, replaces it afterwards.
  return { ...PACKAGED_FUSES, resetAdHocDarwinSignature: isMac && (context.arch === ARCH_ARM64 || context.arch === ARCH_UNIVERSAL) };
}

/** `log` is for the tests; electron-builder passes the context alone. */
export async function afterPack(context: AfterPackContext, log: (line: string) => void = console.log): Promise<void> {
  const binary = packagedElectronPath(context);
  // Throws when the binary has no fuse wire, or one of another version or with an undecided fuse: packaging stops.
  const wires = await flipFuses(binary, fuseConfigFor(context));
  log(`after-pack: fuses set in ${binary} (${wires} fuse wire${wires === 1 ? '' : 's'})`);
}

export default afterPack;
