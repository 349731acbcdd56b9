import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUnit } from '../../server/src/parse/systemd/unit.ts';
import { parseEnvFile } from '../../server/src/parse/systemd/envfile.ts';
import { parseEnvironmentDirective } from '../../server/src/parse/systemd/environment.ts';
import { expandExecArgv, parseExecCommands, parseExecDirective, splitVariable } from '../../server/src/parse/systemd/exec.ts';
import {
  EXTRACT_CUNESCAPE,
  EXTRACT_RELAX,
  EXTRACT_UNQUOTE,
  extractWords,
} from '../../server/src/parse/systemd/words.ts';
import { LineIndex, TextMap, type Range } from '../../server/src/model/range.ts';
import type { EnvAssignment, UnitDirective, UnitFile } from '../../server/src/parse/types.ts';

function unit(body: string): { text: string; u: UnitFile } {
  const text = `[Service]\n${body}`;
  return { text, u: parseUnit('/u.service', text) };
}

function directive(body: string, key = 'ExecStart'): UnitDirective {
  const d = unit(body).u.directives.find((x) => x.key === key);
  assert.ok(d, `no ${key}`);
  return d;
}

function texts(ws: { text: string }[]): string[] {
  return ws.map((w) => w.text);
}

function lookupIn(assignments: EnvAssignment[]) {
  return (name: string) => {
    let hit: EnvAssignment | undefined;
    for (const a of assignments) if (a.name === name) hit = a;
    return hit;
  };
}

/** The text a range covers in a file (single line). */
function at(file: string, r: Range): string {
  const idx = new LineIndex(file);
  assert.equal(r.start.line, r.end.line);
  return file.slice(idx.starts[r.start.line] + r.start.character, idx.starts[r.end.line] + r.end.character);
}

// ---------- words (extract-word.c) ----------

test('words split on blanks, quotes group and are removed, C escapes decoded (extract-word.c EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE)', () => {
  const raw = `a "b c"d 'e\\tf' \\x41\\s\\u00e9 "g\\"h"`;
  const map = new TextMap('/f', [{ offset: 0, line: 0, character: 0, length: raw.length }]);
  const { words, problems } = extractWords(raw, map, EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE);
  assert.deepEqual(texts(words), ['a', 'b cd', 'e\tf', 'A é', 'g"h']);
  assert.equal(problems.length, 0);
  // span is the raw word, quotes included; the map follows the unquoted text
  assert.deepEqual(words[1].span.range, { start: { line: 0, character: 2 }, end: { line: 0, character: 8 } });
  assert.deepEqual(words[1].map.span(0, 3).range, { start: { line: 0, character: 3 }, end: { line: 0, character: 6 } });
  assert.deepEqual(words[1].map.position(3), { line: 0, character: 7 });
});

test('unbalanced quoting is an error without EXTRACT_RELAX and accepted with it (extract-word.c)', () => {
  const raw = `a "b c`;
  const map = new TextMap('/f', [{ offset: 0, line: 0, character: 0, length: raw.length }]);
  const strict = extractWords(raw, map, EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE);
  assert.deepEqual(texts(strict.words), ['a']);
  assert.equal(strict.problems.length, 1);
  const relax = extractWords(raw, map, EXTRACT_UNQUOTE | EXTRACT_RELAX);
  assert.deepEqual(texts(relax.words), ['a', 'b c']);
  assert.equal(relax.problems.length, 0);
});

// ---------- ExecStart= parsing (load-fragment.c config_parse_exec) ----------

test('prefixes @ - : + ! !! are taken off the first word, after unquoting (load-fragment.c config_parse_exec)', () => {
  assert.equal(parseExecDirective(directive('ExecStart=-/bin/a x')).prefixes, '-');
  const c = parseExecDirective(directive('ExecStart="-:/bin/a" x'));
  assert.equal(c.prefixes, '-:');
  assert.deepEqual(texts(c.words), ['/bin/a', 'x']);
  assert.equal(parseExecDirective(directive('ExecStart=!!/bin/a')).prefixes, '!!');
  assert.equal(parseExecDirective(directive('ExecStart=+-/bin/a')).prefixes, '+-');
  // `+` then `!` is not a prefix combination: the `!` stays in the path, which is then not absolute
  const bad = parseExecDirective(directive('ExecStart=+!/bin/a'));
  assert.equal(bad.words.length, 0);
  assert.equal(bad.problems[0].code, 'exec-path');
});

