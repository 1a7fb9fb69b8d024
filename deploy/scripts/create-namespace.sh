#!/bin/sh
# Creates the namespace and registers the search attributes a2a-temporal sets (idempotent).
set -eu
NAMESPACE=${DEFAULT_NAMESPACE:-default}
ADDRESS=${TEMPORAL_ADDRESS:-temporal:7233}
until temporal operator cluster health --address "$ADDRESS"; do sleep 2; done
temporal operator namespace describe -n "$NAMESPACE" --address "$ADDRESS" >/dev/null 2>&1 \
  || temporal operator namespace create -n "$NAMESPACE" --address "$ADDRESS"
for name in A2aAgent A2aTaskState A2aTaskId ReleaseService ReleasePhase; do
  temporal operator search-attribute create --namespace "$NAMESPACE" --address "$ADDRESS" \
    --name "$name" --type Keyword --yes || true
done
