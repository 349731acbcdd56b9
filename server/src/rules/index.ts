import type { Rule } from './types.ts';
import { cgroupDriverMismatch } from './cgroup-driver-mismatch.ts';
import { configValueType } from './config-value-type.ts';
import { flagDeprecated } from './flag-deprecated.ts';
import { flagPositionalArgument } from './flag-positional-argument.ts';
import { flagRemoved } from './flag-removed.ts';
import { flagUnknown } from './flag-unknown.ts';
import { quantityInvalid } from './quantity-invalid.ts';
import { quantityNegative } from './quantity-negative.ts';
import { reservationExceedsCapacity } from './reservation-exceeds-capacity.ts';
import { reservedCgroupMissing } from './reserved-cgroup-missing.ts';
import { reservedResourceUnknown } from './reserved-resource-unknown.ts';
import { unitContinuationSwallowsDirective } from './unit-continuation-swallows-directive.ts';
import { unitMultipleExecStart } from './unit-multiple-execstart.ts';

export const RULES: readonly Rule[] = [
  reservedCgroupMissing,
  cgroupDriverMismatch,
  unitContinuationSwallowsDirective,
  unitMultipleExecStart,
  quantityInvalid,
  quantityNegative,
  reservedResourceUnknown,
  reservationExceedsCapacity,
  configValueType,
  flagUnknown,
  flagRemoved,
  flagPositionalArgument,
  flagDeprecated,
];
