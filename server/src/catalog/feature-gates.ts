/**
 * Feature gates the kubelet binary knows, per minor version.
 *
 * The kubelet parses `featureGates` / `--feature-gates` with
 * utilfeature.DefaultMutableFeatureGate.SetFromMap (cmd/kubelet/app/server.go)
 * and refuses to start on
 *   - a name it does not know: `unrecognized feature gate: X` (never existed,
 *     not added yet in this version, or removed);
 *   - a gate locked to its default set the other way:
 *     `cannot set feature gate X to false, feature is locked to true`
 *     (k8s.io/component-base/featuregate/feature_gate.go).
 *
 * What the kubelet's gate set holds (each source read in kubernetes/kubernetes):
 *   - pkg/features/kube_features.go `defaultVersionedKubernetesFeatureGates`
 *     (versioned since 1.31; read at the 1.35-era version, index id 378079260,
 *     and at commit b0b89d3bd251db932ed5a7bef66039fb88acab64 (1.33)), which also
 *     relists the k8s.io/apiserver (genericfeatures), apiextensions-apiserver,
 *     controller-manager (kcmfeatures) and component-base/zpages gates;
 *   - the client-go gates, registered by the same init() through clientAdapter
 *     (staging/src/k8s.io/client-go/features/known_features.go, since 1.30);
 *   - k8s.io/component-base/logs/api/v1 (kube_features.go), registered by
 *     cmd/kubelet/app/server.go init() (read at commit 001332b0422071acf4860769f18e34b5e9b7c1bc);
 *   - k8s.io/component-base/metrics/features, registered by
 *     pkg/kubelet/server/server.go init();
 *   - the scheduler/DRA gates that 1.37 moved into their own
 *     `SetupCurrentKubernetesSpecificFeatureGates` file (read at the 1.37-era
 *     version, index id 61706514746; that the kubelet still registers them is
 *     presumed: DRA and in-place resize are kubelet features);
 *   - `AllAlpha` / `AllBeta`, which every featuregate.FeatureGate knows.
 *
 * Removed gates: the version a gate left the kubelet comes from comparing
 * versions of kube_features.go (1.28-era id 333759641, 1.30-era id 6300876,
 * versioned_kube_features.go of 1.31 id 85381328 and of early 1.33 id 688781,
 * 1.33, 1.35), from kubernetes/website
 * content/en/docs/reference/command-line-tools-reference/feature-gates-removed/index.md
 * (commit 27b6d148241c53aad8cfdeadf06b1bcaf1dfa505), and from
 * shared/reference/kubelet-facts.md §4. `approximate` marks a version that is
 * only bracketed (present in one source version, gone in a later one): we then
 * take the later bound, so a kubelet between the two is not wrongly failed.
 *
 * Coverage: kube_features.go is complete up to 1.35 (GATES_COMPLETE_THROUGH);
 * for 1.36+ only the scheduler/DRA file was readable, so gates added to
 * kube_features.go in 1.36/1.37 are missing and removals there are not recorded.
 *
 * Backfilled specs: when a gate was added already GA/deprecated, kube_features.go
 * starts its history at a synthetic `1.0`; `addedIn` records the real release
 * the gate appeared in (an older kubelet does not know it).
 */
import { compareVersions } from './flags.ts';
import { lazyTable, once, tableOf } from './lazy.ts';

export interface GateSpec {
  since: string;
  default: boolean;
  stage: 'alpha' | 'beta' | 'ga' | 'deprecated';
  locked?: boolean;
}

export interface FeatureGate {
  name: string;
  /** Ascending by since. */
  specs: GateSpec[];
  /** First minor version whose kubelet no longer knows the gate. */
  removedIn?: string;
  /** True when removedIn (or addedIn) is only approximately known. */
  approximate?: boolean;
  /** First release that registered the gate, when earlier specs are backfilled (`1.0`); default: specs[0].since. */
  addedIn?: string;
  /** One line in this project's words. */
  description?: string;
}

/** Newest minor version for which every kube_features.go gate is in the table. */
export const GATES_COMPLETE_THROUGH = '1.35';

/** `'1.33 ga on locked'` -> GateSpec. */
function spec(s: string): GateSpec {
  const [since, stage, onOff, lock] = s.split(' ');
  if (!since || !stage || (onOff !== 'on' && onOff !== 'off') || (lock !== undefined && lock !== 'locked')) {
    throw new Error(`bad gate spec "${s}"`);
  }
  if (stage !== 'alpha' && stage !== 'beta' && stage !== 'ga' && stage !== 'deprecated') throw new Error(`bad gate stage "${s}"`);
  return lock ? { since, stage, default: onOff === 'on', locked: true } : { since, stage, default: onOff === 'on' };
}

type Extra = Omit<Partial<FeatureGate>, 'name' | 'specs'>;
function g(name: string, specs: string[], extra?: Extra): FeatureGate {
  return { name, specs: specs.map(spec), ...extra };
}
/** A removed gate: the version it went, its history (at least the last stage). */
function r(name: string, removedIn: string, specs: string[], extra?: Extra): FeatureGate {
  return { name, specs: specs.map(spec), removedIn, ...extra };
}
const APPROX = { approximate: true } as const;

