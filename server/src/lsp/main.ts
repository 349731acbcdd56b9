/**
 * Entry point of the kubelet language server (bundled to dist/server.js).
 * The transport comes from the command line: --stdio, --node-ipc or --socket=N
 * (vscode-languageserver reads process.argv).
 */
import { Console } from 'node:console';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { FrameFilter } from './framing.ts';
import { NODE_EDGE } from './node-edge.ts';
import { startServer } from './server.ts';

declare const PACKAGE_VERSION: string;
const version = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : 'dev';

if (process.argv.includes('--version')) {
  process.stdout.write(`kubelet-language-server ${version}\n`);
} else if (process.argv.includes('--stdio')) {
  // stdin goes through FrameFilter so that bytes which are not a message cannot make the server deaf.
  // Given streams, vscode-languageserver does not redirect console (as it does for --stdio): stdout carries
  // the protocol, so console output goes to stderr, which editors show in the server log.
  const err = new Console(process.stderr);
  console.log = console.info = console.debug = err.log.bind(err);
  console.dir = err.dir.bind(err);
  console.trace = err.trace.bind(err);
  const input = new FrameFilter();
  process.stdin.pipe(input);
  const connection = createConnection(ProposedFeatures.all, input, process.stdout);
  input.onDrop = (n, why) => connection.console.warn(`ignored ${n} bytes on stdin: ${why}`);
  startServer(connection, version, NODE_EDGE);
} else {
  startServer(createConnection(ProposedFeatures.all), version, NODE_EDGE);
}
