#!/usr/bin/env bash
# Install what the browser tests (pytest -m browser) need: Debian's chromium and a font.
# Idempotent and quiet: does nothing when /usr/bin/chromium already exists; prints the
# apt log only when the install fails. The tests drive chromium through the DevTools
# protocol over a pipe (--remote-debugging-pipe): no driver, no Python package, no
# browser download.
set -euo pipefail

if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    if ! {
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                --no-install-recommends chromium fonts-dejavu-core
    } >"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
fi
test -x /usr/lib/chromium/chromium || test -x /usr/bin/chromium