// ---------------------------------------------------------------------------
// Known to current kubelets: pkg/features/kube_features.go (1.35-era), with the
// 1.37-era scheduler/DRA file superseding the entries it carries.
// ---------------------------------------------------------------------------
const KUBE = (): FeatureGate[] => [
  g('AllowDNSOnlyNodeCSR', ['1.0 ga on', '1.31 deprecated off'], { addedIn: '1.31', description: 'Lets the kubelet request a serving certificate with DNS names only (pre-1.31 behaviour).' }),
  g('AllowInsecureKubeletCertificateSigningRequests', ['1.0 ga on', '1.31 deprecated off'], { addedIn: '1.31' }),
  g('AllowOverwriteTerminationGracePeriodSeconds', ['1.0 ga on', '1.32 deprecated off', '1.35 deprecated off locked'], { addedIn: '1.32' }),
  g('AnyVolumeDataSource', ['1.18 alpha off', '1.24 beta on', '1.33 ga on locked']),
  g('AuthorizeNodeWithSelectors', ['1.31 alpha off', '1.32 beta on', '1.34 ga on locked']),
  g('AuthorizePodWebsocketUpgradeCreatePermission', ['1.35 beta on']),
  g('CustomCPUCFSQuotaPeriod', ['1.12 alpha off'], { description: 'Allows changing cpuCFSQuotaPeriod from 100ms.' }),
  g('CPUManagerPolicyAlphaOptions', ['1.23 alpha off']),
  g('CPUManagerPolicyBetaOptions', ['1.23 beta on']),
  g('CPUManagerPolicyOptions', ['1.22 alpha off', '1.23 beta on', '1.33 ga on locked']),
  g('CSIMigrationPortworx', ['1.23 alpha off', '1.25 beta off', '1.31 beta on', '1.33 ga on locked']),
  g('CSIServiceAccountTokenSecrets', ['1.35 beta on']),
  g('CSIVolumeHealth', ['1.21 alpha off']),
  g('ChangeContainerStatusOnKubeletRestart', ['1.0 ga on', '1.35 deprecated off'], { addedIn: '1.35' }),
  g('ClearingNominatedNodeNameAfterBinding', ['1.34 alpha off', '1.35 beta on']),
  g('ClusterTrustBundle', ['1.27 alpha off', '1.33 beta off']),
  g('ClusterTrustBundleProjection', ['1.29 alpha off', '1.33 beta off']),
  g('ContainerCheckpoint', ['1.25 alpha off', '1.30 beta on']),
  g('ContainerRestartRules', ['1.34 alpha off', '1.35 beta on']),
  g('ContainerStopSignals', ['1.33 alpha off']),
  g('CoordinatedLeaderElection', ['1.31 alpha off', '1.33 beta off']),
  g('CrossNamespaceVolumeDataSource', ['1.26 alpha off']),
  g('DeploymentReplicaSetTerminatingReplicas', ['1.33 alpha off', '1.35 beta on']),
  g('DisableAllocatorDualWrite', ['1.31 alpha off', '1.33 beta off', '1.34 ga on', '1.35 ga on locked']),
  g('DisableCPUQuotaWithExclusiveCPUs', ['1.33 beta on'], { description: 'No CFS quota for containers with exclusive CPUs; off restores the old throttling.' }),
  g('DisableNodeKubeProxyVersion', ['1.29 alpha off', '1.31 deprecated off', '1.33 deprecated on']),
  g('EnvFiles', ['1.34 alpha off', '1.35 beta on']),
  g('EventedPLEG', ['1.26 alpha off'], { description: 'Event-driven pod lifecycle events from the CRI instead of periodic relisting.' }),
  g('ExecProbeTimeout', ['1.20 ga on', '1.35 ga on locked'], { description: 'Exec probes honour timeoutSeconds; false restores the pre-1.20 behaviour of ignoring it.' }),
  g('ExternalServiceAccountTokenSigner', ['1.32 alpha off', '1.34 beta on']),
  g('GangScheduling', ['1.35 alpha off']),
  g('GitRepoVolumeDriver', ['1.0 ga on', '1.33 deprecated off'], { addedIn: '1.33', description: 'Re-enables the deprecated gitRepo volume plugin.' }),
  g('GracefulNodeShutdown', ['1.20 alpha off', '1.21 beta on'], { description: 'Delays node shutdown through a systemd inhibitor lock so pods terminate gracefully.' }),
  g('GracefulNodeShutdownBasedOnPodPriority', ['1.23 alpha off', '1.24 beta on']),
  g('HPAConfigurableTolerance', ['1.33 alpha off', '1.35 beta on']),
  g('HPAScaleToZero', ['1.16 alpha off']),
  g('HonorPVReclaimPolicy', ['1.23 alpha off', '1.31 beta on', '1.33 ga on locked']),
  g('HostnameOverride', ['1.34 alpha off', '1.35 beta on']),
  g('ImageMaximumGCAge', ['1.29 alpha off', '1.30 beta on', '1.35 ga on locked'], { description: 'Enables the imageMaximumGCAge config field.' }),
  g('ImageVolume', ['1.31 alpha off', '1.33 beta off', '1.35 beta on']),
  g('ImageVolumeWithDigest', ['1.35 alpha off']),
  g('InPlacePodVerticalScalingAllocatedStatus', ['1.32 alpha off', '1.33 deprecated off']),
  g('InPlacePodVerticalScalingExclusiveCPUs', ['1.32 alpha off']),
  g('InPlacePodVerticalScalingExclusiveMemory', ['1.34 alpha off']),
  g('InTreePluginPortworxUnregister', ['1.23 alpha off']),
  g('JobBackoffLimitPerIndex', ['1.28 alpha off', '1.29 beta on', '1.33 ga on locked']),
  g('JobManagedBy', ['1.30 alpha off', '1.32 beta on', '1.35 ga on locked']),
  g('JobPodReplacementPolicy', ['1.28 alpha off', '1.29 beta on', '1.34 ga on locked']),
  g('JobSuccessPolicy', ['1.30 alpha off', '1.31 beta on', '1.33 ga on locked']),
  g('KubeletCgroupDriverFromCRI', ['1.28 alpha off', '1.31 beta on', '1.34 ga on locked'], { description: 'The kubelet takes the cgroup driver from the container runtime when it reports one.' }),
  g('KubeletCrashLoopBackOffMax', ['1.32 alpha off', '1.35 beta on']),
  g('KubeletEnsureSecretPulledImages', ['1.33 alpha off', '1.35 beta on']),
  g('KubeletFineGrainedAuthz', ['1.32 alpha off', '1.33 beta on']),
  g('KubeletInUserNamespace', ['1.22 alpha off'], { description: 'Tolerates the errors of running the kubelet inside a user namespace (rootless).' }),
  g('KubeletPSI', ['1.33 alpha off', '1.34 beta on']),
  g('KubeletPodResourcesDynamicResources', ['1.27 alpha off', '1.34 beta on']),
  g('KubeletPodResourcesGet', ['1.27 alpha off', '1.34 beta on']),
  g('KubeletPodResourcesListUseActivePods', ['1.0 ga off', '1.34 deprecated on'], { addedIn: '1.34' }),
  g('KubeletRegistrationGetOnExistsOnly', ['1.0 ga on', '1.32 deprecated off'], { addedIn: '1.32' }),
  g('KubeletSeparateDiskGC', ['1.29 alpha off', '1.31 beta on']),
  g('KubeletServiceAccountTokenForCredentialProviders', ['1.33 alpha off', '1.34 beta on']),
  g('KubeletTracing', ['1.25 alpha off', '1.27 beta on', '1.34 ga on locked']),
  g('LocalStorageCapacityIsolationFSQuotaMonitoring', ['1.15 alpha off', '1.31 beta off']),
  g('LogarithmicScaleDown', ['1.21 alpha off', '1.22 beta on', '1.31 ga on locked']),
  g('MatchLabelKeysInPodAffinity', ['1.29 alpha off', '1.31 beta on', '1.33 ga on locked']),
  g('MatchLabelKeysInPodTopologySpreadSelectorMerge', ['1.34 beta on']),
  g('MaxUnavailableStatefulSet', ['1.24 alpha off', '1.35 beta on']),
  g('MemoryManager', ['1.21 alpha off', '1.22 beta on', '1.32 ga on locked']),
  g('MemoryQoS', ['1.22 alpha off'], { description: 'cgroup v2 memory.min/memory.high from requests and limits.' }),
  g('MultiCIDRServiceAllocator', ['1.27 alpha off', '1.31 beta off', '1.33 ga on', '1.34 ga on locked']),
  g('MutableCSINodeAllocatableCount', ['1.33 alpha off', '1.34 beta off', '1.35 beta on']),
  g('MutablePVNodeAffinity', ['1.35 alpha off']),
  g('MutablePodResourcesForSuspendedJobs', ['1.35 alpha off']),
  g('MutableSchedulingDirectivesForSuspendedJobs', ['1.35 alpha off']),
  g('NFTablesProxyMode', ['1.29 alpha off', '1.31 beta on', '1.33 ga on locked']),
  g('NodeLogQuery', ['1.27 alpha off', '1.30 beta off']),
  g('NodeSwap', ['1.22 alpha off', '1.28 beta off', '1.30 beta on', '1.34 ga on locked'], { description: 'Lets the kubelet run with swap on (memorySwap.swapBehavior).' }),
  g('OrderedNamespaceDeletion', ['1.30 beta off', '1.33 beta on', '1.34 ga on locked']),
  g('PodAndContainerStatsFromCRI', ['1.23 alpha off']),
  g('PodCertificateRequest', ['1.34 alpha off', '1.35 beta off']),
  g('PodDeletionCost', ['1.21 alpha off', '1.22 beta on']),
  g('PodLifecycleSleepAction', ['1.29 alpha off', '1.30 beta on', '1.34 ga on locked']),
  g('PodLifecycleSleepActionAllowZero', ['1.32 alpha off', '1.33 beta on', '1.34 ga on locked']),
  g('PodLogsQuerySplitStreams', ['1.32 alpha off']),
  g('PodObservedGenerationTracking', ['1.33 alpha off', '1.34 beta on', '1.35 ga on locked']),
  g('PodReadyToStartContainersCondition', ['1.28 alpha off', '1.29 beta on']),
  g('PodSchedulingReadiness', ['1.26 alpha off', '1.27 beta on', '1.30 ga on locked']),
  g('PodTopologyLabelsAdmission', ['1.33 alpha off', '1.35 beta on']),
  g('PortForwardWebsockets', ['1.30 alpha off', '1.31 beta on']),
  g('PreferSameTrafficDistribution', ['1.33 alpha off', '1.34 beta on', '1.35 ga on locked']),
  g('PreventStaticPodAPIReferences', ['1.34 beta on']),
  g('ProcMountType', ['1.12 alpha off', '1.31 beta off', '1.33 beta on']),
  g('QOSReserved', ['1.11 alpha off'], { description: 'Enables --qos-reserved / qosReserved memory reservations per QoS class.' }),
  g('RecoverVolumeExpansionFailure', ['1.23 alpha off', '1.32 beta on', '1.34 ga on locked']),
  g('RecursiveReadOnlyMounts', ['1.30 alpha off', '1.31 beta on', '1.33 ga on locked']),
  g('ReduceDefaultCrashLoopBackOffDecay', ['1.33 alpha off']),
  g('RelaxedDNSSearchValidation', ['1.32 alpha off', '1.33 beta on', '1.34 ga on locked']),
  g('RelaxedEnvironmentVariableValidation', ['1.30 alpha off', '1.32 beta on', '1.34 ga on locked']),
  g('RelaxedServiceNameValidation', ['1.34 alpha off']),
  g('ReloadKubeletServerCertificateFile', ['1.31 beta on']),
  g('ResourceHealthStatus', ['1.31 alpha off']),
  g('RestartAllContainersOnContainerExits', ['1.35 alpha off']),
  g('RotateKubeletServerCertificate', ['1.7 alpha off', '1.12 beta on'], { description: 'Serving certificate from a CSR, rotated before expiry (serverTLSBootstrap).' }),
  g('RuntimeClassInImageCriApi', ['1.29 alpha off']),
  g('SELinuxChangePolicy', ['1.32 alpha off', '1.33 beta on']),
  g('SELinuxMount', ['1.30 alpha off', '1.33 beta off']),
  g('SELinuxMountReadWriteOncePod', ['1.25 alpha off', '1.27 beta off', '1.28 beta on']),
  g('SchedulerQueueingHints', ['1.28 beta off', '1.32 beta on', '1.34 ga on locked']),
  g('SeparateTaintEvictionController', ['1.29 beta on', '1.34 ga on locked']),
  g('ServiceAccountNodeAudienceRestriction', ['1.32 beta off', '1.33 beta on']),
  g('ServiceAccountTokenJTI', ['1.29 alpha off', '1.30 beta on', '1.32 ga on locked']),
  g('ServiceAccountTokenNodeBinding', ['1.29 alpha off', '1.31 beta on', '1.33 ga on locked']),
  g('ServiceAccountTokenNodeBindingValidation', ['1.29 alpha off', '1.30 beta on', '1.32 ga on locked']),
  g('ServiceAccountTokenPodNodeInfo', ['1.29 alpha off', '1.30 beta on', '1.32 ga on locked']),
  g('ServiceTrafficDistribution', ['1.30 alpha off', '1.31 beta on', '1.33 ga on locked']),
  g('SidecarContainers', ['1.28 alpha off', '1.29 beta on', '1.33 ga on locked']),
  // "1.0 Beta" is a backfill; the mitigation arrived with the 1.34/1.35 fix (approximate).
  g('StatefulSetSemanticRevisionComparison', ['1.0 beta on'], { addedIn: '1.34', approximate: true }),
  g('StorageNamespaceIndex', ['1.30 beta on', '1.33 deprecated on']),
  g('StorageVersionMigrator', ['1.30 alpha off', '1.35 beta off']),
  g('StreamingCollectionEncodingToJSON', ['1.33 beta on', '1.34 ga on locked']),
  g('StreamingCollectionEncodingToProtobuf', ['1.33 beta on', '1.34 ga on locked']),
  g('StrictIPCIDRValidation', ['1.33 alpha off']),
  g('SupplementalGroupsPolicy', ['1.31 alpha off', '1.33 beta on', '1.35 ga on locked']),
  g('SystemdWatchdog', ['1.32 beta on', '1.35 ga on locked'], { description: 'The kubelet pings the systemd watchdog when the unit sets WatchdogSec.' }),
  g('TopologyAwareHints', ['1.21 alpha off', '1.23 beta off', '1.24 beta on', '1.33 ga on locked']),
  g('TopologyManagerPolicyAlphaOptions', ['1.26 alpha off']),
  g('TopologyManagerPolicyBetaOptions', ['1.26 beta off', '1.28 beta on']),
  g('TopologyManagerPolicyOptions', ['1.26 alpha off', '1.28 beta on', '1.32 ga on']),
  g('TranslateStreamCloseWebsocketRequests', ['1.29 alpha off', '1.30 beta on']),
  g('UserNamespacesHostNetworkSupport', ['1.35 alpha off']),
  g('UserNamespacesSupport', ['1.25 alpha off', '1.30 beta off', '1.33 beta on']),
  g('WinDSR', ['1.14 alpha off', '1.33 beta on', '1.34 ga on locked']),
  g('WinOverlay', ['1.14 alpha off', '1.20 beta on', '1.34 ga on locked']),
  g('WindowsCPUAndMemoryAffinity', ['1.32 alpha off']),
  g('WindowsGracefulNodeShutdown', ['1.32 alpha off', '1.34 beta on']),
  g('WindowsHostNetwork', ['1.26 alpha off', '1.33 deprecated off']),
  // apiextensions-apiserver gates relisted in kube_features.go
  g('CRDObservedGenerationTracking', ['1.35 beta off']),
  g('CRDValidationRatcheting', ['1.28 alpha off', '1.30 beta on', '1.33 ga on locked']),
  g('CustomResourceFieldSelectors', ['1.30 alpha off', '1.31 beta on', '1.32 ga on locked']),
  // k8s.io/apiserver gates (genericfeatures) relisted in kube_features.go
  g('APIResponseCompression', ['1.8 alpha off', '1.16 beta on']),
  g('APIServerIdentity', ['1.20 alpha off', '1.26 beta on']),
  g('APIServerTracing', ['1.22 alpha off', '1.27 beta on', '1.34 ga on locked']),
  g('APIServingWithRoutine', ['1.30 alpha off']),
  g('AggregatedDiscoveryRemoveBetaType', ['1.0 ga off', '1.33 deprecated on', '1.35 deprecated on locked'], { addedIn: '1.33' }),
  g('AllowParsingUserUIDFromCertAuth', ['1.33 beta on']),
  g('AllowUnsafeMalformedObjectDeletion', ['1.32 alpha off']),
  g('AnonymousAuthConfigurableEndpoints', ['1.31 alpha off', '1.32 beta on', '1.34 ga on locked']),
  g('AuthorizeWithSelectors', ['1.31 alpha off', '1.32 beta on', '1.34 ga on locked']),
  g('BtreeWatchCache', ['1.32 beta on', '1.33 ga on locked']),
  g('CBORServingAndStorage', ['1.32 alpha off']),
  g('ConcurrentWatchObjectDecode', ['1.31 beta off']),
  g('ConsistentListFromCache', ['1.28 alpha off', '1.31 beta on', '1.34 ga on locked']),
  g('ConstrainedImpersonation', ['1.35 alpha off']),
  g('DeclarativeValidation', ['1.33 beta on']),
  g('DeclarativeValidationTakeover', ['1.33 beta off']),
  g('DetectCacheInconsistency', ['1.34 beta on']),
  g('KMSv1', ['1.0 ga on', '1.28 deprecated on', '1.29 deprecated off'], { addedIn: '1.28' }),
  g('ListFromCacheSnapshot', ['1.33 alpha off', '1.34 beta on']),
  g('MutatingAdmissionPolicy', ['1.32 alpha off', '1.34 beta off']),
  g('OpenAPIEnums', ['1.23 alpha off', '1.24 beta on']),
  g('RemoteRequestHeaderUID', ['1.32 alpha off', '1.33 beta on']),
  g('ResilientWatchCacheInitialization', ['1.31 beta on', '1.34 ga on locked']),
  g('RetryGenerateName', ['1.30 alpha off', '1.31 beta on', '1.32 ga on locked']),
  g('SeparateCacheWatchRPC', ['1.28 beta on', '1.33 deprecated off']),
  g('SizeBasedListCostEstimate', ['1.34 beta on']),
  g('StorageVersionAPI', ['1.20 alpha off']),
  g('StorageVersionHash', ['1.14 alpha off', '1.15 beta on']),
  g('StructuredAuthenticationConfiguration', ['1.29 alpha off', '1.30 beta on', '1.34 ga on locked']),
  g('StructuredAuthenticationConfigurationEgressSelector', ['1.34 beta on']),
  g('StructuredAuthenticationConfigurationJWKSMetrics', ['1.35 beta on']),
  g('StructuredAuthorizationConfiguration', ['1.29 alpha off', '1.30 beta on', '1.32 ga on locked']),
  g('TokenRequestServiceAccountUIDValidation', ['1.34 beta on']),
  g('UnauthenticatedHTTP2DOSMitigation', ['1.25 beta off', '1.29 beta on']),
  g('UnknownVersionInteroperabilityProxy', ['1.28 alpha off']),
  g('WatchCacheInitializationPostStartHook', ['1.31 beta off']),
  g('WatchFromStorageWithoutResourceVersion', ['1.27 beta off', '1.33 deprecated off locked']),
  g('WatchList', ['1.27 alpha off', '1.32 beta on', '1.33 beta off', '1.34 beta on']),
  // k8s.io/controller-manager gates (kcmfeatures) relisted in kube_features.go
  g('CloudControllerManagerWatchBasedRoutesReconciliation', ['1.35 alpha off']),
  g('CloudControllerManagerWebhook', ['1.27 alpha off']),
  // k8s.io/component-base/zpages/features, added by kube_features.go init()
  g('ComponentFlagz', ['1.32 alpha off']),
  g('ComponentStatusz', ['1.32 alpha off']),
];