test('the path word\'s span starts after the prefixes (load-fragment.c config_parse_exec)', () => {
  const { text, u } = unit('ExecStart=-@/bin/kubelet kubelet --v=2\n');
  const c = parseExecDirective(u.directives[0]);
  assert.equal(c.prefixes, '-@');
  assert.equal(at(text, c.path.span.range), '/bin/kubelet');
  // with @ the next word is argv[0]
  assert.deepEqual(texts(c.words), ['kubelet', '--v=2']);
});

test('a lone `;` separates commands and `\\;` is a literal argument (load-fragment.c config_parse_exec)', () => {
  const { commands } = parseExecCommands(directive('ExecStartPre=/bin/a x \\; y ; /bin/b ";"', 'ExecStartPre'));
  assert.equal(commands.length, 2);
  assert.deepEqual(texts(commands[0].words), ['/bin/a', 'x', ';', 'y']);
  assert.deepEqual(texts(commands[1].words), ['/bin/b', ';']);
});

test('an invalid escape is kept verbatim with a warning (extract-word.c extract_first_word_and_warn retries with EXTRACT_CUNESCAPE_RELAX)', () => {
  const c = parseExecDirective(directive('ExecStart=/bin/sh -c "echo \\$HOME"'));
  assert.deepEqual(texts(c.words), ['/bin/sh', '-c', 'echo \\$HOME']);
  assert.equal(c.problems.length, 1);
  assert.equal(c.problems[0].code, 'exec-escape');
  assert.equal(c.problems[0].severity, 'warning');
});

test('unbalanced quoting after the path is an error: systemd refuses the unit unless `-` (load-fragment.c)', () => {
  const c = parseExecDirective(directive('ExecStart=/bin/a "b c'));
  assert.equal(c.words.length, 0);
  assert.equal(c.problems[0].code, 'exec-syntax');
  assert.equal(c.problems[0].severity, 'error');
  const i = parseExecDirective(directive('ExecStart=-/bin/a "b c'));
  assert.equal(i.problems[0].severity, 'warning');
});

test('`%%` is a literal `%`; known specifiers stay as written; unknown ones are an error (specifier.c specifier_printf)', () => {
  const { text, u } = unit('ExecStart=/bin/a --x=100%% --n=%n --q=%-\n');
  const c = parseExecDirective(u.directives[0]);
  assert.deepEqual(texts(c.words), ['/bin/a', '--x=100%', '--n=%n', '--q=%-']);
  assert.equal(c.problems.length, 0);
  assert.equal(at(text, c.words[1].map.span(0, 8).range), '--x=100%');
  const bad = parseExecDirective(directive('ExecStart=/bin/a --x=%K'));
  assert.equal(bad.words.length, 0);
  assert.equal(bad.problems[0].code, 'exec-specifier');
});

test('relative or unsafe executable paths are rejected (load-fragment.c: path_is_absolute ? path_is_valid : filename_is_valid)', () => {
  assert.deepEqual(texts(parseExecDirective(directive('ExecStart=kubelet --v=1')).words), ['kubelet', '--v=1']);
  assert.equal(parseExecDirective(directive('ExecStart=bin/kubelet')).problems[0].code, 'exec-path');
  assert.equal(parseExecDirective(directive('ExecStart=/usr/bin/')).problems[0].code, 'exec-path');
});

test('an empty ExecStart= is a directive with no command: the caller resets the list (load-fragment.c)', () => {
  const { u } = unit('ExecStart=\n');
  assert.equal(u.directives.length, 1);
  const c = parseExecDirective(u.directives[0]);
  assert.equal(c.words.length, 0);
  assert.equal(c.problems.length, 0);
});

