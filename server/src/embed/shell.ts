/**
 * Shell text that writes kubelet files, read only where it is literal (issue #16): a script file, a cloud-init
 * runcmd/bootcmd entry. Three forms:
 * - a here-document into a file: `cat > /etc/x <<EOF`, `cat <<'EOF' >/etc/x`, `tee /etc/x <<-EOF`: the body is the
 *   file. With a quoted delimiter the body is literal (bash: no expansion); unquoted, a body holding `$`, a
 *   backquote or a backslash is expanded when the script runs and is named as not checked, never guessed.
 * - `/etc/eks/bootstrap.sh <cluster> --kubelet-extra-args '<flags>'` (awslabs/amazon-eks-ami AL2 bootstrap.sh,
 *   which writes them as KUBELET_EXTRA_ARGS into kubelet.service.d/30-kubelet-extra-args.conf);
 * - `sed -i '… KUBELET_EXTRA_ARGS+="<flags>"' /etc/eks/bootstrap.sh`, which adds to that same variable.
 * The flags of the last two are a payload of kind `envfile` holding `KUBELET_EXTRA_ARGS=<flags>`: an env file that
 * no unit names is read as the kubelet's arguments. The shell itself is never run or interpreted further.
 */
import type { LineIndex } from '../model/range.ts';
import { LineIndex as Lines } from '../model/range.ts';
import type { Payload, PayloadMap } from './payload.ts';
import type { PlatformInfo } from '../parse/types.ts';

/** Shell text and, for each of its characters, the carrier offset (one more: just after it), and how the
 * carrier writes text inserted into it (identity for a script file). */
export interface ShellSource {
  text: string;
  offsets: ArrayLike<number>;
  encode(text: string, at: number): string | undefined;
}

export const EXTRA_ARGS_TARGET = '/etc/eks/kubelet-extra-args';

