#!/usr/bin/env bash
# The same RepoUpdated with the plain `nats` CLI: what any CI system without Python can send.
# The Nats-Msg-Id header makes a retried publish a no-op (JetStream de-duplicates it).
set -euo pipefail
repo_url="$1"            # e.g. https://github.com/acme/widgets.git
repo_key="$2"            # from `sextant schema`/`sextant publish` output, e.g. github_com_acme_widgets-d8a067e9
head_sha="$(git rev-parse HEAD)"
run_id="ci-${head_sha}"
nats pub --header "Nats-Msg-Id:repo.updated-${run_id}" "sextant.repo.updated.${repo_key}" "$(cat <<JSON
{"type": "repo.updated", "event_id": "repo.updated-${run_id}", "run_id": "${run_id}",
 "occurred_at": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "repo": {"url": "${repo_url}", "repo_key": "${repo_key}", "provider": "github", "branch": "main"},
 "head_sha": "${head_sha}", "head_commit_date": "$(git log -1 --format=%cI HEAD)"}
JSON
)"
