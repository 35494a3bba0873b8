import type { ImportPreview, ImportResult } from '../../../shared/transfer.ts';
import type { Panel } from '../../../shared/types.ts';
import type { Run } from './harness.ts';
import type { Model, PanelModel } from './model.ts';
import { targetAddress, targetLabel, tlsServerAt, type Certificate, type Target, type World } from './world.ts';

/**
 * The calls about trust: the operator trusting a certificate (the one a refusal named, or one the
 * panel never presented), imports of pasted text (carrying an attacker's pin for a panel in the
 * list or for a new panel on another port of the same host, or harmless), and a server swapping
 * its certificate to the attacker's and back.
 */

export type ImportKind = 'pinExisting' | 'pinNew' | 'harmless';

export type TrustSpec =
  /** `presented`: the fingerprint the panel's refusal named; else one it never presented (`other` picks which). */
  | { kind: 'trust'; pick: number; presented: boolean; other: number }
  /** `csv`: harmless entries as CSV (which carries no pin); `bare`: the pin as `trustedCertificateSha256`. */
  | { kind: 'import'; what: ImportKind; pick: number; to: number; csv: boolean; bare: boolean }
  /** `to`: 0 the server's own certificate, else the attacker's (`World.attackers`) of that number. */
  | { kind: 'swap'; pick: number; to: number };

export type TrustCall =
  | { kind: 'trust'; panel: PanelModel; sha256: string; never: boolean }
  /**
   * `existing`: the panel whose address the text names; `target`/`label`: the new panel it names;
   * `pin`: the certificate the text trusts (for `existing` with pinExisting, for the new one with pinNew).
   */
  | {
      kind: 'import';
      what: ImportKind;
      existing: PanelModel | null;
      target: Target | null;
      label: string | null;
      pin: string | null;
      text: string;
    }
  | { kind: 'swap'; server: number; to: Certificate };

/** What resolving a spec may take: addresses no panel uses, and labels for new panels. */
export interface Picking {
  unused(): Target[];
  take(target: Target): void;
  label(): string;
}

/** A well-formed fingerprint of no certificate at all. */
const NOBODY = Array.from({ length: 32 }, (_, index) => (index * 7 + 1).toString(16).padStart(2, '0').toUpperCase()).join(':');

export function describeTrustSpec(spec: TrustSpec): string {
  switch (spec.kind) {
    case 'trust':
      return `trust(#${spec.pick}, ${spec.presented ? 'as presented' : `never presented #${spec.other}`})`;
    case 'import':
      return `import(${spec.what}, #${spec.pick}, unused #${spec.to}${spec.csv ? ', csv' : ''}${spec.bare ? ', bare fingerprint' : ''})`;
    case 'swap':
      return `swap(#${spec.pick} → ${spec.to === 0 ? 'own' : `attacker #${spec.to}`})`;
  }
}

export function describeTrustCall(world: World, call: TrustCall): string {
  switch (call.kind) {
    case 'trust':
      return `trust(${call.panel.label}, ${certificateName(world, call.sha256)}${call.never ? ', never presented' : ''})`;
    case 'import': {
      const parts = [
        call.existing ? `${call.existing.label}'s address` : null,
        call.target ? `${call.label}@${targetLabel(call.target)}` : null,
      ];
      return `import(${call.what}: ${parts.filter(Boolean).join(' + ')}${call.pin ? `, pin ${certificateName(world, call.pin)}` : ''})`;
    }
    case 'swap':
      return `swap(S${call.server} → ${certificateName(world, call.to.sha256)})`;
  }
}

/** A certificate as the trace names it: `attacker`, `own S3`, or its fingerprint's start. */
export function certificateName(world: World, sha256: string | null): string {
  if (sha256 === null) return 'none';
  const attacker = world.attackers.find((one) => one.sha256 === sha256);
  if (attacker) return attacker.systemTrusted ? 'attacker (system-trusted)' : 'attacker';
  const owner = world.servers.find((server) => server.tls?.own.sha256 === sha256);
  if (owner) return `own S${owner.index}${owner.tls?.own.systemTrusted ? ' (system-trusted)' : ''}`;
  return sha256.slice(0, 8);
}