// The 1.37-era scheduler/DRA feature file (SetupCurrentKubernetesSpecificFeatureGates):
// newer history for the gates it carries, and the gates it adds.
const SCHEDULER_DRA = (): FeatureGate[] => [
  g('CompositePodGroup', ['1.37 alpha off']),
  g('DRAAdminAccess', ['1.32 alpha off', '1.34 beta on', '1.36 ga on locked']),
  g('DRAConsumableCapacity', ['1.34 alpha off', '1.36 beta on']),
  g('DRADerivedAttributes', ['1.37 alpha off']),
  g('DRADeviceBindingConditions', ['1.34 alpha off', '1.36 beta on']),
  g('DRADeviceCompatibilityGroups', ['1.37 alpha off']),
  g('DRADeviceTaintRules', ['1.35 alpha off', '1.36 beta off', '1.37 ga on']),
  g('DRADeviceTaints', ['1.33 alpha off', '1.36 beta on', '1.37 ga on']),
  g('DRAExtendedResource', ['1.34 alpha off', '1.36 beta on', '1.37 ga on locked']),
  // Two 1.37 entries in the source (MinCompatibilityVersion); the default-on one applies to a 1.37 kubelet.
  g('DRAFractionalCapacityRange', ['1.37 beta on']),
  g('DRAListTypeAttributes', ['1.36 alpha off']),
  g('DRANodeAllocatableResources', ['1.36 alpha off']),
  g('DRAOptionalNodeOperations', ['1.37 alpha off']),
  g('DRAPartitionableDevices', ['1.33 alpha off', '1.36 beta on']),
  g('DRAPrioritizedList', ['1.33 alpha off', '1.34 beta on', '1.36 ga on', '1.37 ga on locked']),
  g('DRAResourceClaimDeviceStatus', ['1.32 alpha off', '1.33 beta on', '1.37 ga on locked']),
  g('DRASchedulerFilterTimeout', ['1.34 beta on']),
  g('DRAWorkloadResourceClaims', ['1.36 alpha off', '1.37 beta off']),
  g('DynamicResourceAllocation', ['1.26 alpha off', '1.32 beta off', '1.34 ga on', '1.35 ga on locked'], { description: 'Dynamic Resource Allocation (ResourceClaims, DRA drivers).' }),
  g('GenericWorkload', ['1.35 alpha off', '1.37 beta off']),
  g('InPlacePodLevelResourcesVerticalScaling', ['1.35 alpha off', '1.36 beta on']),
  g('InPlacePodVerticalScaling', ['1.27 alpha off', '1.33 beta on', '1.35 ga on locked'], { description: 'Resizing container resources without restarting the pod.' }),
  g('InPlacePodVerticalScalingSchedulerPreemption', ['1.37 alpha off']),
  g('InterPodAffinityHostnameFastPath', ['1.37 alpha off']),
  g('MatchLabelKeysInPodTopologySpread', ['1.25 alpha off', '1.27 beta on']),
  g('NodeDeclaredFeatures', ['1.35 alpha off', '1.36 beta on', '1.37 ga on locked']),
  g('NodeInclusionPolicyInPodTopologySpread', ['1.25 alpha off', '1.26 beta on', '1.33 ga on locked']),
  g('NominatedNodeNameForExpectation', ['1.34 alpha off', '1.35 beta on']),
  g('OpportunisticBatching', ['1.35 beta on']),
  g('PodGroupPreemptionPolicy', ['1.37 alpha off']),
  g('PodLevelResources', ['1.32 alpha off', '1.34 beta on']),
  g('SchedulerAsyncAPICalls', ['1.34 beta off']),
  g('SchedulerAsyncPreemption', ['1.32 alpha off', '1.33 beta on']),
  g('SchedulerPopFromBackoffQ', ['1.33 beta on']),
  g('SchedulerPreQueueingHints', ['1.37 alpha off']),
  g('StorageCapacityScoring', ['1.33 alpha off', '1.37 beta on']),
  g('TaintTolerationComparisonOperators', ['1.35 alpha off']),
  g('TopologyAwareWorkloadScheduling', ['1.36 alpha off']),
  g('VolumeAttributesClass', ['1.29 alpha off', '1.31 beta off', '1.34 ga on', '1.36 ga on locked']),
  g('VolumeLimitScaling', ['1.35 alpha off', '1.37 beta on']),
];

