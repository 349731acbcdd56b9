/**
 * Writes schemas/kubelet-config.schema.json from the field catalog
 * (`npm run schema`). The file is committed; test/unit/schema.test.ts fails
 * when it is out of date.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editorSchema } from '../server/src/catalog/schema.ts';

export const SCHEMA_FILE = join(__dirname, '..', 'schemas', 'kubelet-config.schema.json');

export function schemaText(): string {
  return JSON.stringify(editorSchema(), null, 2) + '\n';
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, schemaText());
  console.log(`wrote ${SCHEMA_FILE}`);
}
