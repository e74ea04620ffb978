#!/usr/bin/env bash
# Make sure a Java 17+ runtime is there for the Spark tests (pytest -m spark; pyspark 4 needs
# Java 17). Idempotent and quiet: does nothing when `java -version` already reports 17 or
# newer; otherwise installs Debian's openjdk-17-jre-headless and prints the apt log only
# when the install fails.
set -euo pipefail

java_major() {
    # `java -version` prints e.g. 'openjdk version "17.0.15" 2025-04-15' (or "1.8.0_..." for 8).
    java -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]) + 0; exit}'
}

has_java17() {
    command -v java >/dev/null 2>&1 && [ "$(java_major)" -ge 17 ]
}

if ! has_java17; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    if ! {
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                --no-install-recommends openjdk-17-jre-headless
    } >"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
fi
has_java17 || { echo "spark-setup: java 17 not found after installing openjdk-17-jre-headless" >&2; exit 1; }
