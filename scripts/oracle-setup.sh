#!/usr/bin/env bash
# Installs the real programs the differential tests (test/oracle) compare the
# engine with: Debian's systemd (`systemd --test` dumps every unit as it parsed
# it) and a small Go program, test/oracle/yaml-oracle.go, built against Debian's
# sigs.k8s.io/yaml (the decoder the kubelet reads its config file with).
#
# The Go program is built into a cache folder outside the repository
# ($KUBELET_ORACLE_CACHE, default ~/.cache/kubelet-config-oracles), keyed by the
# hash of its source, and linked from .oracles/yaml-oracle. Idempotent: once the
# packages are there and the binary is built it only checks and exits, so
# `npm test` calls it on every run. Needs only the Debian mirrors (no Go module
# download: GO111MODULE=off, GOPATH=/usr/share/gocode, GOPROXY=off).
#
# Then test/oracle/kubelet-oracle (the kubelet's own decode of KubeletConfiguration,
# apimachinery's ParseQuantity, Go's time.ParseDuration), a Go module built against
# the released k8s.io/kubelet, k8s.io/apimachinery, k8s.io/component-base and
# sigs.k8s.io/yaml (go.mod, go.sum): it needs Go >= 1.26 and the Go module proxy
# (the go command's default). Built once per source version into the same cache,
# linked from .oracles/kubelet-oracle. Where Go or the proxy is missing it is
# skipped with the reason (printed and written to .oracles/kubelet-oracle.skipped,
# which the tests show); the other oracles stay.
# Run as root (or with the system packages already installed).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/.oracles"
CACHE="${KUBELET_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubelet-config-oracles}"
SRC="$ROOT/test/oracle/yaml-oracle.go"

log() { printf '[oracle-setup] %s\n' "$*"; }
START=$(date +%s)
mkdir -p "$OUT" "$CACHE"

# retry, install_packages
. "$ROOT/scripts/setup-lib.sh"

# 1. System packages.
missing=()
command -v systemd >/dev/null 2>&1 || [ -x /lib/systemd/systemd ] || missing+=(systemd)
command -v go >/dev/null 2>&1 || missing+=(golang-go)
[ -f /usr/share/gocode/src/sigs.k8s.io/yaml/yaml.go ] || missing+=(golang-k8s-sigs-yaml-dev)
# setpriv runs systemd --test as an unprivileged user (it refuses to run its test mode as root).
command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
if [ "${#missing[@]}" -gt 0 ]; then
  install_packages "${missing[@]}"
else
  log "system packages present (systemd, golang-go, golang-k8s-sigs-yaml-dev)"
fi

# 2. The YAML oracle, built once per source version.
HASH="$(sha256sum "$SRC" | cut -c1-16)"
BIN="$CACHE/yaml-oracle-$HASH"
if [ -x "$BIN" ]; then
  log "yaml-oracle already built ($BIN)"
else
  log "building yaml-oracle against /usr/share/gocode (sigs.k8s.io/yaml)"
  WORK="$(mktemp -d)"
  trap 'rm -rf "$WORK"' EXIT
  cp "$SRC" "$WORK/main.go"
  (cd "$WORK" && GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$CACHE/go-build" GOPROXY=off GOFLAGS= \
    go build -o "$BIN.tmp" main.go)
  mv "$BIN.tmp" "$BIN"
fi
ln -sfn "$BIN" "$OUT/yaml-oracle"

# 3. The kubelet oracle (Go modules), built once per source version; skipped with the reason when it cannot be.
KSRC="$ROOT/test/oracle/kubelet-oracle"
SKIPPED="$OUT/kubelet-oracle.skipped"
kubelet_oracle() {
  rm -f "$SKIPPED"
  local khash kbin gover
  khash="$(cat "$KSRC/main.go" "$KSRC/go.mod" "$KSRC/go.sum" | sha256sum | cut -c1-16)"
  kbin="$CACHE/kubelet-oracle-$khash"
  if [ ! -x "$kbin" ]; then
    gover="$(go env GOVERSION 2>/dev/null || true)"
    # go1.26.8 -> 1 26: the module's go.mod asks for 1.26
    if ! printf '%s' "$gover" | awk -F'[go.]+' '{ exit !($2 > 1 || ($2 == 1 && $3 >= 26)) }'; then
      echo "needs Go >= 1.26 (found: ${gover:-no go command})" >"$SKIPPED"
      return 0
    fi
    log "building kubelet-oracle with $gover (k8s.io/kubelet, k8s.io/apimachinery through the Go module proxy)"
    local kwork
    kwork="$(mktemp -d)"
    cp "$KSRC/main.go" "$KSRC/go.mod" "$KSRC/go.sum" "$kwork/"
    # -mod=readonly: go.sum pins every module; GOTOOLCHAIN=local: no other Go is fetched
    if ! (cd "$kwork" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local GOCACHE="$CACHE/go-build" GOMODCACHE="$CACHE/go-mod" \
      retry go mod download && GOFLAGS=-mod=readonly GOTOOLCHAIN=local GOCACHE="$CACHE/go-build" GOMODCACHE="$CACHE/go-mod" \
      go build -trimpath -o "$kbin.tmp" .) >"$CACHE/kubelet-oracle-build.log" 2>&1; then
      rm -rf "$kwork"
      echo "the Go build failed (Go module proxy unreachable?): $(tail -3 "$CACHE/kubelet-oracle-build.log" | tr '\n' ' ')" >"$SKIPPED"
      return 0
    fi
    rm -rf "$kwork"
    mv "$kbin.tmp" "$kbin"
  else
    log "kubelet-oracle already built ($kbin)"
  fi
  ln -sfn "$kbin" "$OUT/kubelet-oracle"
}
rm -f "$OUT/kubelet-oracle"
kubelet_oracle
if [ -f "$SKIPPED" ]; then
  log "kubelet-oracle skipped: $(cat "$SKIPPED")"
else
  printf '["1Gi"]' | "$OUT/kubelet-oracle" quantity | grep -q '"string":"1Gi"' || { log "kubelet-oracle does not answer"; exit 1; }
fi

# 4. Smoke test: the other oracles answer.
printf '["a: 1\\n"]' | "$OUT/yaml-oracle" | grep -q '"json":"{\\"a\\":1}"' || { log "yaml-oracle does not answer"; exit 1; }
SYSTEMD="$(command -v systemd || echo /lib/systemd/systemd)"
log "systemd: $("$SYSTEMD" --version | head -1)"
ln -sfn "$SYSTEMD" "$OUT/systemd"

log "ready in $(( $(date +%s) - START )) s"
