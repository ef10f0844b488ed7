#!/bin/sh
# The container's entrypoint: runs one of the three processes in the foreground (exec, so it gets
# the signals), and tells the health check where that process answers.
set -eu
case "${1:-portal}" in
  portal)
    echo "http://127.0.0.1:${PORT}/healthz" > /tmp/healthz-url
    exec node --initial-old-space-size=96 build/services/portal.mjs ;;
  client-portal)
    echo "http://127.0.0.1:${CLIENT_PORTAL_PORT}/healthz" > /tmp/healthz-url
    exec node build/services/client-portal.mjs ;;
  data-api)
    echo "http://127.0.0.1:${DATA_API_PORT}/healthz" > /tmp/healthz-url
    exec node --max-semi-space-size=4 build/services/data-api.mjs ;;
  *)
    exec "$@" ;;
esac
