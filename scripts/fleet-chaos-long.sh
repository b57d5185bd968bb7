#!/usr/bin/env bash
# The long chaos run of issue 15: 10,000 lifecycle events with hosted clicks and routes in flight,
# a kill -9 every 10 s taking turns over two runtime nodes and two control planes (each started
# again at once), and one crash-restart of PostgreSQL half way. Same checks as the bounded CI run
# (test/e2e/fleet-chaos.test.ts); prints the figures recorded in docs/fleet.md as one JSON line.
# Needs the machine's PostgreSQL binaries and a Redis at REDIS_URL.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export CHAOS_EVENTS="${CHAOS_EVENTS:-10000}"
export CHAOS_KILL_EVERY_MS="${CHAOS_KILL_EVERY_MS:-10000}"
exec npx vitest run test/e2e/fleet-chaos.test.ts --reporter=verbose