// Gates registered from other packages.
const OTHER = (): FeatureGate[] => [
  // k8s.io/component-base/featuregate: every gate set knows these two.
  g('AllAlpha', ['1.0 alpha off'], { description: 'Turns on every alpha gate not set explicitly.' }),
  g('AllBeta', ['1.0 beta off'], { description: 'Turns on every beta gate not set explicitly.' }),
  // k8s.io/component-base/logs/api/v1/kube_features.go (cmd/kubelet/app/server.go init)
  g('ContextualLogging', ['1.24 alpha off', '1.30 beta on']),
  g('LoggingAlphaOptions', ['1.24 alpha off'], { description: 'Allows alpha logging options (e.g. split stream for JSON).' }),
  g('LoggingBetaOptions', ['1.24 beta on']),
  // k8s.io/component-base/metrics/features (pkg/kubelet/server/server.go init)
  g('InformerMetrics', ['1.35 alpha off']),
  // k8s.io/client-go/features/known_features.go (kube_features.go init, clientAdapter, since 1.30)
  g('ClientsAllowCBOR', ['1.32 alpha off']),
  g('ClientsPreferCBOR', ['1.32 alpha off']),
  g('InOrderInformers', ['1.33 beta on']),
  g('InOrderInformersBatchProcess', ['1.35 beta on']),
  g('InformerResourceVersion', ['1.30 alpha off', '1.35 ga on']),
  g('WatchListClient', ['1.30 beta off', '1.35 beta on']),
];

