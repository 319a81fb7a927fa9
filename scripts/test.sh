#!/bin/sh
# `npm test`: the quick start's test command. On a fresh clone it installs what the tests
# need (npm packages; as root, Debian's chromium-headless-shell, postgresql, nginx and pgbouncer), then runs test.ts.
set -e
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/node ] || [ ! -d node_modules/next ]; then
  echo "Installing dependencies (npm ci)..."
  npm ci --no-audit --no-fund
fi
missing=""
# Playwright runs Debian's headless shell when installed (a quarter less CPU), else the full browser.
headless_shell=/usr/lib/chromium/chromium-headless-shell
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || missing="$missing chromium-headless-shell"
elif [ ! -x "$headless_shell" ] && { [ "$(id -u)" = 0 ] || [ ! -x /usr/bin/chromium ]; }; then
  missing="$missing chromium-headless-shell"
fi
command -v pg_ctlcluster >/dev/null 2>&1 || [ -n "${TEST_DATABASE_ADMIN_URL:-}" ] || missing="$missing postgresql"
# The cluster end-to-end run puts nginx in front of the instances and PgBouncer behind them (scripts/cluster-topology.ts).
[ -x "${NGINX_PATH:-/usr/sbin/nginx}" ] || missing="$missing nginx"
[ -x "${PGBOUNCER_PATH:-/usr/sbin/pgbouncer}" ] || missing="$missing pgbouncer"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing system packages:$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  else
    echo "The tests need:$missing. Install with: sudo apt-get install -y$missing" >&2
    exit 1
  fi
fi
PATH="$PWD/node_modules/.bin:$PATH"
export PATH
exec tsx --conditions=react-server scripts/test.ts "$@"
