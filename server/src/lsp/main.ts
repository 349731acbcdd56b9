/**
 * Entry point of the kubelet language server (bundled to dist/server.js).
 * The transport comes from the command line: --stdio, --node-ipc or --socket=N
 * (vscode-languageserver reads process.argv).
 */
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startServer } from './server.ts';

declare const PACKAGE_VERSION: string;
const version = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : 'dev';

if (process.argv.includes('--version')) {
  process.stdout.write(`kubelet-language-server ${version}\n`);
} else {
  const connection = createConnection(ProposedFeatures.all);
  startServer(connection, version);
}