// ---------------------------------------------------------------------------
// Removed gates.
// ---------------------------------------------------------------------------
const REMOVED_RECENT = (): FeatureGate[] => [
  // In 1.33 (commit b0b89d3), gone from the 1.35-era file. Later bound taken.
  r('AllowServiceLBStatusOnNonLB', '1.35', ['1.29 deprecated off', '1.32 deprecated off locked'], APPROX),
  r('CronJobsScheduledAnnotation', '1.35', ['1.28 beta on', '1.32 ga on locked'], APPROX),
  r('DevicePluginCDIDevices', '1.35', ['1.28 alpha off', '1.29 beta on', '1.31 ga on locked'], APPROX),
  r('ElasticIndexedJob', '1.35', ['1.27 beta on', '1.31 ga on locked'], APPROX),
  r('LegacySidecarContainers', '1.34', ['1.33 deprecated off'], { ...APPROX, description: 'Only in 1.33 ("will be removed in v1.34").' }),
  r('LoadBalancerIPMode', '1.35', ['1.29 alpha off', '1.30 beta on', '1.32 ga on locked'], APPROX),
  r('PodDisruptionConditions', '1.35', ['1.25 alpha off', '1.26 beta on', '1.31 ga on locked'], APPROX),
  r('PodIndexLabel', '1.35', ['1.28 beta on', '1.32 ga on locked'], APPROX),
  r('SizeMemoryBackedVolumes', '1.35', ['1.20 alpha off', '1.22 beta on', '1.32 ga on locked'], APPROX),
  r('StatefulSetAutoDeletePVC', '1.35', ['1.23 alpha off', '1.27 beta on', '1.32 ga on locked'], APPROX),
  r('StatefulSetStartOrdinal', '1.35', ['1.26 alpha off', '1.27 beta on', '1.31 ga on locked'], APPROX),
  r('StrictCostEnforcementForVAP', '1.35', ['1.30 beta off', '1.32 ga on locked'], APPROX),
  r('StrictCostEnforcementForWebhooks', '1.35', ['1.30 beta off', '1.32 ga on locked'], APPROX),
  r('UserNamespacesPodSecurityStandards', '1.35', ['1.29 alpha off'], APPROX),
  // component-base/metrics/features: "keep the gate until v1.35"; absent from the 1.35-era file.
  r('ComponentSLIs', '1.36', ['1.26 alpha off', '1.27 beta on', '1.32 ga on locked'], APPROX),
  // In the early-1.33 versioned_kube_features.go (id 688781), gone in 1.33.
  r('AppArmor', '1.33', ['1.4 beta on', '1.31 ga on locked'], { ...APPROX, description: 'AppArmor profiles; now always on (securityContext.appArmorProfile).' }),
  r('AppArmorFields', '1.33', ['1.30 beta on', '1.31 ga on locked'], APPROX),
  r('CPUManager', '1.33', ['1.8 alpha off', '1.10 beta on', '1.26 ga on locked'], { ...APPROX, description: 'The CPU manager; always on since 1.26 (cpuManagerPolicy).' }),
  r('DisableCloudProviders', '1.33', ['1.22 alpha off', '1.29 beta on', '1.31 ga on locked'], APPROX),
  r('DisableKubeletCloudCredentialProviders', '1.33', ['1.23 alpha off', '1.29 beta on', '1.31 ga on locked'], APPROX),
  r('DeploymentPodReplacementPolicy', '1.33', ['1.32 alpha off'], APPROX),
  r('AdmissionWebhookMatchConditions', '1.33', ['1.27 alpha off', '1.28 beta on', '1.30 ga on locked']),
  r('AggregatedDiscoveryEndpoint', '1.33', ['1.26 alpha off', '1.27 beta on', '1.30 ga on locked']),
  r('RemainingItemCount', '1.33', ['1.15 alpha off', '1.16 beta on', '1.29 ga on locked'], APPROX),
  r('JobPodFailurePolicy', '1.33', ['1.25 alpha off', '1.26 beta on', '1.31 ga on locked'], APPROX),
  r('PersistentVolumeLastPhaseTransitionTime', '1.33', ['1.28 alpha off', '1.29 beta on', '1.31 ga on locked'], APPROX),
  r('VolumeCapacityPriority', '1.33', ['1.21 alpha off'], APPROX),
  r('APIListChunking', '1.33', ['1.8 alpha off', '1.9 beta on', '1.29 ga on locked'], APPROX),
  // In the 1.30-era or 1.31 versioned file, gone by early 1.33; "remove in" comment used when inside the bracket.
  r('DRAControlPlaneController', '1.32', ['1.26 alpha off'], APPROX),
  r('HPAContainerMetrics', '1.32', ['1.20 alpha off', '1.27 beta on', '1.30 ga on locked'], APPROX),
  r('KubeProxyDrainingTerminatingNodes', '1.33', ['1.28 alpha off', '1.30 beta on', '1.31 ga on locked'], APPROX),
  r('MinDomainsInPodTopologySpread', '1.32', ['1.24 alpha off', '1.25 beta off', '1.27 beta on', '1.30 ga on locked'], APPROX),
  r('NewVolumeManagerReconstruction', '1.32', ['1.25 alpha off', '1.27 beta off', '1.28 beta on', '1.30 ga on locked'], APPROX),
  r('NodeOutOfServiceVolumeDetach', '1.32', ['1.24 alpha off', '1.26 beta on', '1.28 ga on locked'], APPROX),
  r('PDBUnhealthyPodEvictionPolicy', '1.33', ['1.26 alpha off', '1.27 beta on', '1.31 ga on locked'], APPROX),
  r('PodHostIPs', '1.32', ['1.28 alpha off', '1.29 beta on', '1.30 ga on locked'], APPROX),
  r('CloudDualStackNodeIPs', '1.32', ['1.27 alpha off', '1.29 beta on', '1.30 ga on locked'], APPROX),
  r('LegacyServiceAccountTokenCleanUp', '1.32', ['1.28 alpha off', '1.29 beta on', '1.30 ga on locked'], APPROX),
  r('CSIMigrationRBD', '1.31', ['1.23 alpha off', '1.28 deprecated off'], APPROX),
  r('InTreePluginRBDUnregister', '1.31', ['1.23 alpha off', '1.28 deprecated off'], APPROX),
  r('CSINodeExpandSecret', '1.31', ['1.25 alpha off', '1.27 beta on', '1.29 ga on locked'], APPROX),
  r('SkipReadOnlyValidationGCE', '1.31', ['1.28 alpha off', '1.29 deprecated on'], APPROX),
  r('ConsistentHTTPGetHandlers', '1.31', ['1.26 ga on', '1.30 ga on locked'], APPROX),
  r('JobReadyPods', '1.31', ['1.23 alpha off', '1.24 beta on', '1.29 ga on locked'], APPROX),
  r('ReadWriteOncePod', '1.31', ['1.22 alpha off', '1.27 beta on', '1.29 ga on locked'], APPROX),
  r('ServiceNodePortStaticSubrange', '1.31', ['1.27 alpha off', '1.28 beta on', '1.29 ga on locked'], APPROX),
  r('StableLoadBalancerNodeSet', '1.31', ['1.27 beta on', '1.30 ga on locked'], APPROX),
  r('APIPriorityAndFairness', '1.31', ['1.18 alpha off', '1.20 beta on', '1.29 ga on locked'], APPROX),
  r('CustomResourceValidationExpressions', '1.31', ['1.23 alpha off', '1.25 beta on', '1.29 ga on locked'], APPROX),
  r('KMSv2', '1.31', ['1.25 alpha off', '1.27 beta on', '1.29 ga on locked'], APPROX),
  r('KMSv2KDF', '1.31', ['1.28 beta off', '1.29 ga on locked'], APPROX),
  r('DefaultHostNetworkHostPortsInPodTemplates', '1.33', ['1.28 deprecated off'], APPROX),
  r('InTreePluginAWSUnregister', '1.33', ['1.21 alpha off'], APPROX),
  r('InTreePluginAzureDiskUnregister', '1.33', ['1.21 alpha off'], APPROX),
  r('InTreePluginAzureFileUnregister', '1.33', ['1.21 alpha off'], APPROX),
  r('InTreePluginGCEUnregister', '1.33', ['1.21 alpha off'], APPROX),
  r('InTreePluginOpenStackUnregister', '1.33', ['1.21 alpha off'], APPROX),
  r('InTreePluginvSphereUnregister', '1.33', ['1.21 alpha off'], APPROX),
  r('EfficientWatchResumption', '1.33', ['1.20 alpha off', '1.21 beta on', '1.24 ga on locked'], APPROX),
  r('ServerSideApply', '1.33', ['1.14 alpha off', '1.16 beta on', '1.22 ga on locked'], APPROX),
  r('ServerSideFieldValidation', '1.33', ['1.23 alpha off', '1.25 beta on', '1.27 ga on locked'], APPROX),
  // In the 1.28-era file, gone from the 1.30-era file.
  r('APISelfSubjectReview', '1.30', ['1.26 alpha off', '1.27 beta on', '1.28 ga on locked'], APPROX),
  r('CSIMigrationAzureFile', '1.30', ['1.15 alpha off', '1.21 beta off', '1.24 beta on', '1.26 ga on locked'], APPROX),
  r('ExpandedDNSConfig', '1.30', ['1.22 alpha off', '1.26 beta on', '1.28 ga on locked'], APPROX),
  r('ExperimentalHostUserNamespaceDefaultingGate', '1.30', ['1.5 beta off', '1.28 deprecated off locked'], APPROX),
  r('IPTablesOwnershipCleanup', '1.30', ['1.25 alpha off', '1.27 beta on', '1.28 ga on locked'], APPROX),
  r('KubeletPodResources', '1.30', ['1.13 alpha off', '1.15 beta on', '1.28 ga on locked'], APPROX),
  r('KubeletPodResourcesGetAllocatable', '1.30', ['1.21 alpha off', '1.23 beta on', '1.28 ga on locked'], APPROX),
  r('LegacyServiceAccountTokenTracking', '1.30', ['1.26 alpha off', '1.27 beta on', '1.28 ga on locked'], APPROX),
  r('MinimizeIPTablesRestore', '1.30', ['1.26 alpha off', '1.27 beta on', '1.28 ga on locked'], APPROX),
  r('ProxyTerminatingEndpoints', '1.30', ['1.22 alpha off', '1.26 beta on', '1.28 ga on locked'], APPROX),
  r('SecurityContextDeny', '1.30', ['1.27 alpha off'], APPROX),
];

