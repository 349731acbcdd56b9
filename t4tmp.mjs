import { readFileSync } from 'node:fs';
import * as N from './node_modules/yaml/dist/index.js';
import * as B from './node_modules/yaml/browser/index.js';
const text = readFileSync('/work/main/test/realworld/files/cloud-init/aksengine-node/parts/k8s/cloud-init/nodecustomdata.yml','utf8');
for (const [n, Y] of [['node', N], ['browser', B]]) {
  const docs = Y.parseAllDocuments(text);
  console.log(n, docs.map(d => d.errors.map(e => e.code + ' ' + e.message.slice(0,80))));
}
