// The official SARIF 2.1.0 schema as a validator, for the CLI's SARIF tests.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';

/**
 * The official SARIF 2.1.0 schema (sarif-2.1.0-rtm.5, the one json.schemastore.org serves as
 * sarif-2.1.0.json) as shipped by @microsoft/jest-sarif. It is a draft-04 schema; it uses no
 * keyword whose meaning changed after draft-04 (no exclusiveMinimum/Maximum), so Ajv's draft-07
 * validator runs it once the draft-04 "id" / "$schema" header is replaced by "$id". One of its
 * patterns ("language") has a stray "]" that is only legal without the u flag: unicodeRegExp off.
 */
export function sarifValidator() {
  const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
  assert.match(String(schema.title), /SARIF.*2\.1\.0/);
  const text = JSON.stringify(schema);
  assert.ok(!/"exclusiveM(in|ax)imum"/.test(text), 'no draft-04-only keywords');
  delete schema.$schema;
  schema.$id = schema.id;
  delete schema.id;
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  ajv.addFormat('uri', (s: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s) && URL.canParse(s));
  ajv.addFormat('uri-reference', (s: string) => !/[\s<>"{}|\\^`]/.test(s) && URL.canParse(s, 'file:///base/'));
  ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(s));
  return ajv.compile(schema);
}