/**
 * The "Feature Gates (removed)" page (kubernetes/website, see top): last row of
 * each gate as [name, stage, default, from, to]. The page's "To" changed meaning
 * over time: up to 1.23 it is the release that removed the gate (PodPriority
 * 1.18, BlockVolume 1.21 agree with kubelet-facts §4; OpenShift's 1.23 rebase
 * logged `unrecognized feature gate: SupportPodPidsLimit`, openshift/cluster-kube-apiserver-operator#1298),
 * from 1.24 on it is the last release that still had it (DevicePlugins: To
 * 1.27, removed 1.28 by PR #117656; RuntimeClass: To 1.24, removed 1.25).
 * Rows whose removal version a second source confirms are not approximate.
 */
const DOCS_REMOVED = (): readonly [string, GateSpec['stage'], boolean, string, string][] => [
  ['Accelerators', 'deprecated', false, '1.11', '1.11'],
  ['AdvancedAuditing', 'ga', true, '1.12', '1.27'],
  ['AffinityInAnnotations', 'deprecated', false, '1.8', '1.8'],
  ['AllowExtTrafficLocalEndpoints', 'ga', true, '1.7', '1.9'],
  ['AllowInsecureBackendProxy', 'ga', true, '1.21', '1.25'],
  ['AttachVolumeLimit', 'ga', true, '1.17', '1.21'],
  ['BalanceAttachedNodeVolumes', 'deprecated', false, '1.22', '1.22'],
  ['BlockVolume', 'ga', true, '1.18', '1.21'],
  ['BoundServiceAccountTokenVolume', 'ga', true, '1.22', '1.23'],
  ['CRIContainerLogRotation', 'ga', true, '1.21', '1.22'],
  ['CSIBlockVolume', 'ga', true, '1.18', '1.21'],
  ['CSIDriverRegistry', 'ga', true, '1.18', '1.21'],
  ['CSIInlineVolume', 'ga', true, '1.25', '1.26'],
  ['CSIMigration', 'ga', true, '1.25', '1.26'],
  ['CSIMigrationAWS', 'ga', true, '1.25', '1.26'],
  ['CSIMigrationAWSComplete', 'deprecated', false, '1.21', '1.21'],
  ['CSIMigrationAzureDisk', 'ga', true, '1.24', '1.26'],
  ['CSIMigrationAzureDiskComplete', 'deprecated', false, '1.21', '1.21'],
  ['CSIMigrationAzureFileComplete', 'deprecated', false, '1.21', '1.21'],
  ['CSIMigrationGCE', 'ga', true, '1.25', '1.27'],
  ['CSIMigrationGCEComplete', 'deprecated', false, '1.21', '1.21'],
  ['CSIMigrationOpenStack', 'ga', true, '1.24', '1.25'],
  ['CSIMigrationOpenStackComplete', 'deprecated', false, '1.21', '1.21'],
  ['CSIMigrationvSphere', 'ga', true, '1.26', '1.28'],
  ['CSIMigrationvSphereComplete', 'deprecated', false, '1.22', '1.22'],
  ['CSINodeInfo', 'ga', true, '1.17', '1.22'],
  ['CSIPersistentVolume', 'ga', true, '1.13', '1.16'],
  ['CSIServiceAccountToken', 'ga', true, '1.22', '1.24'],
  ['CSIStorageCapacity', 'ga', true, '1.24', '1.27'],
  ['CSIVolumeFSGroupPolicy', 'ga', true, '1.23', '1.25'],
  ['CSRDuration', 'ga', true, '1.24', '1.25'],
  ['ConfigurableFSGroupPolicy', 'ga', true, '1.23', '1.25'],
  ['ControllerManagerLeaderMigration', 'ga', true, '1.24', '1.26'],
  ['CronJobControllerV2', 'ga', true, '1.22', '1.23'],
  ['CronJobTimeZone', 'ga', true, '1.27', '1.28'],
  ['CustomPodDNS', 'ga', true, '1.14', '1.16'],
  ['CustomResourceDefaulting', 'ga', true, '1.17', '1.18'],
  ['CustomResourcePublishOpenAPI', 'ga', true, '1.16', '1.18'],
  ['CustomResourceSubresources', 'ga', true, '1.16', '1.18'],
  ['CustomResourceValidation', 'ga', true, '1.16', '1.18'],
  ['CustomResourceWebhookConversion', 'ga', true, '1.16', '1.18'],
  ['DaemonSetUpdateSurge', 'ga', true, '1.25', '1.28'],
  ['DefaultPodTopologySpread', 'ga', true, '1.24', '1.25'],
  ['DelegateFSGroupToCSIDriver', 'ga', true, '1.26', '1.27'],
  ['DevicePlugins', 'ga', true, '1.26', '1.27'],
  ['DisableAcceleratorUsageMetrics', 'ga', true, '1.25', '1.27'],
  ['DownwardAPIHugePages', 'ga', true, '1.27', '1.28'],
  ['DryRun', 'ga', true, '1.19', '1.27'],
  ['DynamicAuditing', 'deprecated', false, '1.19', '1.19'],
  ['DynamicKubeletConfig', 'deprecated', false, '1.22', '1.25'],
  ['DynamicVolumeProvisioning', 'ga', true, '1.8', '1.12'],
  ['EnableAggregatedDiscoveryTimeout', 'deprecated', true, '1.16', '1.17'],
  ['EnableEquivalenceClassCache', 'deprecated', false, '1.13', '1.23'],
  ['EndpointSlice', 'ga', true, '1.21', '1.24'],
  ['EndpointSliceNodeName', 'ga', true, '1.21', '1.24'],
  ['EndpointSliceProxying', 'ga', true, '1.22', '1.24'],
  ['EndpointSliceTerminatingCondition', 'ga', true, '1.26', '1.27'],
  ['EphemeralContainers', 'ga', true, '1.25', '1.26'],
  ['EvenPodsSpread', 'ga', true, '1.19', '1.21'],
  ['ExpandCSIVolumes', 'ga', true, '1.24', '1.26'],
  ['ExpandInUsePersistentVolumes', 'ga', true, '1.24', '1.26'],
  ['ExpandPersistentVolumes', 'ga', true, '1.24', '1.26'],
  ['ExperimentalCriticalPodAnnotation', 'deprecated', false, '1.13', '1.16'],
  ['ExternalPolicyForExternalIP', 'ga', true, '1.18', '1.22'],
  ['GCERegionalPersistentDisk', 'ga', true, '1.13', '1.16'],
  ['GRPCContainerProbe', 'ga', true, '1.27', '1.28'],
  ['GenericEphemeralVolume', 'ga', true, '1.23', '1.24'],
  ['HugePageStorageMediumSize', 'ga', true, '1.22', '1.24'],
  ['HugePages', 'ga', true, '1.14', '1.16'],
  ['HyperVContainer', 'deprecated', false, '1.20', '1.20'],
  ['IPv6DualStack', 'ga', true, '1.23', '1.24'],
  ['IdentifyPodOS', 'ga', true, '1.25', '1.26'],
  ['ImmutableEphemeralVolumes', 'ga', true, '1.21', '1.24'],
  ['IndexedJob', 'ga', true, '1.24', '1.25'],
  ['IngressClassNamespacedParams', 'ga', true, '1.23', '1.24'],
  ['Initializers', 'deprecated', false, '1.14', '1.14'],
  ['JobMutableNodeSchedulingDirectives', 'ga', true, '1.27', '1.28'],
  ['JobTrackingWithFinalizers', 'ga', true, '1.26', '1.28'],
  ['KubeletConfigFile', 'deprecated', false, '1.10', '1.10'],
  ['KubeletCredentialProviders', 'ga', true, '1.26', '1.28'],
  ['KubeletPluginsWatcher', 'ga', true, '1.13', '1.16'],
  ['LegacyNodeRoleBehavior', 'ga', false, '1.21', '1.22'],
  ['LegacyServiceAccountTokenNoAutoGeneration', 'ga', true, '1.26', '1.28'],
  ['LocalStorageCapacityIsolation', 'ga', true, '1.25', '1.26'],
  ['MixedProtocolLBService', 'ga', true, '1.26', '1.27'],
  ['MountContainers', 'deprecated', false, '1.17', '1.17'],
  ['MountPropagation', 'ga', true, '1.12', '1.14'],
  ['MultiCIDRRangeAllocator', 'alpha', false, '1.25', '1.28'],
  ['NamespaceDefaultLabelName', 'ga', true, '1.22', '1.23'],
  ['NetworkPolicyEndPort', 'ga', true, '1.25', '1.26'],
  ['NetworkPolicyStatus', 'alpha', false, '1.24', '1.27'],
  ['NodeDisruptionExclusion', 'ga', true, '1.21', '1.22'],
  ['NodeLease', 'ga', true, '1.17', '1.23'],
  ['NonPreemptingPriority', 'ga', true, '1.24', '1.25'],
  ['OpenAPIV3', 'ga', true, '1.27', '1.28'],
  ['PVCProtection', 'deprecated', false, '1.10', '1.10'],
  ['PersistentLocalVolumes', 'ga', true, '1.14', '1.16'],
  ['PodAffinityNamespaceSelector', 'ga', true, '1.24', '1.25'],
  ['PodDisruptionBudget', 'ga', true, '1.21', '1.25'],
  ['PodHasNetworkCondition', 'alpha', false, '1.25', '1.27'],
  ['PodOverhead', 'ga', true, '1.24', '1.25'],
  ['PodPriority', 'ga', true, '1.14', '1.18'],
  ['PodReadinessGates', 'ga', true, '1.14', '1.16'],
  ['PodSecurity', 'ga', true, '1.25', '1.27'],
  ['PodShareProcessNamespace', 'ga', true, '1.17', '1.19'],
  ['PreferNominatedNode', 'ga', true, '1.24', '1.25'],
  ['ProbeTerminationGracePeriod', 'ga', true, '1.28', '1.28'],
  ['RequestManagement', 'deprecated', false, '1.17', '1.17'],
  ['ResourceLimitsPriorityFunction', 'deprecated', false, '1.19', '1.19'],
  ['ResourceQuotaScopeSelectors', 'ga', true, '1.17', '1.18'],
  ['RetroactiveDefaultStorageClass', 'ga', true, '1.28', '1.28'],
  ['RootCAConfigMap', 'ga', true, '1.21', '1.22'],
  ['RotateKubeletClientCertificate', 'ga', true, '1.19', '1.21'],
  ['RunAsGroup', 'ga', true, '1.21', '1.22'],
  ['RuntimeClass', 'ga', true, '1.20', '1.24'],
  ['SCTPSupport', 'ga', true, '1.20', '1.22'],
  ['ScheduleDaemonSetPods', 'ga', true, '1.17', '1.18'],
  ['SeccompDefault', 'ga', true, '1.27', '1.28'],
  ['SelectorIndex', 'ga', true, '1.20', '1.25'],
  ['ServiceAccountIssuerDiscovery', 'ga', true, '1.21', '1.23'],
  ['ServiceAppProtocol', 'ga', true, '1.20', '1.22'],
  ['ServiceIPStaticSubrange', 'ga', true, '1.26', '1.27'],
  ['ServiceInternalTrafficPolicy', 'ga', true, '1.26', '1.27'],
  ['ServiceLBNodePortControl', 'ga', true, '1.24', '1.25'],
  ['ServiceLoadBalancerClass', 'ga', true, '1.24', '1.25'],
  ['ServiceLoadBalancerFinalizer', 'ga', true, '1.17', '1.20'],
  ['ServiceNodeExclusion', 'ga', true, '1.21', '1.22'],
  ['ServiceTopology', 'deprecated', false, '1.20', '1.22'],
  ['SetHostnameAsFQDN', 'ga', true, '1.22', '1.24'],
  ['StartupProbe', 'ga', true, '1.20', '1.23'],
  ['StatefulSetMinReadySeconds', 'ga', true, '1.25', '1.26'],
  ['StorageObjectInUseProtection', 'ga', true, '1.11', '1.24'],
  ['StreamingProxyRedirects', 'deprecated', false, '1.22', '1.24'],
  ['SupportIPVSProxyMode', 'ga', true, '1.11', '1.20'],
  ['SupportNodePidsLimit', 'ga', true, '1.20', '1.23'],
  ['SupportPodPidsLimit', 'ga', true, '1.20', '1.23'],
  ['SuspendJob', 'ga', true, '1.24', '1.25'],
  ['Sysctls', 'ga', true, '1.21', '1.22'],
  ['TTLAfterFinished', 'ga', true, '1.23', '1.24'],
  ['TaintBasedEvictions', 'ga', true, '1.18', '1.20'],
  ['TaintNodesByCondition', 'ga', true, '1.17', '1.18'],
  ['TokenRequest', 'ga', true, '1.20', '1.21'],
  ['TokenRequestProjection', 'ga', true, '1.20', '1.21'],
  ['TopologyManager', 'ga', true, '1.27', '1.28'],
  ['UserNamespacesStatelessPodsSupport', 'alpha', false, '1.25', '1.27'],
  ['ValidateProxyRedirects', 'deprecated', true, '1.22', '1.24'],
  ['VolumePVCDataSource', 'ga', true, '1.18', '1.21'],
  ['VolumeScheduling', 'ga', true, '1.13', '1.16'],
  ['VolumeSnapshotDataSource', 'ga', true, '1.20', '1.22'],
  ['VolumeSubpath', 'ga', true, '1.10', '1.24'],
  ['VolumeSubpathEnvExpansion', 'ga', true, '1.17', '1.24'],
  ['WarningHeaders', 'ga', true, '1.22', '1.24'],
  ['WindowsEndpointSliceProxying', 'ga', true, '1.22', '1.24'],
  ['WindowsGMSA', 'ga', true, '1.18', '1.20'],
  ['WindowsHostProcessContainers', 'ga', true, '1.26', '1.27'],
  ['WindowsRunAsUserName', 'ga', true, '1.18', '1.20'],
];

