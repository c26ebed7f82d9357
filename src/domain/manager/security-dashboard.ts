// The security dashboard: the controller's security-relevant settings, each
// rated Ok or Risk from the controller's state, as the vendor's controller
// rates them (names, order and texts are its own). A client may ignore a
// risk; the dashboard remembers who and when. Settings the simulation does not
// model read as they do on a controller left at its factory settings.
import type { DocumentStore } from '../../store/documents.js';

/** What the ratings are made from: the controller's current state. */
export interface SecurityFacts {
  minPasswordLength: number;
  secureBootEnabled: boolean;
  snmpV1Enabled: boolean;
  selfSignedCertificate: boolean;
  lastScanResult: 'OK' | 'Failed' | 'Repaired' | undefined;
  authFailureLogging: boolean;
}

export interface SecurityParam {
  Id: string;
  Name: string;
  SecurityStatus: 'Ok' | 'Risk';
  State: string;
  Description?: string;
  RecommendedAction?: string;
}

interface Ignored {
  by: string;
  at: number;
}

const IGNORED = 'manager.securityDashboard.ignored';

function param(
  Id: number,
  Name: string,
  risk: boolean,
  State: string,
  why?: { Description: string; RecommendedAction: string },
): SecurityParam {
  return { Id: String(Id), Name, SecurityStatus: risk ? 'Risk' : 'Ok', State, ...(risk && why ? why : {}) };
}

/** The dashboard's rows, in the vendor's order. */
export function securityParams(f: SecurityFacts): SecurityParam[] {
  return [
    param(0, 'Security Override Switch', false, 'Off'),
    param(1, 'IPMI/DCMI Over LAN', false, 'Disabled'),
    param(2, 'Minimum Password Length', f.minPasswordLength < 8, f.minPasswordLength < 8 ? 'Not Ok' : 'Ok', {
      Description: 'The Minimum Password Length setting is below the recommended minimum of 8 characters.',
      RecommendedAction: 'Set the minimum password length to 8 characters or more.',
    }),
    param(3, 'Require Login for iLO RBSU', true, 'Disabled', {
      Description:
        'The Require Login for iLO RBSU setting is disabled. This configuration allows unauthenticated iLO access through the UEFI System Utilities.',
      RecommendedAction: 'Enable the Require Login for iLO RBSU setting.',
    }),
    param(4, 'Authentication Failure Logging', !f.authFailureLogging, f.authFailureLogging ? 'Enabled' : 'Disabled', {
      Description: 'Authentication failure logging is disabled.',
      RecommendedAction: 'Enable authentication failure logging.',
    }),
    param(5, 'Secure Boot', !f.secureBootEnabled, f.secureBootEnabled ? 'Enabled' : 'Disabled', {
      Description:
        'The UEFI Secure Boot setting is disabled. In this configuration, the UEFI system firmware does not validate the boot loader, Option ROM firmware, and other system software executables for trusted signatures.',
      RecommendedAction: 'Enable the Secure Boot setting in the UEFI System Utilities.',
    }),
    param(6, 'Password Complexity', true, 'Disabled', {
      Description: 'The Password Complexity setting is disabled. This configuration increases system vulnerability to attack.',
      RecommendedAction: 'Enable the "Password Complexity" setting.',
    }),
    param(7, 'Require Host Authentication', false, 'Disabled'),
    param(8, 'SNMPv1', f.snmpV1Enabled, f.snmpV1Enabled ? 'Enabled' : 'Disabled', {
      Description: 'SNMPv1 is enabled. This configuration increases system vulnerability to attack.',
      RecommendedAction: 'Disable the SNMPv1 protocol.',
    }),
    param(9, 'Default SSL Certificate In Use', f.selfSignedCertificate, f.selfSignedCertificate ? 'True' : 'False', {
      Description: "Management processor's default self-signed certificate is in use.",
      RecommendedAction: 'Import a certificate signed by a trusted certificate authority.',
    }),
    param(10, 'Last Firmware Scan Result', f.lastScanResult === 'Failed', f.lastScanResult === 'Failed' ? 'Failed' : 'Ok', {
      Description: 'The last firmware integrity scan found a component whose image does not verify.',
      RecommendedAction: 'Update or repair the failed firmware component.',
    }),
  ];
}

export class SecurityDashboard {
  constructor(private readonly store: DocumentStore) {}

  ignored(): Readonly<Record<string, Ignored>> {
    return this.store.setting<Record<string, Ignored>>(IGNORED, {}).peek();
  }

  setIgnored(id: string, ignore: boolean, by: string, at: number): void {
    const s = this.store.setting<Record<string, Ignored>>(IGNORED, {});
    const next = { ...s.get() };
    if (ignore) next[id] = { by, at };
    else delete next[id];
    s.set(next);
  }

  /** Ok when every risk not ignored is gone. */
  overall(params: readonly SecurityParam[]): 'Ok' | 'Risk' {
    const ignored = this.ignored();
    return params.some((p) => p.SecurityStatus === 'Risk' && !ignored[p.Id]) ? 'Risk' : 'Ok';
  }

  reset(): void {
    this.store.setting<Record<string, Ignored>>(IGNORED, {}).set({});
  }
}
