/**
 * k8s.io/component-base/tracing/api/v1 ValidateTracingConfiguration, called by
 * validation.go: samplingRatePerMillion within 0..1000000, and an endpoint Go's
 * url.Parse accepts once "dns://" is put in front of a value without "//",
 * with the scheme dns, unix or unix-abstract.
 * Before KubeletTracing was GA and locked (1.34), a tracing block with the gate
 * off was refused too: `tracing should not be configured if KubeletTracing
 * feature flag is disabled.` (that part is in gated.ts).
 */
import { fieldValue } from '../../../node/config-value.ts';
import type { NodeModel } from '../../../node/model.ts';
import { num, type Bad } from './common.ts';

/** gRPC name-resolver schemes the OTLP exporter takes (component-base tracing/api/v1 validateEndpoint). */
const SCHEMES = ['dns', 'unix', 'unix-abstract'];
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;

/** Go's net/url.Parse, reduced to what the tracing check needs: the error, or the (lower-cased) scheme. */
export function goUrlParse(raw: string): { error: string } | { scheme: string } {
  const error = goUrlParseError(raw);
  if (error) return { error };
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw);
  return { scheme: m ? m[1].toLowerCase() : '' };
}

/** The error Go's net/url.Parse gives for a URL, for the cases a tracing endpoint meets; undefined when it parses. */
export function goUrlParseError(raw: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) return 'net/url: invalid control character in URL';
  const hash = raw.indexOf('#');
  const frag = hash >= 0 ? raw.slice(hash + 1) : '';
  let rest = hash >= 0 ? raw.slice(0, hash) : raw;
  if (badEscape(frag)) return 'invalid URL escape';
  // getScheme: letters first, then letters, digits, + - . up to ':'; any other character means "no scheme".
  let scheme = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (/[A-Za-z]/.test(c)) continue;
    if (i > 0 && SCHEME_CHAR.test(c)) continue;
    if (c === ':') {
      if (i === 0) return 'missing protocol scheme';
      scheme = rest.slice(0, i);
      rest = rest.slice(i + 1);
    }
    break;
  }
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!scheme && !rest.startsWith('/')) {
    const seg = rest.split('/')[0];
    if (seg.includes(':')) return 'first path segment in URL cannot contain colon';
  }
  if ((scheme || !rest.startsWith('///')) && rest.startsWith('//')) {
    const after = rest.slice(2);
    const slash = after.indexOf('/');
    const authority = slash >= 0 ? after.slice(0, slash) : after;
    const path = slash >= 0 ? after.slice(slash) : '';
    const at = authority.lastIndexOf('@');
    const host = at >= 0 ? authority.slice(at + 1) : authority;
    const hostErr = hostError(host);
    if (hostErr) return hostErr;
    if (badEscape(path)) return 'invalid URL escape';
    return undefined;
  }
  return badEscape(rest) ? 'invalid URL escape' : undefined;
}

function badEscape(s: string): boolean {
  return /%(?![0-9A-Fa-f]{2})/.test(s);
}

function hostError(host: string): string | undefined {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return 'missing \']\' in host';
    const port = host.slice(close + 1);
    if (port !== '' && !/^:\d*$/.test(port)) return `invalid port "${port}" after host`;
    return undefined;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^:\d*$/.test(host.slice(colon))) return `invalid port "${host.slice(colon)}" after host`;
  if (badEscape(host)) return 'invalid URL escape';
  return undefined;
}

export function checkTracing(node: NodeModel, bad: Bad): void {
  const rate = fieldValue(node, 'tracing.samplingRatePerMillion');
  const r = rate ? num(rate) : undefined;
  if (rate && r !== undefined && r < 0) bad(rate.span, `tracing.samplingRatePerMillion is ${rate.text}, but a sampling rate cannot be negative`, `tracing.samplingRatePerMillion: Invalid value: ${rate.text}: sampling rate must be positive`);
  if (rate && r !== undefined && r > 1_000_000) bad(rate.span, `tracing.samplingRatePerMillion is ${rate.text}, but at most 1000000 (every span) makes sense`, `tracing.samplingRatePerMillion: Invalid value: ${rate.text}: sampling rate per million must be less than or equal to one million`);
  const ep = fieldValue(node, 'tracing.endpoint');
  if (!ep || typeof ep.value !== 'string') return;
  const url = ep.value.includes('//') ? ep.value : 'dns://' + ep.value;
  const parsed = goUrlParse(url);
  if ('error' in parsed) {
    bad(ep.span, `tracing.endpoint "${ep.value}" does not parse as a URL`, `tracing.endpoint: Invalid value: "${url}": parse "${url}": ${parsed.error}`);
  } else if (!SCHEMES.includes(parsed.scheme)) {
    bad(ep.span, `tracing.endpoint "${ep.value}" uses the scheme "${parsed.scheme}", which the kubelet does not take`,
      `tracing.endpoint: Invalid value: "${url}": unsupported scheme: ${parsed.scheme}.  Options are none, dns, unix, or unix-abstract.`,
      'Use dns://, unix://, unix-abstract: or plain host:port.');
  }
}
