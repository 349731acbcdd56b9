import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isGoSpace, mapKeyValues, parseGoBool, parseLangleMap, parseMapStringBool, parseMapStringString } from '../../server/src/quantity/mapflag.ts';
import { HANG_MS } from '../helpers/hang.ts';

const CF = 'staging/src/k8s.io/component-base/cli/flag';

/** key/value pairs plus a check that the offsets point at them */
function pairs(value: string, r: { entries: { key: string; value: string; keyStart: number; keyEnd: number; valueStart: number; valueEnd: number }[] }): [string, string][] {
  for (const e of r.entries) {
    assert.equal(value.slice(e.keyStart, e.keyEnd), e.key);
    assert.equal(value.slice(e.valueStart, e.valueEnd), e.value);
  }
  return r.entries.map((e) => [e.key, e.value]);
}

test(`${CF}/map_string_string.go Set: split on ",", skip empty items, SplitN "=" 2, TrimSpace key and value, offsets into the input`, () => {
  const v = 'cpu=1, memory = 2Gi ,,ephemeral-storage=1Gi,';
  const r = parseMapStringString(v);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(pairs(v, r), [['cpu', '1'], ['memory', '2Gi'], ['ephemeral-storage', '1Gi']]);
  assert.deepEqual(r.entries[1], { key: 'memory', value: '2Gi', keyStart: 7, keyEnd: 13, valueStart: 16, valueEnd: 19 });
  // value may contain "=" (SplitN 2); empty key and empty value are accepted
  const w = 'a=b=c,=x,y=';
  assert.deepEqual(pairs(w, parseMapStringString(w)), [['a', 'b=c'], ['', 'x'], ['y', '']]);
  // duplicates: all reported in order (the map keeps the last)
  assert.deepEqual(pairs('cpu=1,cpu=2', parseMapStringString('cpu=1,cpu=2')), [['cpu', '1'], ['cpu', '2']]);
  assert.deepEqual(parseMapStringString(''), { entries: [], errors: [] });
});

test(`${CF}/map_string_string.go Set: an item without "=" is "malformed pair, expect string=string"; Set stops there (a blank " " item is not skipped)`, () => {
  const v = 'cpu=1,memory,pid=100';
  const r = parseMapStringString(v);
  assert.deepEqual(pairs(v, r), [['cpu', '1']]);
  assert.deepEqual(r.errors, [{ message: 'malformed pair, expect string=string', start: 6, end: 12 }]);
  const b = parseMapStringString('cpu=1, ,pid=1');
  assert.equal(b.errors.length, 1);
  assert.deepEqual(b.errors[0], { message: 'malformed pair, expect string=string', start: 6, end: 7 });
  assert.equal(parseMapStringString('cpu=1;memory=2').entries[0]!.value, '1;memory=2');
});

test(`${CF}/map_string_string.go DisableCommaSeparatedPairs: the whole value is one pair, "" is malformed`, () => {
  const r = parseMapStringString('a=1,b=2', { disableCommaSeparatedPairs: true });
  assert.deepEqual(pairs('a=1,b=2', r), [['a', '1,b=2']]);
  assert.equal(parseMapStringString('', { disableCommaSeparatedPairs: true }).errors[0]!.message, 'malformed pair, expect string=string');
});

test(`${CF}/langle_separated_map_string_string.go Set: signal<value pairs, "malformed pair, expect string<string"`, () => {
  const v = 'memory.available<500Mi, nodefs.available<10%';
  const r = parseLangleMap(v);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(pairs(v, r), [['memory.available', '500Mi'], ['nodefs.available', '10%']]);
  assert.deepEqual(pairs('<foo', parseLangleMap('<foo')), [['', 'foo']]);
  const bad = parseLangleMap('memory.available=500Mi');
  assert.deepEqual(bad, { entries: [], errors: [{ message: 'malformed pair, expect string<string', start: 0, end: 22 }] });
  const two = parseLangleMap('a<1<2');
  assert.deepEqual(pairs('a<1<2', two), [['a', '1<2']]);
});

