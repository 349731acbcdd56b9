#!/usr/bin/env bash
# Installs what the real-editor end-to-end tests (test/e2e) need: Debian's
# Neovim, Debian's Chromium (driven by playwright-core) and code-server 4.100.3 from the
# npm registry (it bundles VS Code 1.100.3 and runs on Node 20; later versions
# need Node 22+), finished by hand because its own install scripts download
# binaries from GitHub. code-server goes into a cache folder outside the
# repository ($KUBELET_E2E_CACHE, default ~/.cache/kubelet-config-e2e), reused by
# every clone and every later run; .e2e/code-server links to it.
#
# Idempotent: a finished install leaves a marker and is skipped next time, so
# `npm test` calls this on every run. Needs only the npm registry and the Debian
# mirrors. Run as root (or with the system packages already installed).
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
E2E="$ROOT/.e2e"
CACHE="${KUBELET_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubelet-config-e2e}"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_PKG="$CS_DIR/node_modules/code-server"
VSCODE_DIR="$CS_PKG/lib/vscode"
MARKER="$CS_DIR.done"

log() { printf '[e2e-setup] %s\n' "$*"; }
START=$(date +%s)
mkdir -p "$E2E" "$CACHE"

# An install made inside the repository by an earlier version of this script
# moves to the cache instead of being rebuilt.
if [ -d "$E2E/code-server" ] && [ ! -L "$E2E/code-server" ] && [ ! -e "$CS_DIR" ] \
  && [ -f "$E2E/code-server-$CODE_SERVER_VERSION.done" ]; then
  log "moving the in-repository code-server install to $CS_DIR"
  mv "$E2E/code-server" "$CS_DIR" && touch "$MARKER" && rm -f "$E2E/code-server-$CODE_SERVER_VERSION.done"
fi

# retry, install_packages
. "$ROOT/scripts/setup-lib.sh"

# 1. System packages: chromium (the browser), libkrb5-dev (headers for the
#    kerberos native module), ripgrep (replaces the rg binary that
#    @vscode/ripgrep would download from GitHub), neovim (its built-in LSP
#    client is the second editor test/e2e drives).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
if ! dpkg-query -W -f='${Status}' libkrb5-dev 2>/dev/null | grep -q 'install ok installed'; then
  missing+=(libkrb5-dev)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  install_packages "${missing[@]}"
else
  log "system packages present (chromium, ripgrep, libkrb5-dev, neovim)"
fi
# A compiler for the native modules (node-gyp); normally already there.
if ! command -v g++ >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { log "need g++, make and python3 to build native modules"; exit 1; }
  log "installing build tools (g++, make, python3)"
  export DEBIAN_FRONTEND=noninteractive
  retry apt-get update -q
  retry apt-get install -y -q --no-install-recommends g++ make python3
fi

# 2. code-server, finished by hand.
if [ -f "$MARKER" ] && [ -f "$CS_PKG/out/node/entry.js" ]; then
  log "code-server $CODE_SERVER_VERSION already installed in $CS_DIR"
else
  log "installing code-server $CODE_SERVER_VERSION into $CS_DIR (takes a few minutes)"
  rm -f "$MARKER"
  mkdir -p "$CS_DIR"
  cd "$CS_DIR"
  [ -f package.json ] || printf '{"name":"kubelet-config-e2e","private":true}\n' > package.json
  # --ignore-scripts: its postinstall would download ripgrep from GitHub.
  retry npm install --no-audit --no-fund --ignore-scripts --no-save "code-server@$CODE_SERVER_VERSION"
  cd "$VSCODE_DIR"
  log "installing VS Code's own dependencies"
  retry npm install --no-audit --no-fund --omit=dev --ignore-scripts
  log "building native modules (kerberos node-pty @vscode/spdlog native-watchdog @parcel/watcher @vscode/deviceid)"
  npm_config_yes=true retry npm rebuild kerberos node-pty @vscode/spdlog native-watchdog @parcel/watcher @vscode/deviceid
  log "using the system ripgrep for @vscode/ripgrep"
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  ln -sfn node_modules node_modules.asar
  log "installing the built-in extensions' dependencies"
  cd "$VSCODE_DIR/extensions"
  retry npm install --no-audit --no-fund --omit=dev --ignore-scripts
  node ./postinstall.mjs
  cd "$CS_DIR"
  log "building argon2"
  npm_config_yes=true retry npm rebuild argon2
  # (the first run also logs a line about its default config file: keep only the version line)
  version="$(node "$CS_PKG/out/node/entry.js" --version 2>/dev/null | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -1 || true)"
  case "$version" in
    "$CODE_SERVER_VERSION"*) log "code-server reports: $version" ;;
    *) log "code-server --version printed '$version', expected $CODE_SERVER_VERSION"; exit 1 ;;
  esac
  touch "$MARKER"
fi

# 3. The test finds code-server through .e2e/code-server (it packages the extension itself).
rm -rf "$E2E/code-server"
ln -s "$CS_DIR" "$E2E/code-server"

log "ready in $(( $(date +%s) - START )) s"
