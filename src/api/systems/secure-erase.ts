// One-button secure erase on the computer system (the vendor's
// SecureSystemErase, ilorest onebuttonerase): the action, and the statuses the
// system's Oem object shows while it runs. What it erases is the domain's
// (../../domain/manager/secure-erase.ts).
import { ERASE_STATUSES } from '../../domain/manager/secure-erase.js';
import { defineAction, ro, t } from '../../protocol/description.js';
import { success } from '../../protocol/reply.js';
import type { ActionContext } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { oemType } from '../../protocol/naming.js';

export type SecureEraseDeps = Pick<Services, 'managerFeatures'>;

const status = ro(t.enum(ERASE_STATUSES));

export const SECURE_ERASE_ACTION = defineAction({
  name: `${oemType('ComputerSystemExt')}.SecureSystemErase`,
  oem: true,
  description:
    "Erase the server at its next POST: the system ROM and controller settings (BIOS defaults, Secure Boot keys, then the controller's factory reset) and the user data (the TPM).",
  parameters: { SystemROMAndiLOErase: t.boolean({ required: true }), UserDataErase: t.boolean({ required: true }) },
});

/** The system's Oem properties of the erase. */
export const SECURE_ERASE_PROPS = {
  SystemROMAndiLOEraseStatus: status,
  UserDataEraseStatus: status,
  ElapsedEraseTimeInMinutes: ro(t.integer()),
  EstimatedEraseTimeInMinutes: ro(t.integer()),
  SystemROMAndiLOEraseComponentStatus: ro(
    t.object({ BIOSSettingsEraseStatus: status, iLOSettingsEraseStatus: status }, { typeName: 'SystemROMAndiLOEraseComponentStatus' }),
  ),
  UserDataEraseComponentStatus: ro(
    t.object(
      {
        NVDIMMEraseStatus: status,
        NVMeDrivesEraseStatus: status,
        SATADrivesEraseStatus: status,
        SmartStorageEraseStatus: status,
        TPMEraseStatus: status,
      },
      { typeName: 'UserDataEraseComponentStatus' },
    ),
  ),
};

export function secureEraseBody(d: SecureEraseDeps) {
  const e = d.managerFeatures.secureErase;
  const s = e.state();
  const t = e.times();
  const rom = s.SystemROMAndiLOEraseStatus;
  const user = s.UserDataEraseStatus;
  return {
    SystemROMAndiLOEraseStatus: rom,
    UserDataEraseStatus: user,
    ElapsedEraseTimeInMinutes: t.elapsed,
    EstimatedEraseTimeInMinutes: t.estimated,
    SystemROMAndiLOEraseComponentStatus: { BIOSSettingsEraseStatus: rom, iLOSettingsEraseStatus: rom },
    UserDataEraseComponentStatus: {
      NVDIMMEraseStatus: user,
      NVMeDrivesEraseStatus: user,
      SATADrivesEraseStatus: user,
      SmartStorageEraseStatus: user,
      TPMEraseStatus: user,
    },
  };
}

export function secureEraseHandler(d: SecureEraseDeps) {
  return (ctx: ActionContext<'/redfish/v1/Systems/{SystemId}/', typeof SECURE_ERASE_ACTION>) => {
    d.managerFeatures.secureErase.request(ctx.body.SystemROMAndiLOErase, ctx.body.UserDataErase, ctx.principal.userName);
    return success();
  };
}
