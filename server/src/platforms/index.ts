/**
 * Every platform the engine knows: one line each. A platform is its folder (platforms/types.ts says what it
 * declares); ARCHITECTURE.md "Add a platform" is the recipe.
 */
import type { Platform } from './types.ts';
import talos from './talos/index.ts';
import nodeadm from './nodeadm/index.ts';
import eksctl from './eksctl/index.ts';
import openshift from './openshift/index.ts';
import kops from './kops/index.ts';
import bottlerocket from './bottlerocket/index.ts';
import k3s from './k3s/index.ts';
import karpenter from './karpenter/index.ts';
import kind from './kind/index.ts';
import clusterApi from './cluster-api/index.ts';
import eksAl2 from './eks-al2/index.ts';
import gke from './gke/index.ts';
import aks from './aks/index.ts';

export const PLATFORMS: readonly Platform[] = [talos, nodeadm, eksctl, openshift, kops, bottlerocket, k3s, karpenter, kind, clusterApi, eksAl2, gke, aks];