test('the seed unit: Restart=always becomes the last kubelet argument (conf-parser.c + load-fragment.c)', () => {
  const text = `[Service]
ExecStart=/usr/local/bin/kubelet $KUBELET_EXTRA_ARGS \\
\t--cgroup-driver=cgroupfs \\
\t--system-reserved=cpu=6,memory=24Gi \\
\tRestart=always
StartLimitInterval=0
`;
  const u = parseUnit('/k.service', text);
  const c = parseExecDirective(u.directives[0]);
  assert.deepEqual(texts(c.words), [
    '/usr/local/bin/kubelet',
    '$KUBELET_EXTRA_ARGS',
    '--cgroup-driver=cgroupfs',
    '--system-reserved=cpu=6,memory=24Gi',
    'Restart=always',
  ]);
  const last = c.words[4];
  assert.deepEqual(last.span.range, { start: { line: 4, character: 1 }, end: { line: 4, character: 15 } });
  const { argv, references } = expandExecArgv(c, () => undefined);
  assert.deepEqual(texts(argv), ['/usr/local/bin/kubelet', '--cgroup-driver=cgroupfs', '--system-reserved=cpu=6,memory=24Gi', 'Restart=always']);
  assert.deepEqual(references.map((r) => [r.variable, r.defined]), [['KUBELET_EXTRA_ARGS', false]]);
});

// ---------- Environment= (load-fragment.c config_parse_environ) ----------

test('Environment= takes several assignments; quotes may wrap a whole assignment (load-fragment.c config_parse_environ)', () => {
  const { text, u } = unit(`Environment="VAR1=word1 word2" VAR2=word3 'VAR3=a "b"'\n`);
  const { assignments, problems } = parseEnvironmentDirective(u.directives[0]);
  assert.deepEqual(assignments.map((a) => [a.name, a.value]), [['VAR1', 'word1 word2'], ['VAR2', 'word3'], ['VAR3', 'a "b"']]);
  assert.equal(problems.length, 0);
  assert.equal(at(text, assignments[0].nameSpan.range), 'VAR1');
  assert.equal(at(text, assignments[0].valueMap.span(0, 11).range), 'word1 word2');
  assert.equal(at(text, assignments[0].span.range), '"VAR1=word1 word2"');
});

test('Environment= values are C-unescaped (load-fragment.c: EXTRACT_CUNESCAPE)', () => {
  const { assignments } = parseEnvironmentDirective(directive('Environment=A=\\x41\\tb', 'Environment'));
  assert.deepEqual(assignments.map((a) => a.value), ['A\tb']);
});

test('an empty Environment= yields zero assignments and stays visible as a directive (load-fragment.c: empty resets)', () => {
  const { u } = unit('Environment=A=1\nEnvironment=\n');
  assert.equal(u.directives.length, 2);
  assert.equal(u.directives[1].value, '');
  assert.deepEqual(parseEnvironmentDirective(u.directives[1]), { assignments: [], problems: [] });
});

test('an invalid Environment= word is ignored with a warning, the others kept (load-fragment.c: env_assignment_is_valid)', () => {
  const { assignments, problems } = parseEnvironmentDirective(directive('Environment=A=1 NOEQUALS 1B=2 C-D=3 E=5', 'Environment'));
  assert.deepEqual(assignments.map((a) => a.name), ['A', 'E']);
  assert.equal(problems.length, 3);
  assert.ok(problems.every((p) => p.code === 'environment-invalid' && p.severity === 'warning'));
});

test('unbalanced quoting in Environment= keeps the assignments before it and drops the rest (load-fragment.c "Invalid syntax, ignoring")', () => {
  const { assignments, problems } = parseEnvironmentDirective(directive('Environment=A=1 "B=2 C=3', 'Environment'));
  assert.deepEqual(assignments.map((a) => a.name), ['A']);
  assert.equal(problems[0].code, 'environment-syntax');
});

// ---------- expansion (env-util.c replace_env_argv) ----------