/** The call, or null when it cannot apply (no panel, no TLS server, no address left). */
export function resolveTrust(run: Run, model: Model, spec: TrustSpec, picking: Picking): TrustCall | null {
  const world = run.world;
  const panel = model.panels[spec.pick % Math.max(model.panels.length, 1)] ?? null;
  switch (spec.kind) {
    case 'trust': {
      if (!panel) return null;
      if (spec.presented) {
        const shown = panel.presented;
        // Not known (calls raced): what the server presents now, the likeliest.
        const sha256 = typeof shown === 'string' && shown !== 'unknown' ? shown : tlsServerAt(world, panel.target)?.tls.presenting.sha256;
        return sha256 === undefined ? null : { kind: 'trust', panel, sha256, never: false };
      }
      // Fingerprints the panel's server never presents: another server's own, or nobody's.
      const here = tlsServerAt(world, panel.target);
      const others = world.servers.flatMap((server) => (server.tls && server !== here ? [server.tls.own.sha256] : []));
      const choices = [...others, NOBODY];
      return { kind: 'trust', panel, sha256: choices[spec.other % choices.length]!, never: true };
    }
    case 'swap': {
      const servers = world.servers.filter((server) => server.tls);
      const server = servers[spec.pick % Math.max(servers.length, 1)];
      const choices = [server?.tls?.own, ...world.attackers];
      const to = choices[spec.to % choices.length];
      return server && to ? { kind: 'swap', server: server.index, to } : null;
    }
    case 'import':
      return resolveImport(run, spec, panel, picking);
  }
}

function resolveImport(
  run: Run,
  spec: Extract<TrustSpec, { kind: 'import' }>,
  panel: PanelModel | null,
  picking: Picking,
): TrustCall | null {
  const world = run.world;
  // The attacker's self-signed certificate: the one a pin would let through where nothing else does.
  const attacker = world.attackers[0]!;
  const pinFields = spec.bare ? { trustedCertificateSha256: attacker.sha256 } : { trustedCertificate: attacker.info };
  const free = picking.unused();
  // A new panel goes preferably where a TLS server listens: same host, another port.
  const tlsFree = free.filter((target) => tlsServerAt(world, target));
  const pool = tlsFree.length > 0 ? tlsFree : free;
  const target = spec.what === 'pinExisting' ? null : (pool[spec.to % Math.max(pool.length, 1)] ?? null);
  const existing = spec.what === 'pinNew' ? null : panel;
  if (!existing && !target) return null;
  if (target) picking.take(target);
  const label = target ? picking.label() : null;
  const entries: Record<string, unknown>[] = [];
  if (existing) {
    const group = `Imported ${spec.pick}`;
    entries.push({ address: targetAddress(world, existing.target), group, ...(spec.what === 'pinExisting' ? pinFields : {}) });
  }
  if (target) entries.push({ address: targetAddress(world, target), name: label, ...(spec.what === 'pinNew' ? pinFields : {}) });
  const pin = spec.what === 'harmless' ? null : attacker.sha256;
  const csv = spec.what === 'harmless' && spec.csv;
  const text = csv
    ? ['name,address,group', ...entries.map((entry) => [entry.name ?? '', entry.address, entry.group ?? ''].join(','))].join('\n')
    : JSON.stringify(entries);
  return { kind: 'import', what: spec.what, existing, target, label, pin, text };
}

/** What an import answered: its preview, and what applying it did. */
export interface Imported {
  preview: ImportPreview;
  result: ImportResult;
}

/** Runs the call: an import is previewed, then applied with duplicates updated, as the operator confirms it. */
export async function invokeTrust(run: Run, call: TrustCall): Promise<Panel | Imported | undefined> {
  switch (call.kind) {
    case 'trust':
      return run.core.trustCertificate(call.panel.id, { sha256: call.sha256 });
    case 'import': {
      const preview = (await run.core.previewImport({ from: 'text', text: call.text })) as ImportPreview;
      return { preview, result: await run.core.applyImport(preview.id, { duplicates: 'update' }) };
    }
    case 'swap': {
      const server = run.world.servers[call.server]!;
      const tls = server.tls!;
      // The server presents the new certificate from this moment: the model knows it at once.
      tls.presenting = call.to;
      await server.panel.setCertificate(tls.presenting.pem);
      return undefined;
    }
  }
}
