#!/usr/bin/env bash
# Publish the RepoUpdated for one push: what the GitHub workflow beside this file runs, usable from
# any CI. Needs the repository checked out with the whole pushed range (fetch-depth: 0) and:
#   REPO_URL   https://github.com/acme/widgets.git (no credentials: tokens go in GITHUB_TOKEN & co)
#   BRANCH     the pushed branch
#   BEFORE     the commit the branch pointed at before the push (all zeros for a new branch)
#   AFTER      the pushed head commit
#   FORCED     "true" for a forced push
#   PROVIDER   github, gitlab, bitbucket or generic (default generic)
#   NATS_URL   and any NATS credentials (NATS_USER/NATS_PASSWORD, NATS_TOKEN, NATS_CREDS, ...)
# SEXTANT_PUBLISH overrides the publisher command; PUBLISH_ARGS adds flags (e.g. --dry-run).
set -euo pipefail
publish="${SEXTANT_PUBLISH:-sextant-publish}"
zeros="0000000000000000000000000000000000000000"
common=(repo-updated "$REPO_URL" --provider "${PROVIDER:-generic}" --branch "$BRANCH"
        --head-sha "$AFTER" --head-commit-date "$(git log -1 --format=%cI "$AFTER")")

# Every commit of the push counts, not just the last one: diff the whole range BEFORE..AFTER. A new
# branch, a forced push (BEFORE is no ancestor of AFTER) or a BEFORE this clone lacks means the
# range says nothing reliable, so Sextant gets a full run (unchanged files are skipped anyway).
if [[ "$BEFORE" == "$zeros" || "${FORCED:-false}" == "true" ]] \
   || ! git cat-file -e "${BEFORE}^{commit}" 2>/dev/null \
   || ! git merge-base --is-ancestor "$BEFORE" "$AFTER"; then
  echo "sextant: full run (new branch, forced push or unknown previous head)" >&2
  exec "$publish" "${common[@]}" ${PUBLISH_ARGS:-}
fi
changes="$(mktemp)"
trap 'rm -f "$changes"' EXIT
# -z keeps every file name intact (newlines included); renames become a removal and an addition.
git diff --name-status --no-renames -z "$BEFORE" "$AFTER" > "$changes"
"$publish" "${common[@]}" --paths-from "$changes" ${PUBLISH_ARGS:-}