/** Gates of the docs table with fuller history or a confirmed removal version. */
const DOCS_OVERRIDES = (): Record<string, Extra & { specs?: string[] }> => ({
  // kubelet-facts §4: PR #86210.
  PodPriority: { specs: ['1.8 alpha off', '1.11 beta on', '1.14 ga on'], approximate: false, description: 'Pod priority and preemption; always on since it was removed.' },
  // kubelet-facts §4: PR #98021.
  BlockVolume: { specs: ['1.9 alpha off', '1.13 beta on', '1.18 ga on'], approximate: false, description: 'Raw block volumes (volumeMode: Block); always on.' },
  CSIBlockVolume: { specs: ['1.11 alpha off', '1.14 beta on', '1.18 ga on'], approximate: false },
  CSIDriverRegistry: { specs: ['1.12 alpha off', '1.14 beta on', '1.18 ga on'], approximate: false },
  // kubelet-facts §4: PR #117656 (~1.28); the docs table agrees (GA 1.26-1.27).
  DevicePlugins: { specs: ['1.8 alpha off', '1.10 beta on', '1.26 ga on'], description: 'The device plugin framework (GPUs etc.); always on.' },
  RuntimeClass: { specs: ['1.12 alpha off', '1.14 beta on', '1.20 ga on'], approximate: false, description: 'RuntimeClass (pod runtimeClassName); always on.' },
  PodOverhead: { specs: ['1.16 alpha off', '1.18 beta on', '1.24 ga on'], description: 'Pod overhead from the RuntimeClass; always on.' },
  // The 1.24/1.25 kube_features.go (id 374568779) still registers the gate: "feature gate is deprecated in 1.22,
  // kubelet logic is removed in 1.24, api server logic can be removed in 1.26". From 1.24 the kubelet refuses
  // DynamicKubeletConfig=true ("cannot be set on kubelet any longer", kubernetes/website PR #31799, PR #106932):
  // modelled as locked to false in 1.24-1.25; unknown from 1.26.
  DynamicKubeletConfig: {
    specs: ['1.4 alpha off', '1.11 beta on', '1.22 deprecated off', '1.24 deprecated off locked'],
    approximate: false,
    description: 'Dynamic kubelet configuration from a ConfigMap (--dynamic-config-dir); the kubelet side went in 1.24.',
  },
  SupportPodPidsLimit: { specs: ['1.10 alpha off', '1.14 beta on', '1.20 ga on'], approximate: false },
  SupportNodePidsLimit: { specs: ['1.14 alpha off', '1.15 beta on', '1.20 ga on'] },
  LocalStorageCapacityIsolation: { specs: ['1.7 alpha off', '1.10 beta on', '1.25 ga on'] },
  KubeletCredentialProviders: { specs: ['1.20 alpha off', '1.24 beta on', '1.26 ga on'] },
});

