// The web worker server's edge without a browser: URIs of any scheme to engine paths and back (server/src/web/uris.ts),
// and the byte count that replaced Buffer.byteLength in the shared host (server/src/lsp/host.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { WebUris } from '../../server/src/web/uris.ts';
import { utf8Length } from '../../server/src/lsp/host.ts';

test('web URIs: a path goes back to the scheme and authority it came with; an unseen path takes its folder\'s', () => {
  const u = new WebUris();
  assert.equal(u.toPath('vscode-vfs://github/owner/repo'), '/owner/repo');
  assert.equal(u.toPath('vscode-vfs://github/owner/repo/etc/kubelet%20a.conf'), '/owner/repo/etc/kubelet a.conf');
  assert.equal(u.toUri('/owner/repo/etc/kubelet a.conf'), 'vscode-vfs://github/owner/repo/etc/kubelet%20a.conf');
  // A file the engine names that the client never did (a related file read from the folder's listing).
  assert.equal(u.toUri('/owner/repo/var/lib/kubelet/config.yaml'), 'vscode-vfs://github/owner/repo/var/lib/kubelet/config.yaml');
  assert.equal(u.toPath('vscode-test-web://mount/ws/a#b'), '/ws/a');
  assert.equal(u.toUri('/ws/a'), 'vscode-test-web://mount/ws/a');
  // Outside every folder the client named: a file: URI.
  assert.equal(u.toUri('/elsewhere/x'), 'file:///elsewhere/x');
  assert.equal(u.toPath('file:///tmp/%zz'), '/tmp/%zz', 'a bad escape is kept, never thrown');
});

test('web URIs: toUri(toPath(uri)) names the same file for any path', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes('/') && s !== '.' && s !== '..'), { minLength: 1, maxLength: 4 }), (segments) => {
      const u = new WebUris();
      const uri = `vscode-vfs://github/${segments.map(encodeURIComponent).join('/')}`;
      const path = u.toPath(uri);
      assert.equal(path, `/${segments.join('/')}`);
      assert.equal(decodeURIComponent(new URL(u.toUri(path)).pathname), path);
    }),
    { numRuns: 300 },
  );
});

test('utf8Length is Buffer.byteLength for any string, lone surrogates included', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }), (a, b) => {
    const s = a + b + a;
    assert.equal(utf8Length(s), Buffer.byteLength(s, 'utf8'));
  }), { numRuns: 500 });
});
