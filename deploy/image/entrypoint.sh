#!/bin/sh
# Chooses the process the container runs. Node 24 runs our TypeScript directly (type stripping);
# --no-node-snapshot is required wherever isolated-vm loads.
set -e
cd /app
role="${1:-all}"
[ $# -gt 0 ] && shift
case "$role" in
  control-plane) exec node --no-node-snapshot --conditions=source control-plane/src/main.ts "$@" ;;
  runtime)       exec node --no-node-snapshot --conditions=source runtime/src/main.ts "$@" ;;
  all)           exec node --no-node-snapshot --conditions=source control-plane/src/main-all.ts "$@" ;;
  *)             exec "$role" "$@" ;;
esac
