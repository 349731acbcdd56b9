import type { Rule } from './types.ts';
import { configFieldUnavailable } from './config-field-unavailable.ts';
import { featureGateLocked } from './feature-gate-locked.ts';
import { featureGateRemoved } from './feature-gate-removed.ts';
import { featureGateUnknown } from './feature-gate-unknown.ts';
import { envfileLiteralQuotes } from './envfile-literal-quotes.ts';
import { unitContinuationTrailingSpace } from './unit-continuation-trailing-space.ts';
import { unitEnvironmentShadowed } from './unit-environment-shadowed.ts';
import { unitVariableUndefined } from './unit-variable-undefined.ts';
import { unitVariableUnused } from './unit-variable-unused.ts';
import { configValueInvalid } from './config-value-invalid.ts';
import { configNeedsFeatureGate } from './config-needs-feature-gate.ts';
import { reservedMemoryInvalid } from './reserved-memory-invalid.ts';
import { cpuManagerStaticNeedsReservation } from './cpu-manager-static-needs-reservation.ts';
import { flagDuplicate } from './flag-duplicate.ts';
import { flagValueInvalid } from './flag-value-invalid.ts';
import { memoryManagerReservedMismatch } from './memory-manager-reserved-mismatch.ts';
import { reservedCgroupSystemdName } from './reserved-cgroup-systemd-name.ts';
import { reservedCgroupUnused } from './reserved-cgroup-unused.ts';
import { reservedCgroupV1Controllers } from './reserved-cgroup-v1-controllers.ts';
import { reservedCpusConflict } from './reserved-cpus-conflict.ts';
import { systemReservedEnforced } from './system-reserved-enforced.ts';
import { cgroupDriverInvalid } from './cgroup-driver-invalid.ts';
import { configFieldUnknown } from './config-field-unknown.ts';
import { enforceCompressibleConflict, enforceDuplicate, enforceNoneExclusive, enforceUnknownValue } from './enforce-values.ts';
import { enforceReservationEmpty } from './enforce-reservation-empty.ts';
import { enforceRequiresCgroupsPerQos } from './enforce-requires-cgroups-per-qos.ts';
import { evictionDefaultsDropped } from './eviction-defaults-dropped.ts';
import { platformDefaultMapReplaced } from './platform-default-map-replaced.ts';
import { platformSettingRefused } from './platform-setting-refused.ts';
import { quantityDecimalSuffix } from './quantity-decimal-suffix.ts';
import { evictionSoftNotAboveHard } from './eviction-soft-not-above-hard.ts';
import { evictionGraceInvalid } from './eviction-grace-invalid.ts';
import { evictionPercentageRange } from './eviction-percentage-range.ts';
import { evictionSignalUnknown } from './eviction-signal-unknown.ts';
import { evictionSoftWithoutGrace } from './eviction-soft-without-grace.ts';
import { evictionSyntax } from './eviction-syntax.ts';
import { evictionThresholdIneffective } from './eviction-threshold-ineffective.ts';
import { cgroupDriverMismatch } from './cgroup-driver-mismatch.ts';
import { configFieldType } from './config-field-type.ts';
import { flagDeprecated } from './flag-deprecated.ts';
import { flagOverridesConfig } from './flag-overrides-config.ts';
import { flagPositionalArgument } from './flag-positional-argument.ts';
import { flagRemoved } from './flag-removed.ts';
import { flagUnknown } from './flag-unknown.ts';
import { quantityInvalid } from './quantity-invalid.ts';
import { quantityNegative } from './quantity-negative.ts';
import { reservationExceedsCapacity } from './reservation-exceeds-capacity.ts';
import { reservationsMissing } from './reservations-missing.ts';
import { reservedCgroupMissing } from './reserved-cgroup-missing.ts';
import { reservedResourceUnknown } from './reserved-resource-unknown.ts';
import { unitContinuationSwallowsDirective } from './unit-continuation-swallows-directive.ts';
import { unitExecStartNotReset } from './unit-execstart-not-reset.ts';

/** The rules that hold for every node; each platform adds its own (registry.ts RULES). */
export const CORE_RULES: readonly Rule[] = [
  reservedCgroupMissing,
  reservedCgroupUnused,
  reservedCgroupSystemdName,
  reservedCgroupV1Controllers,
  systemReservedEnforced,
  reservedCpusConflict,
  cpuManagerStaticNeedsReservation,
  memoryManagerReservedMismatch,
  enforceNoneExclusive,
  enforceDuplicate,
  enforceUnknownValue,
  enforceRequiresCgroupsPerQos,
  enforceReservationEmpty,
  enforceCompressibleConflict,
  cgroupDriverMismatch,
  cgroupDriverInvalid,
  unitContinuationSwallowsDirective,
  unitContinuationTrailingSpace,
  unitVariableUndefined,
  unitVariableUnused,
  unitEnvironmentShadowed,
  envfileLiteralQuotes,
  unitExecStartNotReset,
  quantityInvalid,
  quantityNegative,
  reservedResourceUnknown,
  reservationExceedsCapacity,
  reservationsMissing,
  configFieldType,
  configFieldUnknown,
  configFieldUnavailable,
  configValueInvalid,
  configNeedsFeatureGate,
  reservedMemoryInvalid,
  evictionSignalUnknown,
  evictionSyntax,
  evictionPercentageRange,
  evictionThresholdIneffective,
  evictionSoftWithoutGrace,
  evictionSoftNotAboveHard,
  evictionGraceInvalid,
  evictionDefaultsDropped,
  platformDefaultMapReplaced,
  platformSettingRefused,
  quantityDecimalSuffix,
  flagUnknown,
  flagRemoved,
  flagPositionalArgument,
  flagValueInvalid,
  flagDuplicate,
  flagOverridesConfig,
  flagDeprecated,
  featureGateUnknown,
  featureGateRemoved,
  featureGateLocked,
];