test('$VAR as a whole word splits into words, quotes in the value removed, spans inside the definition (env-util.c replace_env_argv: EXTRACT_RELAX|EXTRACT_UNQUOTE)', () => {
  const { text, u } = unit(
    `Environment="ARGS=--a=1 '--b=x y'  --c"\nExecStart=/bin/kubelet $ARGS --d\n`,
  );
  const env = parseEnvironmentDirective(u.directives[0]).assignments;
  const cmd = parseExecDirective(u.directives[1]);
  const { argv, references } = expandExecArgv(cmd, lookupIn(env));
  assert.deepEqual(texts(argv), ['/bin/kubelet', '--a=1', '--b=x y', '--c', '--d']);
  // each word from the variable points into the Environment= line
  assert.equal(argv[1].span.range.start.line, 1);
  assert.equal(at(text, argv[1].span.range), '--a=1');
  assert.equal(at(text, argv[2].span.range), "'--b=x y'");
  assert.equal(at(text, argv[2].map.span(0, 7).range), '--b=x y');
  assert.equal(at(text, argv[3].span.range), '--c');
  assert.equal(argv[1].via?.variable, 'ARGS');
  assert.equal(at(text, argv[1].via!.span.range), '$ARGS');
  assert.equal(argv[4].via, undefined);
  assert.deepEqual(references.map((r) => [r.variable, r.defined, at(text, r.span.range)]), [['ARGS', true, '$ARGS']]);
});

test('$VAR from an environment file: the words point into that file (env-util.c replace_env_argv)', () => {
  const envText = 'KUBELET_EXTRA_ARGS="--node-ip=10.0.0.1 --max-pods=50"\n';
  const ef = parseEnvFile('/etc/default/kubelet', envText);
  const cmd = parseExecDirective(directive('ExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS'));
  const { argv } = expandExecArgv(cmd, lookupIn(ef.assignments));
  assert.deepEqual(texts(argv), ['/usr/bin/kubelet', '--node-ip=10.0.0.1', '--max-pods=50']);
  assert.equal(argv[2].span.file, '/etc/default/kubelet');
  assert.deepEqual(argv[2].span.range, { start: { line: 0, character: 39 }, end: { line: 0, character: 52 } });
  assert.equal(at(envText, argv[2].map.span(0, 13).range), '--max-pods=50');
  assert.equal(argv[2].via?.span.file, '/u.service');
});

test('${VAR} inside a word is replaced in place as one word; literal parts map to the command line (env-util.c replace_env_full)', () => {
  const { text, u } = unit(`Environment="IP=10.0.0.1 x"\nExecStart=/bin/k --node-ip=\${IP}:80 \${IP}\n`);
  const env = parseEnvironmentDirective(u.directives[0]).assignments;
  const { argv, references } = expandExecArgv(parseExecDirective(u.directives[1]), lookupIn(env));
  assert.deepEqual(texts(argv), ['/bin/k', '--node-ip=10.0.0.1 x:80', '10.0.0.1 x']);
  const w = argv[1];
  assert.equal(at(text, w.span.range), '--node-ip=${IP}:80');
  assert.equal(at(text, w.map.span(0, 10).range), '--node-ip=');
  assert.equal(at(text, w.map.span(10, 20).range), '10.0.0.1 x'); // the substituted part: the definition
  assert.equal(at(text, w.map.span(20, 23).range), ':80');
  assert.equal(w.via?.variable, 'IP');
  assert.deepEqual(references.map((r) => [r.variable, r.defined, at(text, r.span.range)]), [
    ['IP', true, '${IP}'],
    ['IP', true, '${IP}'],
  ]);
});

test('`$$` is a literal `$`; `$X` inside a word and `${X:-d}` stay as written (env-util.c replace_env_full, flags=0)', () => {
  const { assignments } = parseEnvironmentDirective(directive('Environment=X=1', 'Environment'));
  const cmd = parseExecDirective(directive('ExecStart=/bin/sh -c a$$b a$X $${X} ${X:-d} $$X'));
  const { argv } = expandExecArgv(cmd, lookupIn(assignments));
  assert.deepEqual(texts(argv), ['/bin/sh', '-c', 'a$b', 'a$X', '${X}', '${X:-d}', '$X']);
});

test('an unset $VAR gives zero words, an unset ${VAR} an empty argument (env-util.c replace_env_argv)', () => {
  const cmd = parseExecDirective(directive('ExecStart=/bin/a $NOPE ${NOPE} b'));
  const { argv, references } = expandExecArgv(cmd, () => undefined);
  assert.deepEqual(texts(argv), ['/bin/a', '', 'b']);
  assert.deepEqual(references.map((r) => [r.variable, r.defined]), [['NOPE', false], ['NOPE', false]]);
});

