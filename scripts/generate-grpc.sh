#!/usr/bin/env bash
# Regenerates a2a/grpc/gen/ (TypeScript for the gRPC binding) from the vendored protos in
# a2a/grpc/proto/, with buf and protoc-gen-es from node_modules (no remote plugins, no network).
# test/unit/a2a/grpc/generated-code.test.ts fails when gen/ and the protos disagree.
set -euo pipefail
cd "$(dirname "$0")/../a2a/grpc"
../../node_modules/.bin/buf generate "$@"
