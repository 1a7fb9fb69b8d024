#!/bin/sh
# Creates the namespace and registers every search attribute a2a-temporal's workflows set
# (workflows/search-attributes.ts; test/unit/deploy keeps the list below equal to it), with
# Temporal's own CLI, for stacks that run temporalio/admin-tools. Idempotent. Exits non-zero,
# saying what failed, when it cannot: a worker would refuse to start in such a namespace anyway.
# `a2a-temporal setup` does the same from the project's image (the compose stack uses it).
set -eu
NAMESPACE=${DEFAULT_NAMESPACE:-default}
ADDRESS=${TEMPORAL_ADDRESS:-temporal:7233}
RETENTION=${NAMESPACE_RETENTION:-72h}
SEARCH_ATTRIBUTES='A2aAgent:Keyword A2aTaskState:Keyword A2aTaskId:Keyword ReleaseService:Keyword ReleasePhase:Keyword'

fail() {
  echo "create-namespace: $*" >&2
  exit 1
}

# Runs "$@"; while it fails with "not found" (a new namespace reaches the frontend's cache
# seconds after it is created), again, for up to 30 s. Prints the error when it gives up.
retry() {
  tries=0
  until out=$("$@" 2>&1); do
    tries=$((tries + 1))
    if [ "$tries" -ge 30 ] || ! printf '%s' "$out" | grep -qi 'not found'; then
      echo "$out" >&2
      return 1
    fi
    sleep 1
  done
}

tries=0
until temporal operator cluster health --address "$ADDRESS" >/dev/null 2>&1; do
  tries=$((tries + 1))
  [ "$tries" -lt 60 ] || fail "no Temporal server answers at $ADDRESS after 2 minutes."
  sleep 2
done

if temporal operator namespace describe --namespace "$NAMESPACE" --address "$ADDRESS" >/dev/null 2>&1; then
  echo "create-namespace: namespace $NAMESPACE exists"
else
  temporal operator namespace create --namespace "$NAMESPACE" --retention "$RETENTION" --address "$ADDRESS" \
    || fail "could not create namespace $NAMESPACE at $ADDRESS (see the error above)."
  echo "create-namespace: created namespace $NAMESPACE (retention $RETENTION)"
fi

for entry in $SEARCH_ATTRIBUTES; do
  name=${entry%%:*}
  type=${entry#*:}
  retry temporal operator search-attribute create --namespace "$NAMESPACE" --address "$ADDRESS" \
    --name "$name" --type "$type" \
    || fail "could not register search attribute $name ($type) in namespace $NAMESPACE (see the error above)."
  echo "create-namespace: search attribute $name ($type) registered"
done
