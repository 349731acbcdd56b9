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
 *     (k8s.io/component-base/featuregate/feature_gate.go);
 *   - from 1.36, a gate that is on while a gate it depends on is off:
 *     `X is enabled, but depends on features that are disabled: [Y]` (the same
 *     SetFromMap, over kube_features.go defaultKubernetesFeatureGateDependencies).
 *
 * The data is generated (feature-gates.generated.ts, `npm run catalog`) from the
 * fact tables in catalog/facts/, which name their sources: every versioned spec of
 * pkg/features/kube_features.go and the staging gates the kubelet registers
 * (feature-gates-upstream.tsv), the specs of gates gone since
 * (feature-gates-history.tsv), when gates arrived and left
 * (feature-gates-lifecycle.tsv), and the dependencies. `approximate` marks a
 * removal (or arrival) only bracketed between two source copies: the later bound
 * is taken, so a kubelet between the two is not wrongly failed.
 *
 * Backfilled specs: when a gate was added already GA/deprecated, kube_features.go
 * starts its history at a synthetic `1.0`; `addedIn` records the real release
 * the gate appeared in (an older kubelet does not know it).
 */
import { compareVersions } from './flags.ts';
import { lazyTable, once, tableOf } from './lazy.ts';
import { GATE_DEPENDENCY_ROWS, GATE_ROWS } from './feature-gates.generated.ts';
import { NEWEST_VERSION } from './versions.generated.ts';

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

/** A gate that needs others: on while one of them is off, the kubelet refuses to start (from `since`). */
export interface GateDependency {
  gate: string;
  needs: readonly string[];
  since: string;
  /** Read only in a later source than the release (facts/feature-gate-dependencies.tsv): reported as a warning. */
  approximate?: boolean;
}

/** Newest minor version for which every gate is in the table (the fact tables' versions.tsv). */
export const GATES_COMPLETE_THROUGH = NEWEST_VERSION;

/** `'1.33 ga on locked'` -> GateSpec. */
function spec(s: string): GateSpec {
  const [since, stage, onOff, lock] = s.split(' ');
  if (!since || !stage || (onOff !== 'on' && onOff !== 'off') || (lock !== undefined && lock !== 'locked')) {
    throw new Error(`bad gate spec "${s}"`);
  }
  if (stage !== 'alpha' && stage !== 'beta' && stage !== 'ga' && stage !== 'deprecated') throw new Error(`bad gate stage "${s}"`);
  return lock ? { since, stage, default: onOff === 'on', locked: true } : { since, stage, default: onOff === 'on' };
}

/** Every gate, by name. Built on first use (catalog/lazy.ts) from the generated rows. */
export const FEATURE_GATES: readonly FeatureGate[] = lazyTable(() =>
  GATE_ROWS().map(([name, specs, addedIn, removedIn, approximate, description]): FeatureGate => {
    const gate: FeatureGate = { name, specs: specs.split(';').map(spec) };
    if (addedIn) gate.addedIn = addedIn;
    if (removedIn) gate.removedIn = removedIn;
    if (approximate) gate.approximate = true;
    if (description) gate.description = description;
    return gate;
  }),
);

const dependencies = once(() => {
  const byGate = new Map<string, GateDependency[]>();
  for (const [gate, needs, since, approximate] of GATE_DEPENDENCY_ROWS()) {
    const list = byGate.get(gate) ?? [];
    list.push(approximate ? { gate, needs, since, approximate: true } : { gate, needs, since });
    byGate.set(gate, list);
  }
  return byGate;
});

/** The dependencies a kubelet of minor version v checks for a gate (none before 1.36). */
export function gateDependencies(name: string, version: string): GateDependency[] {
  return (dependencies().get(name) ?? []).filter((d) => compareVersions(version, d.since) >= 0);
}

/** Every gate with a dependency, for the dependency rule. */
export function gatesWithDependencies(): string[] {
  return [...dependencies().keys()];
}

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

/**
 * Whether the release that added the gate is known. A gate begins as alpha or beta; one whose recorded history begins
 * at GA or deprecated (CSIMigrationAWS: "1.25 ga", though alpha from 1.14) is recorded only from where the data
 * starts, and an older kubelet may well have known it.
 */
export function gateBirthKnown(gate: FeatureGate): boolean {
  if (gate.addedIn !== undefined) return true;
  const first = gate.specs[0];
  return first === undefined || first.stage === 'alpha' || first.stage === 'beta';
}

type GateAt = { status: 'unknown' } | { status: 'removed'; gate: FeatureGate } | { status: 'known'; gate: FeatureGate; spec: GateSpec };

/** gateAt's answers by version and name: the rules ask the same few gates of every node (bounded: names are the user's). */
const AT = new Map<string, Readonly<GateAt>>();

/** Status of a gate for a kubelet of minor version v: 'unknown' (never existed or not yet added), 'removed', or the spec in force. */
export function gateAt(name: string, version: string): Readonly<GateAt> {
  const key = `${version}\0${name}`;
  let at = AT.get(key);
  if (!at) {
    if (AT.size >= 8192) AT.clear();
    AT.set(key, (at = Object.freeze(gateAtNow(name, version))));
  }
  return at;
}

function gateAtNow(name: string, version: string): GateAt {
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