test(`k8s.io/component-base/featuregate/feature_gate.go Set: Name=true,Other=false; ParseBool spellings; "missing bool value for X"; "invalid value of X=Y"`, () => {
  const v = 'A=true, B=false,C=1,D=0,E=t,F=F,G=TRUE,H=False';
  const r = parseMapStringBool(v);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(
    r.entries.map((e) => [e.key, e.bool]),
    [['A', true], ['B', false], ['C', true], ['D', false], ['E', true], ['F', false], ['G', true], ['H', false]],
  );
  pairs(v, r);
  const m = parseMapStringBool('A=true, B ');
  assert.deepEqual(m.errors, [{ message: 'missing bool value for B', start: 8, end: 9 }]);
  const y = parseMapStringBool('A=yes');
  assert.deepEqual(y.errors, [{ message: 'invalid value of A=yes, err: strconv.ParseBool: parsing "yes": invalid syntax', start: 2, end: 5 }]);
  assert.equal(parseMapStringBool('A=tRuE').errors.length, 1);
  assert.equal(parseMapStringBool('A=').errors[0]!.message, 'invalid value of A=, err: strconv.ParseBool: parsing "": invalid syntax');
});

test(`${CF}/map_string_bool.go Set messages: "malformed pair, expect string=bool", "invalid value of X: Y, err: ..."`, () => {
  assert.equal(parseMapStringBool('A', { style: 'mapStringBool' }).errors[0]!.message, 'malformed pair, expect string=bool');
  assert.equal(
    parseMapStringBool('A=on', { style: 'mapStringBool' }).errors[0]!.message,
    'invalid value of A: on, err: strconv.ParseBool: parsing "on": invalid syntax',
  );
});

test('strings.TrimSpace uses unicode.IsSpace: U+0085 and U+00A0 are trimmed, U+FEFF (BOM) is not (unlike JS trim)', () => {
  assert.ok(isGoSpace(0x85) && isGoSpace(0xa0) && isGoSpace(0x3000) && isGoSpace(0x0b));
  assert.ok(!isGoSpace(0xfeff) && !isGoSpace(0x200b));
  const v = '\u00a0cpu\u0085=\ufeff1';
  const r = parseMapStringString(v);
  assert.deepEqual(pairs(v, r), [['cpu', '\ufeff1']]);
  assert.equal(parseGoBool('true'), true);
  assert.equal(parseGoBool('yes'), undefined);
});

test('map flags: 100k-character values parse in bounded time', () => {
  const v = Array.from({ length: 10000 }, (_, i) => `k${i}=v${i}`).join(',');
  const t = performance.now();
  const r = parseMapStringString(v);
  assert.equal(r.entries.length, 10000);
  assert.equal(parseMapStringString(','.repeat(100000)).entries.length, 0);
  assert.equal(parseLangleMap('x'.repeat(100000)).errors.length, 1);
  assert.ok(performance.now() - t < HANG_MS);
});

test('mapKeyValues: what Set keeps, each key once at its first place with its last value, up to a malformed pair', () => {
  const keys: string[] = ['stale'];
  const values: string[] = ['stale'];
  assert.equal(mapKeyValues(' a = 1 ,b=2,,a=3', '=', keys, values), 2);
  assert.deepEqual([keys.slice(0, 2), values.slice(0, 2)], [['a', 'b'], ['3', '2']]);
  // Set stops at the malformed "c": the pairs before it count, nothing after.
  assert.equal(mapKeyValues('x=1,c,y=2', '=', keys, values), 1);
  assert.deepEqual([keys[0], values[0]], ['x', '1']);
  assert.equal(mapKeyValues('memory.available<100Mi,nodefs.available<10%', '<', keys, values), 2);
  assert.deepEqual(values.slice(0, 2), ['100Mi', '10%']);
  // Many pairs (looked up through a map): the same answer as the parser's entries, deduplicated.
  const many = Array.from({ length: 30 }, (_, i) => `k${i % 12}=v${i}`).join(',');
  const n = mapKeyValues(many, '=', keys, values);
  const expected = new Map<string, string>();
  for (const e of parseMapStringString(many).entries) expected.set(e.key, e.value);
  assert.deepEqual([keys.slice(0, n), values.slice(0, n)], [[...expected.keys()], [...expected.values()]]);
});

test('mapKeyValues with bool: the keys parseMapStringBool keeps, stopping at the first value ParseBool rejects', () => {
  const keys: string[] = [];
  const values: string[] = [];
  for (const v of ['A=true,B=maybe,C=false', 'A=1,A=false,B=T', 'X=true,Y', 'G=TRUE']) {
    const n = mapKeyValues(v, '=', keys, values, true);
    const expected = new Map(parseMapStringBool(v).entries.map((e) => [e.key, e.value]));
    assert.deepEqual([keys.slice(0, n), values.slice(0, n)], [[...expected.keys()], [...expected.values()]], v);
  }
});
