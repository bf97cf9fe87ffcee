#!/usr/bin/env bash
# Fails when the committed Action bundle, JSON Schemas or summaries gallery differ from what the
# sources make: the Action runs dist/, not the sources; editors read the committed schema; and
# docs/summaries.md is how a change to what people read gets reviewed.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s build:action
npm run -s schema >/dev/null
npm run -s summaries >/dev/null
changed=$(git status --porcelain -- dist schemas/*.schema.json docs/summaries.md)
if [ -n "$changed" ]; then
  echo "dist/, schemas/*.schema.json or docs/summaries.md differ from what the build makes:" >&2
  echo "$changed" >&2
  echo "Run 'npm run build:action && npm run schema && npm run summaries' and commit the result." >&2
  exit 1
fi
echo "dist/, schemas/*.schema.json and docs/summaries.md are fresh."
