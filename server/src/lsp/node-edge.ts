/** The Node server's I/O edge: workspace files read from disk (disk-files.ts), file: URIs (uri.ts). */
import { WorkspaceFiles } from './disk-files.ts';
import type { ServerEdge } from './edge.ts';
import { pathToUri, uriToPath } from './uri.ts';

export const NODE_EDGE: ServerEdge = {
  uris: { toPath: uriToPath, toUri: pathToUri },
  files: (_connection, log, detect) => new WorkspaceFiles(log, detect),
};
