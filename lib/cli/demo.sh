#!/bin/sh
# `npm run demo`: the quick start's run command. Installs dependencies on a fresh clone, then
# hands over to demo.ts (sandbox + dashboard on the embedded database).
set -e
cd "$(dirname "$0")/../.."
if [ ! -x node_modules/.bin/node ] || [ ! -d node_modules/next ]; then
  echo "Installing dependencies (npm ci)..."
  npm ci --no-audit --no-fund
fi
PATH="$PWD/node_modules/.bin:$PATH"
export PATH
exec tsx --conditions=react-server lib/cli/demo.ts "$@"
