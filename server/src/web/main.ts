/**
 * Entry point of the kubelet language server in a web worker (bundled to dist/web/server.js), for VS Code for the
 * Web (vscode.dev, github.dev): the same server as dist/server.js (lsp/server.ts), over the worker's messages, with
 * the web edge (edge.ts) instead of the disk.
 */
import { BrowserMessageReader, BrowserMessageWriter, ProposedFeatures, createConnection } from 'vscode-languageserver/browser';
import { startServer } from '../lsp/server.ts';
import { webEdge } from './edge.ts';

declare const PACKAGE_VERSION: string;
const version = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : 'dev';

// The worker's global scope is the port: messages from the client arrive on it and answers go back through it.
const port = globalThis as never;
const connection = createConnection(ProposedFeatures.all, new BrowserMessageReader(port), new BrowserMessageWriter(port));
startServer(connection, version, webEdge());
