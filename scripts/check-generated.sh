#!/usr/bin/env bash
# Fails when the committed Action bundle or JSON Schemas differ from what the sources make:
# the Action runs dist/, not the sources, and editors read the committed schema.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s build:action
npm run -s schema >/dev/null
changed=$(git status --porcelain -- dist schemas/*.schema.json)
if [ -n "$changed" ]; then
  echo "dist/ or schemas/*.schema.json differ from what the build makes:" >&2
  echo "$changed" >&2
  echo "Run 'npm run build:action && npm run schema' and commit the result." >&2
  exit 1
fi
echo "dist/ and schemas/*.schema.json are fresh."