test('a variable set to the empty string expands to zero words (env-util.c replace_env_argv)', () => {
  const { assignments } = parseEnvironmentDirective(directive('Environment=EMPTY=', 'Environment'));
  const { argv, references } = expandExecArgv(parseExecDirective(directive('ExecStart=/bin/a $EMPTY b')), lookupIn(assignments));
  assert.deepEqual(texts(argv), ['/bin/a', 'b']);
  assert.deepEqual(references.map((r) => r.defined), [true]);
});

test('a whole word `$` + an invalid name is a bad variable and vanishes (env-util.c replace_env_argv)', () => {
  const { argv, references } = expandExecArgv(parseExecDirective(directive('ExecStart=/bin/a $FOO-bar $ c')), () => undefined);
  assert.deepEqual(texts(argv), ['/bin/a', 'c']);
  assert.deepEqual(references.map((r) => [r.variable, r.invalidName]), [['FOO-bar', true], ['', true]]);
});

test('"$VAR" in quotes is still split: the quotes are gone before expansion (load-fragment.c unquotes, env-util.c splits)', () => {
  const { assignments } = parseEnvironmentDirective(directive('Environment="V=a b"', 'Environment'));
  const { argv } = expandExecArgv(parseExecDirective(directive('ExecStart=/bin/a "$V"')), lookupIn(assignments));
  assert.deepEqual(texts(argv), ['/bin/a', 'a', 'b']);
});

test('the `:` prefix turns off variable expansion (load-fragment.c EXEC_COMMAND_NO_ENV_EXPAND)', () => {
  const { assignments } = parseEnvironmentDirective(directive('Environment=V=x', 'Environment'));
  const { argv, references } = expandExecArgv(parseExecDirective(directive('ExecStart=:/bin/a $V $$')), lookupIn(assignments));
  assert.deepEqual(texts(argv), ['/bin/a', '$V', '$$']);
  assert.equal(references.length, 0);
});

test('the program word is never expanded', () => {
  const cmd = parseExecDirective(directive('ExecStart=/opt/$V/bin'));
  const { argv, references } = expandExecArgv(cmd, () => undefined);
  assert.deepEqual(texts(argv), ['/opt/$V/bin']);
  assert.equal(references.length, 0);
});

test('splitVariable splits a value like a whole-word $VAR, unbalanced quotes relaxed (env-util.c: EXTRACT_RELAX|EXTRACT_UNQUOTE)', () => {
  const ef = parseEnvFile('/e', `ARGS="--a 'b c' \\\\x --d='e"\n`);
  const a = ef.assignments[0];
  assert.equal(a.value, `--a 'b c' \\x --d='e`);
  const words = splitVariable(a, { variable: 'ARGS', span: a.nameSpan });
  // no C escapes here: `\x` gives `x`; the unclosed quote is accepted
  assert.deepEqual(texts(words), ['--a', 'b c', 'x', '--d=e']);
  assert.ok(words.every((w) => w.via?.variable === 'ARGS'));
});

test('${VAR} defined in another file: the substituted part maps to the ${VAR} reference (a map holds one file)', () => {
  const ef = parseEnvFile('/etc/default/kubelet', 'IP=10.0.0.1\n');
  const { text, u } = unit('ExecStart=/bin/k --node-ip=${IP}\n');
  const { argv } = expandExecArgv(parseExecDirective(u.directives[0]), lookupIn(ef.assignments));
  const w = argv[1];
  assert.equal(w.text, '--node-ip=10.0.0.1');
  assert.equal(w.map.file, '/u.service');
  assert.equal(at(text, w.map.span(0, 10).range), '--node-ip=');
  assert.deepEqual(w.map.position(12), w.via!.span.range.start);
  assert.equal(at(text, w.via!.span.range), '${IP}');
});

test('Environment= resolves `%%` to `%` and keeps known specifiers (load-fragment.c unit_env_printf)', () => {
  const { assignments, problems } = parseEnvironmentDirective(directive('Environment=P=50%% N=%n', 'Environment'));
  assert.deepEqual(assignments.map((a) => [a.name, a.value]), [['P', '50%'], ['N', '%n']]);
  assert.equal(problems.length, 0);
});