/** A command that runs AL2's bootstrap.sh with a cluster name (awslabs/amazon-eks-ami templates/al2/runtime). */
const BOOTSTRAP_CALL = /(?:^|[\s;&|(])(?:exec[ \t]+|sudo[ \t]+|bash[ \t]+)?\/etc\/eks\/bootstrap\.sh(?=[ \t]+[^\s-])/;
const USE_MAX_PODS_FALSE = /--use-max-pods(?:=|[ \t]+|[ \t]*\\\r?\n[ \t]*)['"]?false\b/;
/** The platform whose semantics a bootstrap.sh node has (server/src/platforms/eks-al2/). */
const BOOTSTRAP_TOOL = 'eks-al2';

const HEREDOC = /(?<!<)<<(?!<)(-?)[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([A-Za-z_][A-Za-z0-9_]*))/;
const PATH_WORD = /^\/[A-Za-z0-9._@+\/-]+$/;

export function scanShell(src: ShellSource, host: LineIndex, span: (a: number, b: number) => Payload['span']): Payload[] {
  const out: Payload[] = [];
  const { text } = src;
  const lines = new Lines(text);
  const at = (i: number) => src.offsets[Math.min(i, text.length)];
  const lineEnd = (l: number) => {
    const e = l + 1 < lines.starts.length ? lines.starts[l + 1] - 1 : text.length;
    return e > lines.starts[l] && text[e - 1] === '\r' ? e - 1 : e;
  };
  const unread = (a: number, b: number, target: string, why: string) =>
    out.push({ target, text: '', map: { host, offsets: Int32Array.of(at(a)), encode: () => undefined }, span: span(at(a), at(b)), lines: new Lines(''), unchecked: why });
  let extra = 0;
  // The bootstrap.sh call the next --kubelet-extra-args belongs to: what bootstrap.sh itself writes for the node.
  let call: PlatformInfo | undefined;
  const flags = (qStart: number, qEnd: number, why?: string, platform = call) => {
    const target = extra++ ? `${EXTRA_ARGS_TARGET}-${extra}` : EXTRA_ARGS_TARGET;
    if (why) return unread(qStart, qEnd, target, why);
    const p = flagsPayload(src, host, qStart, qEnd, target, span(at(qStart), at(qEnd)));
    out.push(platform ? { ...p, platform } : p);
    call = undefined;
  };
  for (let l = 0; l < lines.starts.length; l++) {
    const s = lines.starts[l];
    const line = text.slice(s, lineEnd(l));
    const h = line.includes('<<') ? HEREDOC.exec(line) : null;
    if (h && /(?:^|[\s;&|(])(?:cat|tee)(?:[\s]|$)/.test(line)) {
      const delim = h[2] ?? h[3] ?? h[4];
      const quoted = h[4] === undefined || h[0].includes('\\');
      const strip = h[1] === '-';
      const target = heredocTarget(line.slice(0, h.index) + ' ' + line.slice(h.index + h[0].length));
      // The body: the lines up to the delimiter line.
      let end = l + 1;
      while (end < lines.starts.length && text.slice(lines.starts[end], lineEnd(end)).replace(strip ? /^\t+/ : /^$/, '') !== delim) end++;
      const bodyStart = l + 1 < lines.starts.length ? lines.starts[l + 1] : text.length;
      const bodyEnd = end < lines.starts.length ? lines.starts[end] : text.length;
      if (target && end < lines.starts.length) {
        // A computed path (`cat > ${ARTIFACTS}/kind-config.yaml <<EOF`) whose body is a Kubernetes-style document says
        // what it is by its apiVersion and kind: read under the path's literal file name; otherwise it is not checked.
        const named = target.kind === 'computed' ? documentName(target.path, text.slice(bodyStart, bodyEnd)) : undefined;
        if (named && (quoted || !/[$`\\]/.test(text.slice(bodyStart, bodyEnd)))) out.push(heredocPayload(src, host, text, bodyStart, bodyEnd, strip, quoted, delim, named, span(at(s), at(bodyEnd))));
        else if (target.kind === 'computed') unread(s, lineEnd(l), target.path, 'its path is computed when the script runs');
        else if (target.kind === 'append') unread(s, lineEnd(l), target.path, 'the script appends to it (>>, tee -a), and the file it adds to is not here whole');
        else if (!quoted && /[$`\\]/.test(text.slice(bodyStart, bodyEnd))) unread(s, lineEnd(l), target.path, 'its here-document is expanded by the shell when the script runs ($VAR, $(...), `...`)');
        else out.push(heredocPayload(src, host, text, bodyStart, bodyEnd, strip, quoted, delim, target.path, span(at(s), at(bodyEnd))));
      }
      l = end;
      continue;
    }
    // A call of AL2's /etc/eks/bootstrap.sh: the node's kubelet is bootstrap.sh's (its kubelet-config.json, its
    // reservations), with the flags of --kubelet-extra-args on top. A call without them still makes that node.
    const b = line.includes('bootstrap.sh') && !/\bsed\b/.test(line) ? BOOTSTRAP_CALL.exec(line) : null;
    if (b) {
      let e = l;
      while (e + 1 < lines.starts.length && /\\\r?$/.test(text.slice(lines.starts[e], lineEnd(e) + 1).replace(/\n$/, ''))) e++;
      const cmd = text.slice(s, lineEnd(e));
      // (its span is the payload's start: the file is named when the payload is, embed/payload.ts Payload.platform)
      call = { tool: BOOTSTRAP_TOOL, span: { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, gates: [], facts: { useMaxPods: !USE_MAX_PODS_FALSE.test(cmd), reservedCpus: cmd.includes('--reserved-cpus') } };
      if (!cmd.includes('--kubelet-extra-args')) flags(lineEnd(e), lineEnd(e));
    }
    // (Cheap tests first: this runs on every line of scripts up to 8 MiB.)
    const k = line.includes('--kubelet-extra-args') ? /--kubelet-extra-args(?:=|[ \t]+|[ \t]*\\\r?\n[ \t]*)/.exec(text.slice(s, Math.min(text.length, s + line.length + 400))) : null;
    if (k && /bootstrap\.sh/.test(text.slice(Math.max(0, s - 400), s + line.length))) {
      const q = s + k.index + k[0].length;
      const lit = shellLiteral(text, q);
      if (lit.ok) flags(lit.start, lit.end);
      else flags(q, lit.end, 'the kubelet flags given to bootstrap.sh are computed when the script runs');
      continue;
    }
    const sed = line.includes('KUBELET_EXTRA_ARGS') ? /KUBELET_EXTRA_ARGS\+?=(?=["'])/.exec(line) : null;
    if (sed && /\bsed\b/.test(line) && /\/etc\/eks\/bootstrap\.sh/.test(line)) {
      const q = s + sed.index + sed[0].length;
      const lit = shellLiteral(text, q);
      // Inside the single-quoted sed script a double-quoted value is literal text for bootstrap.sh.
      if (lit.ok) flags(lit.start, lit.end);
      else flags(q, lit.end, 'the kubelet flags the script adds to bootstrap.sh are computed when it runs');
    }
  }
  return out;
}

type Target = { kind: 'file' | 'append' | 'computed'; path: string };

const API_VERSION = /^apiVersion:[ \t]*\S/m;
const KIND = /^kind:[ \t]*\S/m;

/**
 * The path to read a here-document written to a computed path under: `/` and the path's last segment with its
 * variables left out (`${ARTIFACTS}/kind-config.yaml` -> `/kind-config.yaml`), when the body is a YAML or JSON
 * document with apiVersion and kind at its top level and the name is a YAML or JSON file's.
 */
function documentName(path: string, body: string): string | undefined {
  const last = withoutVariables(path.slice(path.lastIndexOf('/') + 1));
  if (!/^[A-Za-z0-9._-]+\.(?:ya?ml|json)$/i.test(last)) return undefined;
  return API_VERSION.test(body) && KIND.test(body) ? `/${last}` : undefined;
}

/**
 * The word less its `${...}` and `$NAME` references. By hand rather than /\$\{[^}]*\}|\$NAME/g, whose first
 * alternative rescans the rest of the word from every `${` when no `}` follows (quadratic on `${${${...`).
 */
function withoutVariables(word: string): string {
  let out = '';
  let closes = true; // whether a `}` may still follow
  for (let i = 0; i < word.length; ) {
    if (word[i] === '$' && word[i + 1] === '{' && closes) {
      const end = word.indexOf('}', i + 2);
      if (end >= 0) {
        i = end + 1;
        continue;
      }
      closes = false;
    } else if (word[i] === '$' && /[A-Za-z_]/.test(word[i + 1] ?? '')) {
      i += 2;
      while (i < word.length && /[A-Za-z0-9_]/.test(word[i])) i++;
      continue;
    }
    out += word[i++];
  }
  return out;
}

/** Where `cat > PATH` or `tee [-a] PATH` writes, from the command line less its here-document operator. */
function heredocTarget(cmd: string): Target | undefined {
  const redirect = /(?:^|[^0-9&>])(>>?)[ \t]*([^\s;&|<>]+)/.exec(cmd);
  const tee = /(?:^|[\s;&|(])tee((?:[ \t]+-[a-z-]+)*)[ \t]+([^\s;&|<>]+)/.exec(cmd);
  const pick = tee && tee[2] !== '/dev/null' ? { op: /-a\b|--append/.test(tee[1]) ? '>>' : '>', word: tee[2] } : redirect && redirect[2] !== '/dev/null' ? { op: redirect[1], word: redirect[2] } : undefined;
  if (!pick) return undefined;
  const word = pick.word.replace(/^(['"])(.*)\1$/, '$2');
  if (!PATH_WORD.test(word)) return /kubelet|kubeadm|systemd|\/etc\/default|sysconfig/i.test(word) || /\.ya?ml$|\.json$/i.test(word) ? { kind: 'computed', path: word } : undefined;
  return { kind: pick.op === '>>' ? 'append' : 'file', path: word };
}

function heredocPayload(src: ShellSource, host: LineIndex, text: string, from: number, to: number, strip: boolean, quoted: boolean, delim: string, target: string, span: Payload['span']): Payload {
  let body = '';
  const offsets: number[] = [];
  let lineStart = true;
  for (let i = from; i < to; i++) {
    if (strip && lineStart && text[i] === '\t') continue;
    lineStart = text[i] === '\n';
    body += text[i];
    offsets.push(src.offsets[i]);
  }
  offsets.push(src.offsets[to]);
  const map: PayloadMap = {
    host,
    offsets: Int32Array.from(offsets),
    encode: (t, at) => {
      // Inserted text must not end the here-document early, lose leading tabs (<<-) or be expanded (unquoted).
      if (t.split(/\r?\n/).some((x) => x === delim || (strip && x.startsWith('\t')))) return undefined;
      if (strip && /^\t/.test(t)) return undefined;
      if (!quoted && /[$`\\]/.test(t)) return undefined;
      return src.encode(t, at);
    },
    // A line of the body that is the delimiter ends the here-document (after its leading tabs, with <<-).
    refusesLine: (l) => (strip ? l.replace(/^\t+/, '') : l) === delim,
  };
  return { target, text: body, map, span, lines: new Lines(body) };
}

/** An unquoted shell word, matched where it starts (sticky: no copy of the rest of the text per word). */
const BARE_WORD = /[^\s;&|<>()]+/y;

/**
 * A shell word starting at `q`: literal when single-quoted, or double-quoted/bare without expansions. Reads only
 * the word: a script with thousands of `--kubelet-extra-args` lines costs time linear in its length (issue #18).
 */
function shellLiteral(text: string, q: number): { ok: true; start: number; end: number } | { ok: false; end: number } {
  const c = text[q];
  if (c === "'") {
    const e = text.indexOf("'", q + 1);
    return e < 0 ? { ok: false, end: text.length } : { ok: true, start: q + 1, end: e };
  }
  if (c === '"') {
    let e = q + 1;
    let literal = true;
    for (; e < text.length && text[e] !== '"'; e++) {
      const d = text[e];
      if (d === '$' || d === '`' || d === '\\' || d === '\n') literal = false;
      if (d === '\\') e++;
    }
    e = Math.min(e, text.length);
    return literal ? { ok: true, start: q + 1, end: e } : { ok: false, end: e };
  }
  BARE_WORD.lastIndex = q;
  const m = BARE_WORD.exec(text);
  const end = q + (m ? m[0].length : 0);
  return m && !/[$`\\'"]/.test(m[0]) ? { ok: true, start: q, end } : { ok: false, end };
}

/**
 * `KUBELET_EXTRA_ARGS='<flags>'` as an env file: the flags at their places, the name and quotes at the opening
 * quote. Inserted text is the flags' own text, so it must hold no quote, `$`, backquote, backslash or new line.
 */
function flagsPayload(src: ShellSource, host: LineIndex, from: number, to: number, target: string, span: Payload['span']): Payload {
  const inner = src.text.slice(from, to);
  const quote = inner.includes("'") ? '"' : "'";
  const head = `KUBELET_EXTRA_ARGS=${quote}`;
  const body = head + inner + quote + '\n';
  // (one typed array of the payload's size: a long flag string makes no growing array of boxed numbers)
  const offsets = new Int32Array(head.length + (to - from) + 3);
  let k = 0;
  for (let i = 0; i < head.length; i++) offsets[k++] = src.offsets[Math.max(from - 1, 0)];
  for (let i = from; i < to; i++) offsets[k++] = src.offsets[i];
  offsets[k++] = src.offsets[to];
  offsets[k++] = src.offsets[Math.min(to + 1, src.text.length)];
  offsets[k++] = src.offsets[Math.min(to + 1, src.text.length)];
  // An unquoted word (no quote before it) also splits at blanks and ends at shell operators.
  const bare = !`'"`.includes(src.text[from - 1] ?? '');
  const unsafe = bare ? /['"$`\\\s;&|<>()*?[\]{}~#]/ : /['"$`\\\r\n]/;
  const map: PayloadMap = { host, offsets, encode: (t, at) => (unsafe.test(t) ? undefined : src.encode(t, at)) };
  return { target, text: body, kind: 'envfile', map, span, lines: new Lines(body) };
}
