#!/usr/bin/env bash
# Installs the real programs the integration tests (test/integrations) drive: pre-commit (Debian's package; the
# test runs it on a fixture repository with `repo:` a local path and `language: system`, so it never needs the
# network) and Chromium (Debian's; web-worker.test.ts runs the VS Code for the Web server in it through
# playwright-core, a devDependency). Idempotent: with the program present it only checks and exits, so `npm test` calls it on every run.
# Needs the Debian mirrors once. Run as root (or with pre-commit already installed). KUBELET_INTEGRATIONS=skip
# (read by test/run.mjs) skips this and the tests that need it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[integrations-setup] %s\n' "$*"; }

# retry, install_packages
. "$ROOT/scripts/setup-lib.sh"

missing=()
command -v pre-commit >/dev/null 2>&1 || missing+=(pre-commit)
command -v git >/dev/null 2>&1 || missing+=(git)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ "${#missing[@]}" -gt 0 ]; then
  install_packages "${missing[@]}"
fi
log "pre-commit $(pre-commit --version 2>/dev/null | awk '{print $2}'), $(git --version) and $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium (version unknown)') present"