function nextMinor(v: string): string {
  const [maj, min] = v.split('.');
  return `${maj}.${Number(min) + 1}`;
}

function removedDocs(): FeatureGate[] {
  const overrides = DOCS_OVERRIDES();
  const gates = DOCS_REMOVED().map(([name, stage, dflt, from, to]): FeatureGate => {
    const over = overrides[name] ?? {};
    // A row like "Deprecated 1.11 | 1.11" cannot mean removed in the release it was deprecated in.
    let removedIn = compareVersions(to, '1.23') <= 0 ? to : nextMinor(to);
    if (compareVersions(removedIn, from) <= 0) removedIn = nextMinor(from);
    const { specs: overSpecs, ...rest } = over;
    return {
      name,
      specs: overSpecs ? overSpecs.map(spec) : [{ since: from, stage, default: dflt }],
      removedIn,
      approximate: true,
      ...rest,
    };
  });
  // The docs page tells DynamicKubeletConfig's last release (1.25); the source bracket agrees: gone in 1.26.
  for (const gate of gates) if (gate.name === 'DynamicKubeletConfig') gate.removedIn = '1.26';
  return gates;
}

/** Every gate, by name. Built on first use (catalog/lazy.ts), like the tables it is made of. */
export const FEATURE_GATES: readonly FeatureGate[] = lazyTable(() => {
  const byName = new Map<string, FeatureGate>();
  for (const gate of [...KUBE(), ...OTHER(), ...REMOVED_RECENT(), ...removedDocs()]) byName.set(gate.name, gate);
  for (const gate of SCHEDULER_DRA()) byName.set(gate.name, gate); // newer history wins
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
});

const index = once(() => new Map(tableOf(FEATURE_GATES).map((gate) => [gate.name, gate])));

/** The gate of that exact name (gate names are case-sensitive to the kubelet). */
export function featureGate(name: string): FeatureGate | undefined {
  return index().get(name);
}

/** Every gate name, for did-you-mean. */
export function featureGateNames(): string[] {
  return [...index().keys()];
}

/** The minor version a gate first appeared in. */
export function gateAddedIn(gate: FeatureGate): string {
  return gate.addedIn ?? gate.specs[0]?.since ?? '1.0';
}

/** Status of a gate for a kubelet of minor version v: 'unknown' (never existed or not yet added), 'removed', or the spec in force. */
export function gateAt(
  name: string,
  version: string,
): { status: 'unknown' } | { status: 'removed'; gate: FeatureGate } | { status: 'known'; gate: FeatureGate; spec: GateSpec } {
  const gate = index().get(name);
  if (!gate || compareVersions(version, gateAddedIn(gate)) < 0) return { status: 'unknown' };
  if (gate.removedIn !== undefined && compareVersions(version, gate.removedIn) >= 0) return { status: 'removed', gate };
  let inForce = gate.specs[0];
  for (const s of gate.specs) if (compareVersions(s.since, version) <= 0) inForce = s;
  if (!inForce) return { status: 'unknown' };
  return { status: 'known', gate, spec: inForce };
}

/** The last spec of a gate (what it had become when removed). */
export function lastSpec(gate: FeatureGate): GateSpec | undefined {
  return gate.specs[gate.specs.length - 1];
}
