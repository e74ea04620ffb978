#!/usr/bin/env bash
# Install what the PostgreSQL tests need: Debian's postgresql server binaries. The tests start
# their own server (a new cluster in a temporary directory, a Unix socket, run as the postgres
# user) and stop it. Idempotent and quiet: does nothing when an initdb is already there; prints
# the apt log only when the install fails.
set -euo pipefail

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    if ! {
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                --no-install-recommends postgresql
    } >"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
fi
ls /usr/lib/postgresql/*/bin/initdb >/dev/null
