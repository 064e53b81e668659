#!/usr/bin/env bash
# The same RepoUpdated sent with the plain `nats` CLI (e.g. from a runner that already has it).
# The publisher computes subject, headers and body (`--dry-run` publishes nothing), so the repo key
# and the de-duplication id are exactly what Sextant computes; `nats pub` only carries them.
# Usage: publish-with-nats-cli.sh https://github.com/acme/widgets.git main
set -euo pipefail
repo_url="$1"
branch="$2"
head_sha="$(git rev-parse HEAD)"
message="$(sextant-publish repo-updated "$repo_url" --provider github --branch "$branch" \
  --head-sha "$head_sha" --head-commit-date "$(git log -1 --format=%cI HEAD)" --dry-run)"
subject="$(jq -r .subject <<<"$message")"
msg_id="$(jq -r '.headers["Nats-Msg-Id"]' <<<"$message")"
event_type="$(jq -r '.headers["Sextant-Event-Type"]' <<<"$message")"
run_id="$(jq -r '.headers["Sextant-Run-Id"]' <<<"$message")"
nats pub --header "Nats-Msg-Id:${msg_id}" --header "Sextant-Event-Type:${event_type}" \
  --header "Sextant-Run-Id:${run_id}" "$subject" "$(jq -c .body <<<"$message")"
