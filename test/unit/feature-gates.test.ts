import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type AnalyzeOptions } from '../../server/src/engine.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import type { Rule } from '../../server/src/rules/types.ts';
import { applyEdits } from '../helpers/edits.ts';
import { compareVersions, NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import {
  FEATURE_GATES, GATES_COMPLETE_THROUGH, featureGate, featureGateNames, gateAt,
} from '../../server/src/catalog/feature-gates.ts';
import { featureGateUnknown } from '../../server/src/rules/feature-gate-unknown.ts';
import { featureGateRemoved } from '../../server/src/rules/feature-gate-removed.ts';
import { featureGateLocked } from '../../server/src/rules/feature-gate-locked.ts';
import { featureGateDependency } from '../../server/src/rules/feature-gate-dependency.ts';

// The rules are registered in rules/index.ts by the project, so run them directly on the engine's node.
const GATE_RULES: readonly Rule[] = [featureGateUnknown, featureGateRemoved, featureGateLocked, featureGateDependency];

function gateFindings(files: Record<string, string>, options: AnalyzeOptions): Finding[] {
  const a = analyze(Object.entries(files).map(([path, text]) => ({ path, text })), options);
  assert.ok(a.nodes.length >= 1, 'expected a node');
  return a.nodes.flatMap(({ node, allocatable }) => GATE_RULES.flatMap((r) => r.run({ node, argProblems: [], allocatable, versionForFixes: node.kubernetesVersion })));
}

function config(gates: Record<string, string>): Record<string, string> {
  const lines = Object.entries(gates).map(([k, v]) => `  ${k}: ${v}`);
  return {
    'kubelet-config.yaml': `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n${lines.join('\n')}\n`,
  };
}

function unit(flagValue: string): Record<string, string> {
  return {
    'node1/etc/systemd/system/kubelet.service':
      `[Unit]\nDescription=kubelet\n\n[Service]\nExecStart=/usr/bin/kubelet --feature-gates=${flagValue}\n`,
  };
}

const codes = (fs: Finding[]): string[] => fs.map((f) => f.code).sort();

// ---------------------------------------------------------------------------
// Data sanity
// ---------------------------------------------------------------------------

test('gate names are unique and featureGate() finds each one (case-sensitive, like featuregate.Set)', () => {
  const names = FEATURE_GATES.map((g) => g.name);
  assert.equal(new Set(names).size, names.length);
  for (const g of FEATURE_GATES) assert.equal(featureGate(g.name), g);
  assert.equal(featureGate('deviceplugins'), undefined);
  assert.equal(featureGateNames().length, names.length);
});

test('every gate has specs ascending by since, with valid stages', () => {
  for (const g of FEATURE_GATES) {
    assert.ok(g.specs.length > 0, g.name);
    for (let i = 1; i < g.specs.length; i++) {
      assert.ok(compareVersions(g.specs[i - 1].since, g.specs[i].since) < 0, `${g.name}: ${g.specs[i - 1].since} !< ${g.specs[i].since}`);
    }
    for (const s of g.specs) assert.ok(['alpha', 'beta', 'ga', 'deprecated'].includes(s.stage), g.name);
    if (g.addedIn) assert.ok(compareVersions(g.addedIn, g.specs[0].since) >= 0, `${g.name}: addedIn before first spec`);
  }
});

test('removed gates have removedIn after their last spec; the table covers the gates of kube_features.go (1.35) and the removed ones', () => {
  const removed = FEATURE_GATES.filter((g) => g.removedIn !== undefined);
  const current = FEATURE_GATES.filter((g) => g.removedIn === undefined);
  for (const g of removed) {
    const last = g.specs[g.specs.length - 1];
    assert.ok(compareVersions(g.removedIn!, last.since) > 0, `${g.name}: removed ${g.removedIn} <= last spec ${last.since}`);
  }
  assert.ok(current.length >= 200, `current gates: ${current.length}`);
  assert.ok(removed.length >= 150, `removed gates: ${removed.length}`);
  assert.ok(compareVersions(GATES_COMPLETE_THROUGH, NEWEST_VERSION) <= 0);
});

test('kubelet-facts §4 removals: PodPriority 1.18; BlockVolume, CSIBlockVolume, CSIDriverRegistry 1.21; DevicePlugins ~1.28', () => {
  assert.equal(featureGate('PodPriority')?.removedIn, '1.18');
  for (const n of ['BlockVolume', 'CSIBlockVolume', 'CSIDriverRegistry']) assert.equal(featureGate(n)?.removedIn, '1.21', n);
  assert.equal(featureGate('DevicePlugins')?.removedIn, '1.28');
  assert.equal(featureGate('DevicePlugins')?.approximate, true);
  assert.equal(gateAt('PodPriority', '1.17').status, 'known');
  assert.equal(gateAt('PodPriority', '1.18').status, 'removed');
});

test('RuntimeClass: GA 1.20, known to 1.24, removed 1.25 (feature-gates-removed page: GA 1.20-1.24)', () => {
  const at124 = gateAt('RuntimeClass', '1.24');
  assert.equal(at124.status, 'known');
  if (at124.status === 'known') assert.equal(at124.spec.stage, 'ga');
  assert.equal(gateAt('RuntimeClass', '1.25').status, 'removed');
});

test('DynamicKubeletConfig: deprecated 1.22, refused as true from 1.24 (kubelet logic removed, PR #106932), unknown from 1.26 (kube_features.go 1.24/1.25 still lists it)', () => {
  const at123 = gateAt('DynamicKubeletConfig', '1.23');
  assert.ok(at123.status === 'known' && at123.spec.stage === 'deprecated' && !at123.spec.locked);
  const at124 = gateAt('DynamicKubeletConfig', '1.24');
  assert.ok(at124.status === 'known' && at124.spec.locked === true && at124.spec.default === false);
  assert.equal(gateAt('DynamicKubeletConfig', '1.26').status, 'removed');
});

test('a gate added in 1.32 is unknown to a 1.31 kubelet (pkg/features/kube_features.go SystemdWatchdog: Beta 1.32)', () => {
  assert.equal(gateAt('SystemdWatchdog', '1.31').status, 'unknown');
  assert.equal(gateAt('SystemdWatchdog', '1.32').status, 'known');
});

test('backfilled "1.0" specs do not make a gate known before it was added (AllowDNSOnlyNodeCSR arrived in 1.31)', () => {
  assert.equal(gateAt('AllowDNSOnlyNodeCSR', '1.30').status, 'unknown');
  const s = gateAt('AllowDNSOnlyNodeCSR', '1.31');
  assert.ok(s.status === 'known' && s.spec.stage === 'deprecated');
});

test('gates registered from other packages are known: logging (component-base/logs/api/v1), client-go, AllAlpha/AllBeta', () => {
  for (const n of ['ContextualLogging', 'LoggingAlphaOptions', 'LoggingBetaOptions', 'WatchListClient', 'AllAlpha', 'AllBeta']) {
    assert.equal(gateAt(n, '1.33').status, 'known', n);
  }
});

// ---------------------------------------------------------------------------
// feature-gate-removed
// ---------------------------------------------------------------------------

test('featureGates {DevicePlugins: true} at 1.30 is feature-gate-removed (gate removed ~1.28, PR #117656)', () => {
  const fs = gateFindings(config({ DevicePlugins: 'true' }), { kubernetesVersion: '1.30' });
  assert.deepEqual(codes(fs), ['feature-gate-removed']);
  const f = fs[0];
  assert.equal(f.severity, 'error');
  assert.match(f.message, /DevicePlugins=true/);
  assert.match(f.message, /1\.28/);
  assert.match(f.message, /^Feature gate DevicePlugins was removed by Kubernetes 1\.28: a 1\.30 kubelet refuses to start\./);
  assert.match(f.message, /"unrecognized feature gate: DevicePlugins"/);
  // Bracketed removal: says what is known instead of "(approximately)".
  assert.match(f.message, /1\.28 no longer has the gate; the exact release that dropped it is not recorded/);
  assert.match(f.message, /GA in 1\.26 and is always on/);
  assert.equal(f.file, 'kubelet-config.yaml');
  assert.equal(f.range.start.line, 3);
});

test('featureGates {DevicePlugins: true} at 1.27 is accepted (GA, not locked, in 1.26-1.27)', () => {
  assert.deepEqual(gateFindings(config({ DevicePlugins: 'true' }), { kubernetesVersion: '1.27' }), []);
});

test('--feature-gates=DevicePlugins=true,BlockVolume=true,PodPriority=true in a unit at 1.30: three removed gates (kubelet-facts §4)', () => {
  const fs = gateFindings(unit('DevicePlugins=true,BlockVolume=true,PodPriority=true'), { kubernetesVersion: '1.30' });
  assert.deepEqual(codes(fs), ['feature-gate-removed', 'feature-gate-removed', 'feature-gate-removed']);
  assert.ok(fs.every((f) => /^Feature gate \w+ was removed .*\. --feature-gates sets /.test(f.message)));
  assert.ok(fs.some((f) => /PodPriority was removed in Kubernetes 1\.18/.test(f.message)));
});

test('--feature-gates=DynamicKubeletConfig=true in a unit: fine at 1.23, locked at 1.24 (kubelet refuses), removed at 1.26', () => {
  assert.deepEqual(gateFindings(unit('DynamicKubeletConfig=true'), { kubernetesVersion: '1.23' }), []);
  const at124 = gateFindings(unit('DynamicKubeletConfig=true'), { kubernetesVersion: '1.24' });
  assert.deepEqual(codes(at124), ['feature-gate-locked']);
  assert.match(at124[0].message, /cannot set feature gate DynamicKubeletConfig to true, feature is locked to false/);
  assert.deepEqual(gateFindings(unit('DynamicKubeletConfig=false'), { kubernetesVersion: '1.25' }), []);
  assert.deepEqual(codes(gateFindings(unit('DynamicKubeletConfig=false'), { kubernetesVersion: '1.26' })), ['feature-gate-removed']);
});

test('feature-gate-removed: the quick fix deletes the entry, and the other gates keep their values (config map and flag)', () => {
  const files = config({ DevicePlugins: 'true', NodeSwap: 'true' });
  const [f] = gateFindings(files, { kubernetesVersion: '1.30' });
  const text = files['kubelet-config.yaml'];
  const fixed = applyEdits(text, f.fixes![0].edits);
  assert.equal(fixed, text.replace('  DevicePlugins: true\n', ''));
  assert.deepEqual(gateFindings({ 'kubelet-config.yaml': fixed }, { kubernetesVersion: '1.30' }), []);
  const u = unit('BlockVolume=true,NodeSwap=true');
  const [g] = gateFindings(u, { kubernetesVersion: '1.30' });
  const path = Object.keys(u)[0];
  assert.equal(applyEdits(u[path], g.fixes![0].edits), u[path].replace('BlockVolume=true,', ''));
  // The only gate of the map: an empty map, not a null featureGates.
  const only = config({ DevicePlugins: 'true' });
  const [h] = gateFindings(only, { kubernetesVersion: '1.30' });
  assert.match(applyEdits(only['kubelet-config.yaml'], h.fixes![0].edits), /featureGates:\n {2}\{\}\n$|featureGates: \{\}\n$|featureGates:\n\s*\{\}/);
});

test('a removed gate that was dropped rather than graduated says so (PodHasNetworkCondition: alpha 1.25-1.27)', () => {
  const fs = gateFindings(config({ PodHasNetworkCondition: 'true' }), { kubernetesVersion: '1.30' });
  assert.deepEqual(codes(fs), ['feature-gate-removed']);
  assert.match(fs[0].message, /dropped \(last alpha, default off/);
});

// ---------------------------------------------------------------------------
// feature-gate-unknown
// ---------------------------------------------------------------------------

test('a typo\'d gate is feature-gate-unknown with a did-you-mean fix that renames only the key (featuregate.Set: unrecognized feature gate)', () => {
  const fs = gateFindings(config({ KubeletInUserNamspace: 'true' }), { kubernetesVersion: '1.33' });
  assert.deepEqual(codes(fs), ['feature-gate-unknown']);
  const f = fs[0];
  assert.equal(f.severity, 'error');
  assert.match(f.message, /KubeletInUserNamspace=true/);
  assert.match(f.message, /Kubernetes 1\.33/);
  assert.match(f.message, /unrecognized feature gate: KubeletInUserNamspace/);
  assert.match(f.message, /^KubeletInUserNamspace is not a feature gate of Kubernetes 1\.33: did you mean "KubeletInUserNamespace"\?/);
  const edit = f.fixes?.[0]?.edits[0];
  assert.ok(edit);
  assert.equal(edit.newText, 'KubeletInUserNamespace');
  assert.deepEqual(edit.range, f.range);
  assert.equal(edit.range.start.character, 2);
  assert.equal(edit.range.end.character, 2 + 'KubeletInUserNamspace'.length);
});

test('a gate newer than the target version is feature-gate-unknown naming the version it arrived in (SystemdWatchdog 1.32 on a 1.31 kubelet)', () => {
  const fs = gateFindings(config({ SystemdWatchdog: 'true' }), { kubernetesVersion: '1.31' });
  assert.deepEqual(codes(fs), ['feature-gate-unknown']);
  assert.match(fs[0].message, /^Feature gate SystemdWatchdog arrived in Kubernetes 1\.32: a 1\.31 kubelet refuses to start/);
  assert.deepEqual(gateFindings(config({ SystemdWatchdog: 'true' }), { kubernetesVersion: '1.32' }), []);
});

test('a gate recorded only from its GA is no error before it: CSIMigrationAWS (alpha 1.14, recorded from GA 1.25) at 1.20 is a condition (sixth first-sight batch)', () => {
  const fs = gateFindings(config({ CSIMigrationAWS: 'true' }), { kubernetesVersion: '1.20' });
  assert.deepEqual(codes(fs), ['feature-gate-unknown']);
  assert.equal(fs[0].severity, 'information');
  assert.match(fs[0].message, /^If a 1\.20 kubelet does not know feature gate CSIMigrationAWS, it refuses to start\./);
  // A gate whose history starts at alpha was not there before it: NodeSwap (alpha 1.22) on a 1.21 kubelet.
  const swap = gateFindings(config({ NodeSwap: 'true' }), { kubernetesVersion: '1.21' });
  assert.deepEqual(swap.map((f) => f.severity), ['error']);
});

test('known gates raise nothing: KubeletInUserNamespace (alpha since 1.22), GracefulNodeShutdown, NodeSwap=true at 1.37', () => {
  assert.deepEqual(gateFindings(config({ KubeletInUserNamespace: 'true', GracefulNodeShutdown: 'true', NodeSwap: 'true' }), { kubernetesVersion: '1.37' }), []);
  assert.deepEqual(gateFindings(unit('KubeletInUserNamespace=true,ContextualLogging=false'), { kubernetesVersion: '1.33' }), []);
});

test('an unknown name with no close match beyond the versions the gate list covers is only a warning', () => {
  const fs = gateFindings(config({ SomeBrandNewGateXyz: 'true' }), { kubernetesVersion: NEWEST_VERSION });
  assert.deepEqual(codes(fs), ['feature-gate-unknown']);
  assert.equal(fs[0].severity, compareVersions(NEWEST_VERSION, GATES_COMPLETE_THROUGH) > 0 ? 'warning' : 'error');
  const sure = gateFindings(config({ SomeBrandNewGateXyz: 'true' }), { kubernetesVersion: GATES_COMPLETE_THROUGH });
  assert.equal(sure[0].severity, 'error');
});

// ---------------------------------------------------------------------------
// feature-gate-locked
// ---------------------------------------------------------------------------

test('a GA gate locked to true set to false is feature-gate-locked (kube_features.go SidecarContainers: GA 1.33, LockToDefault)', () => {
  const fs = gateFindings(config({ SidecarContainers: 'false' }), { kubernetesVersion: '1.34' });
  assert.deepEqual(codes(fs), ['feature-gate-locked']);
  const f = fs[0];
  assert.equal(f.severity, 'error');
  assert.match(f.message, /SidecarContainers=false/);
  assert.match(f.message, /Kubernetes 1\.34/);
  assert.match(f.message, /cannot set feature gate SidecarContainers to false, feature is locked to true/);
  assert.equal(f.fixes?.[0]?.edits[0]?.newText, 'true');
});

test('a locked gate set to its default, or set false before it was locked, raises nothing (SidecarContainers beta in 1.32)', () => {
  assert.deepEqual(gateFindings(config({ SidecarContainers: 'true' }), { kubernetesVersion: '1.34' }), []);
  assert.deepEqual(gateFindings(config({ SidecarContainers: 'false' }), { kubernetesVersion: '1.32' }), []);
});

test('--feature-gates=NodeSwap=false at 1.34 is locked (NodeSwap GA 1.34, LockToDefault); string values parse like strconv.ParseBool', () => {
  assert.deepEqual(codes(gateFindings(unit('NodeSwap=false'), { kubernetesVersion: '1.34' })), ['feature-gate-locked']);
  assert.deepEqual(codes(gateFindings(unit('NodeSwap=False'), { kubernetesVersion: '1.34' })), ['feature-gate-locked']);
  assert.deepEqual(gateFindings(unit('NodeSwap=false'), { kubernetesVersion: '1.33' }), []);
});

test('a deprecated gate locked to false set to true is locked (AllowOverwriteTerminationGracePeriodSeconds, locked in 1.35)', () => {
  const fs = gateFindings(config({ AllowOverwriteTerminationGracePeriodSeconds: 'true' }), { kubernetesVersion: '1.35' });
  assert.deepEqual(codes(fs), ['feature-gate-locked']);
  assert.match(fs[0].message, /^Feature gate AllowOverwriteTerminationGracePeriodSeconds is locked to false in Kubernetes 1\.35: .*the gate is deprecated and locked/);
});

// ---------------------------------------------------------------------------
// 1.36 / 1.37 (catalog/facts: kube_features.go on the 1.36 and 1.38 branches)
// ---------------------------------------------------------------------------

test('1.36 gates are known to a 1.36 kubelet and unknown to 1.35 (ExtendWebSocketsToKubelet, PLEGOnDemandRelist, ReloadKubeletClientCAFile)', () => {
  for (const n of ['ExtendWebSocketsToKubelet', 'PLEGOnDemandRelist', 'ReloadKubeletClientCAFile']) {
    assert.equal(gateAt(n, '1.35').status, 'unknown', n);
    assert.equal(gateAt(n, '1.36').status, 'known', n);
  }
  assert.deepEqual(gateFindings(config({ ExtendWebSocketsToKubelet: 'true', ReloadKubeletClientCAFile: 'true' }), { kubernetesVersion: '1.36' }), []);
  assert.match(gateFindings(config({ HugepageAwareEviction: 'true' }), { kubernetesVersion: '1.36' })[0]!.message, /arrived in Kubernetes 1\.37/);
});

test('gates removed in 1.36 and 1.37 are feature-gate-removed there (MemoryManager 1.36; SidecarContainers, PodLifecycleSleepAction 1.37, PR #137755, #139721)', () => {
  assert.deepEqual(codes(gateFindings(config({ MemoryManager: 'true' }), { kubernetesVersion: '1.36' })), ['feature-gate-removed']);
  assert.deepEqual(gateFindings(config({ MemoryManager: 'true' }), { kubernetesVersion: '1.35' }), []);
  assert.deepEqual(codes(gateFindings(config({ SidecarContainers: 'true', PodLifecycleSleepAction: 'true' }), { kubernetesVersion: '1.37' })), ['feature-gate-removed', 'feature-gate-removed']);
  assert.deepEqual(gateFindings(config({ SidecarContainers: 'true' }), { kubernetesVersion: '1.36' }), []);
});

test('gates GA and locked in 1.36 (ImageVolume, KubeletPSI, UserNamespacesSupport) are refused as false at their own line', () => {
  const fs = gateFindings(config({ ImageVolume: 'false', KubeletPSI: 'true' }), { kubernetesVersion: '1.36' });
  assert.deepEqual(codes(fs), ['feature-gate-locked']);
  assert.equal(fs[0]!.range.start.line, 3);
  assert.match(fs[0]!.message, /locked to true/);
  assert.deepEqual(gateFindings(config({ ImageVolume: 'false' }), { kubernetesVersion: '1.35' }), []);
});

test('TopologyManagerPolicyOptions is GA and locked since 1.32 (kube_features.go LockToDefault), so false is refused', () => {
  assert.deepEqual(codes(gateFindings(config({ TopologyManagerPolicyOptions: 'false' }), { kubernetesVersion: '1.32' })), ['feature-gate-locked']);
});

test('a plain 1.37 kubelet has DRAFractionalCapacityRange off (its default-on spec needs min-compatibility 1.37)', () => {
  const st = gateAt('DRAFractionalCapacityRange', '1.37');
  assert.ok(st.status === 'known' && st.spec.default === false && st.spec.stage === 'beta');
});

test('feature-gate-dependency: from 1.36 a gate on with a dependency off is refused at the gate\'s line (ClusterTrustBundleProjection needs ClusterTrustBundle)', () => {
  const fs = gateFindings(config({ ClusterTrustBundleProjection: 'true' }), { kubernetesVersion: '1.36' });
  assert.deepEqual(codes(fs), ['feature-gate-dependency']);
  assert.equal(fs[0]!.severity, 'error');
  assert.equal(fs[0]!.range.start.line, 3);
  assert.match(fs[0]!.message, /^A 1\.36 kubelet refuses to start: ClusterTrustBundleProjection needs ClusterTrustBundle, which is off\./);
  assert.match(fs[0]!.message, /"ClusterTrustBundleProjection is enabled, but depends on features that are disabled: \[ClusterTrustBundle\]"/);
  assert.deepEqual(gateFindings(config({ ClusterTrustBundleProjection: 'true' }), { kubernetesVersion: '1.35' }), [], 'no dependency checks before 1.36');
  assert.deepEqual(gateFindings(config({ ClusterTrustBundleProjection: 'true', ClusterTrustBundle: 'true' }), { kubernetesVersion: '1.36' }), []);
  // In 1.37 ClusterTrustBundle is GA and on by default.
  assert.deepEqual(gateFindings(config({ ClusterTrustBundleProjection: 'true' }), { kubernetesVersion: '1.37' }), []);
});

test('feature-gate-dependency: the --feature-gates entry of the dependent gate carries the finding', () => {
  const u = unit('ClusterTrustBundleProjection=true');
  const [f] = gateFindings(u, { kubernetesVersion: '1.36' });
  assert.equal(f?.code, 'feature-gate-dependency');
  const line = Object.values(u)[0]!.split('\n')[f!.range.start.line]!;
  assert.equal(line.slice(f!.range.start.character, f!.range.end.character), 'ClusterTrustBundleProjection');
});

test('feature-gate-dependency: turning off a gate that default-on gates need is refused at that entry (GracefulNodeShutdown=false in 1.36)', () => {
  const fs = gateFindings(config({ GracefulNodeShutdown: 'false' }), { kubernetesVersion: '1.36' });
  assert.deepEqual(codes(fs), ['feature-gate-dependency', 'feature-gate-dependency']);
  assert.ok(fs.every((f) => f.range.start.line === 3));
  assert.ok(fs.some((f) => /GracefulNodeShutdownBasedOnPodPriority needs GracefulNodeShutdown/.test(f.message)));
  assert.ok(fs.some((f) => /WindowsGracefulNodeShutdown needs GracefulNodeShutdown/.test(f.message)));
  assert.deepEqual(gateFindings(config({ GracefulNodeShutdown: 'false' }), { kubernetesVersion: '1.35' }), []);
  assert.deepEqual(gateFindings(config({ GracefulNodeShutdown: 'false', GracefulNodeShutdownBasedOnPodPriority: 'false', WindowsGracefulNodeShutdown: 'false' }), { kubernetesVersion: '1.36' }), []);
});

test('feature-gate-dependency: a dependency read only on the 1.38 branch is a warning (WorkloadWithJob needs GenericWorkload in 1.37)', () => {
  const fs = gateFindings(config({ WorkloadWithJob: 'true' }), { kubernetesVersion: '1.37' });
  assert.deepEqual(codes(fs), ['feature-gate-dependency']);
  assert.equal(fs[0]!.severity, 'warning');
  assert.match(fs[0]!.message, /1\.38 development branch/);
});

test('a locked gate set the wrong way is reported at the gate, not at the field that needs it (NodeLogQuery=false with enableSystemLogQuery in 1.36)', () => {
  const text = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nenableSystemLogQuery: true\nenableSystemLogHandler: true\nfeatureGates:\n  NodeLogQuery: false\n';
  const a = analyze([{ path: 'kubelet-config.yaml', text }], { kubernetesVersion: '1.36' });
  const errors = a.findings.filter((f) => f.severity === 'error');
  assert.deepEqual(errors.map((f) => [f.code, f.range.start.line]), [['feature-gate-locked', 5]]);
  // In 1.35 the gate is beta and off when set so: the field is refused.
  const old = analyze([{ path: 'kubelet-config.yaml', text }], { kubernetesVersion: '1.35' }).findings.filter((f) => f.severity === 'error');
  assert.deepEqual(old.map((f) => f.code), ['config-needs-feature-gate']);
});

test('feature-gate-dependency: AllAlpha=true in 1.37 turns on alpha gates whose beta dependency is off: one finding at AllAlpha, naming them', () => {
  const fs = gateFindings(config({ AllAlpha: 'true' }), { kubernetesVersion: '1.37' });
  assert.deepEqual(codes(fs), ['feature-gate-dependency']);
  assert.equal(fs[0]!.severity, 'error');
  assert.equal(fs[0]!.range.start.line, 3);
  assert.match(fs[0]!.message, /^A 1\.37 kubelet refuses to start: AllAlpha=true turns on \d+ gates whose dependencies stay off\./);
  assert.match(fs[0]!.message, /TopologyAwareWorkloadScheduling needs GenericWorkload/);
  assert.deepEqual(gateFindings(config({ AllAlpha: 'true', AllBeta: 'true' }), { kubernetesVersion: '1.37' }), []);
  assert.deepEqual(gateFindings(config({ AllAlpha: 'true' }), { kubernetesVersion: '1.36' }), [], 'GenericWorkload is alpha in 1.36, so AllAlpha turns it on too');
});

test('feature-gate-dependency quick fixes: the dependent gate\'s own entry is set to false, a dependency turned off is set back to true', () => {
  const own = config({ ClusterTrustBundleProjection: 'true' });
  const [f] = gateFindings(own, { kubernetesVersion: '1.36' });
  assert.equal(f!.fixes?.[0]?.title, 'Set ClusterTrustBundleProjection to false');
  const fixed = applyEdits(own['kubelet-config.yaml']!, f!.fixes![0]!.edits);
  assert.equal(fixed, own['kubelet-config.yaml']!.replace('ClusterTrustBundleProjection: true', 'ClusterTrustBundleProjection: false'));
  assert.deepEqual(gateFindings({ 'kubelet-config.yaml': fixed }, { kubernetesVersion: '1.36' }), []);
  const dep = config({ GracefulNodeShutdown: 'false' });
  const [g] = gateFindings(dep, { kubernetesVersion: '1.36' });
  assert.equal(g!.fixes?.[0]?.title, 'Set GracefulNodeShutdown to true');
  assert.deepEqual(gateFindings({ 'kubelet-config.yaml': applyEdits(dep['kubelet-config.yaml']!, g!.fixes![0]!.edits) }, { kubernetesVersion: '1.36' }), []);
});
