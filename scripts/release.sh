#!/usr/bin/env bash
# Cuts a release of agate from the current commit: the Action is used as agate-gate/agate@vX,
# which runs the committed dist/, so a tag must point at a commit whose dist/ is what its
# sources build. Tags vX.Y.Z (the version in package.json) and moves the major tag vX to it.
# Publishes nothing: it packs the CLI's npm package (agate-gate, build/npm/) and prints the push
# and `npm publish` commands for a person to run.
#
#   npm run release [-- --dry-run] [-- --skip-tests]
#
# --dry-run     check everything, say what would be tagged, tag nothing
# --skip-tests  leave out `npm test` (typecheck, lint and the freshness check still run)
set -euo pipefail
cd "$(dirname "$0")/.."

dry_run=false
skip_tests=false
for arg in "$@"; do
  case "$arg" in
    --dry-run) dry_run=true ;;
    --skip-tests) skip_tests=true ;;
    *)
      echo "release: unknown option '$arg' (options: --dry-run, --skip-tests)" >&2
      exit 2
      ;;
  esac
done

fail() {
  echo "release: $*" >&2
  exit 1
}

version=$(node -p 'require("./package.json").version')
[[ "$version" =~ ^([0-9]+)\.[0-9]+\.[0-9]+$ ]] ||
  fail "package.json's version '$version' is not X.Y.Z; pre-releases are not cut by this script"
tag="v$version"
major="v${BASH_REMATCH[1]}"

branch=$(git symbolic-ref --quiet --short HEAD || true)
[ "$branch" = "main" ] || fail "releases are cut from main; HEAD is ${branch:-detached}"
# Untracked files count: a file the build or a test needs may be missing from the commit.
dirty=$(git status --porcelain)
[ -z "$dirty" ] || fail "the work tree is not clean; commit or stash first:
$dirty"
if git rev-parse --quiet --verify "refs/tags/$tag" >/dev/null; then
  fail "$tag already exists (at $(git rev-parse --short "$tag^{commit}")); bump version in package.json"
fi
grep -q "^## \[$version\]" CHANGELOG.md ||
  fail "CHANGELOG.md has no '## [$version]' section: move the Unreleased entries under it"

echo "release: checking $tag on $(git rev-parse --short HEAD)"
npm run -s typecheck
npm run -s lint
# Builds dist/ and the JSON Schemas and fails when they differ from the committed ones.
bash scripts/check-generated.sh
if [ "$skip_tests" = false ]; then npm test; fi
# The build or the tests must not have left anything behind either.
dirty=$(git status --porcelain)
[ -z "$dirty" ] || fail "the checks changed the work tree:
$dirty"

# Packed before anything is tagged, and in a dry run too: a failure here leaves no tag behind.
# The npm package agate-gate is the CLI bundle alone (scripts/pack-cli.ts), not this repository.
tarball=$(npx tsx scripts/pack-cli.ts build/npm)
[ -f "$tarball" ] || fail "scripts/pack-cli.ts made no tarball (it printed '$tarball')"
echo "release: packed $tarball"

head=$(git rev-parse HEAD)
if [ "$dry_run" = true ]; then
  echo "release: dry run: would tag $tag and move $major to $head"
  exit 0
fi
git tag --annotate "$tag" --message "agate $version" "$head"
# The major tag moves with every release of that major version: what `uses: ...@$major` runs.
git tag --force "$major" "$head" >/dev/null
echo "release: tagged $tag and moved $major to $head. To publish:"
echo "  git push origin $tag"
echo "  git push --force origin $major"
echo "  npm publish $tarball"
