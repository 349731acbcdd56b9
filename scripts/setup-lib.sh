# Shared by scripts/e2e-setup.sh and scripts/oracle-setup.sh (sourced; the caller defines log()).

# Retries a command: 3 attempts, a short pause between them.
retry() {
  local n=1
  until "$@"; do
    if [ "$n" -ge 3 ]; then log "failed after $n attempts: $*"; return 1; fi
    log "attempt $n failed, retrying: $*"
    n=$((n + 1))
    sleep $((n * 5))
  done
}

# Installs Debian packages (apt-get update first); exits with the reason when not root or without apt-get.
install_packages() {
  if [ "$(id -u)" != 0 ]; then log "missing system packages: $*; run as root or install them with apt-get"; exit 1; fi
  command -v apt-get >/dev/null 2>&1 || { log "missing system packages: $*; no apt-get on this machine"; exit 1; }
  log "installing system packages: $*"
  export DEBIAN_FRONTEND=noninteractive
  retry apt-get update -q
  retry apt-get install -y -q --no-install-recommends "$@"
}
