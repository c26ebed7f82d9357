// When a firmware update applies (DMTF OperationApplyTime), as the dialect offers it.
import type { UpdateApplyTime } from '../../domain/firmware/flasher.js';
import type { Services } from '../services.js';

/**
 * The apply times an update may ask for (`@Redfish.OperationApplyTime` of SimpleUpdate and of the
 * MultipartHttpPushUri's UpdateParameters): OnTargetReset is DMTF's (2024), offered in the dmtf dialect.
 */
export function updateApplyTimes(d: Pick<Services, 'dialect'>): readonly [UpdateApplyTime, ...UpdateApplyTime[]] {
  return d.dialect.name === 'dmtf' ? ['Immediate', 'OnTargetReset'] : ['Immediate'];
}
