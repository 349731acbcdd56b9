/**
 * A kubelet run in a container by its unit: `podman run [options] IMAGE [kubelet] --flag ...` (poseidon/typhoon's
 * Fedora CoreOS nodes), or `docker run -d ...` in ExecStartPre= with ExecStart= following its logs (typhoon's
 * Flatcar nodes). The image's command gets the words after IMAGE, so those are the kubelet's arguments. Only an
 * image whose reference names the kubelet counts (quay.io/poseidon/kubelet, ${KUBELET_IMAGE}). An option of `run`
 * written without `=` takes the next word as its value unless it is one of the switches below (the boolean
 * options of `docker run` and `podman run`).
 */
import type { Word } from '../parse/types.ts';
import { basename } from '../model/paths.ts';

const RUNNERS = new Set(['podman', 'docker', 'nerdctl']);
const SWITCHES = new Set(['-d', '--detach', '--privileged', '--rm', '-i', '-t', '-it', '-ti', '-dt', '-td', '--interactive', '--tty', '--init',
  '--read-only', '--replace', '-q', '--quiet', '--no-healthcheck', '--oom-kill-disable', '-P', '--publish-all', '--no-hosts', '--sig-proxy']);

/** The kubelet's arguments when `argv` runs a kubelet image; undefined otherwise. */
export function containerKubeletArgs(argv: readonly Word[]): Word[] | undefined {
  return containerKubelet(argv)?.args;
}

/** The kubelet image `argv` runs and the kubelet's arguments; undefined when it runs none. */
export function containerKubelet(argv: readonly Word[]): { image: Word; args: Word[] } | undefined {
  if (!argv.length || !RUNNERS.has(basename(argv[0].text))) return undefined;
  let i = 1;
  if (argv[i]?.text === 'container') i++;
  if (argv[i]?.text !== 'run') return undefined;
  for (i++; i < argv.length; i++) {
    const w = argv[i].text;
    if (w === '--') continue;
    if (w.startsWith('-')) {
      // `--name kubelet`: the next word is this option's value.
      if (!w.includes('=') && !SWITCHES.has(w)) i++;
      continue;
    }
    if (!/kubelet/i.test(w)) return undefined;
    const rest = argv.slice(i + 1);
    return { image: argv[i], args: rest.length && basename(rest[0].text) === 'kubelet' ? rest.slice(1) : rest };
  }
  return undefined;
}
