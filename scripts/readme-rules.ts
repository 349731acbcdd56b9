// Rewrites the rule table of README.md from the rule registry: `npx tsx scripts/readme-rules.ts`.
import { readFileSync, writeFileSync } from 'node:fs';
import { RULES } from '../server/src/rules/index.ts';

const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';
const readme = readFileSync('README.md', 'utf8');
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a === -1 || b === -1) throw new Error('README.md lacks the rules markers');
const table = ['| id | what it catches |', '|---|---|', ...RULES.map((r) => `| \`${r.id}\` | ${r.summary} |`)].join('\n');
writeFileSync('README.md', readme.slice(0, a + START.length) + '\n' + table + '\n' + readme.slice(b));
