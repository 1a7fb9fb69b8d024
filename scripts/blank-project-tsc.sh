#!/usr/bin/env bash
# What a2a-temporal costs a user's `tsc`: packs the package at each git ref given (default: HEAD),
# installs it into a blank strict NodeNext project beside the Temporal SDK, and times
# `tsc --noEmit` over a workflows file that calls delegateTo and a worker file that uses the
# plugin, with and without skipLibCheck, against the same project importing only the SDK.
# Runs are interleaved across refs so that a busy machine slows all of them alike.
#   bash scripts/blank-project-tsc.sh a0b6503 HEAD
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
refs=("${@:-HEAD}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tsc_flags=(--noEmit --target ES2022 --module NodeNext --moduleResolution NodeNext --strict)

for ref in "${refs[@]}"; do
  dir="$work/$ref"
  git -C "$root" worktree add --detach --quiet "$dir/src" "$ref"
  ln -s "$root/node_modules" "$dir/src/node_modules"
  (cd "$dir/src" && npm pack --silent --pack-destination "$dir" >/dev/null 2>&1)
  rm "$dir/src/node_modules"
  git -C "$root" worktree remove --force "$dir/src"
  mkdir -p "$dir/project" && cd "$dir/project"
  echo '{ "name": "blank", "private": true, "type": "module" }' >package.json
  # Before 0.2 the README said `export *`; both register delegate, which is what is timed.
  cat >workflows.ts <<'TS'
export { delegate } from 'a2a-temporal/workflows';
import { delegateTo } from 'a2a-temporal/workflows';
export async function upgrade(): Promise<string> {
  const result = await delegateTo({ agent: 'compat', text: 'Check for Node.js 24' });
  return result.taskId ?? '';
}
TS
  cat >worker.ts <<'TS'
import { Worker } from '@temporalio/worker';
import { a2aTemporalPlugin, loadAgentRegistry } from 'a2a-temporal';
export const start = (): Promise<Worker> =>
  Worker.create({ taskQueue: 'q', workflowsPath: './workflows.js', plugins: [a2aTemporalPlugin({ registry: loadAgentRegistry('agents.json') })] });
TS
  cat >sdk-only.ts <<'TS'
import { Worker } from '@temporalio/worker';
import { proxyActivities } from '@temporalio/workflow';
export const used = [Worker, proxyActivities];
TS
  tsv=$(node -p "require('$root/node_modules/typescript/package.json').version")
  sdk=$(node -p "require('$root/node_modules/@temporalio/worker/package.json').version")
  npm install --silent --prefer-offline --no-audit --no-fund "$dir"/*.tgz "typescript@$tsv" "@temporalio/worker@$sdk" "@temporalio/workflow@$sdk" >/dev/null 2>&1
  echo "$ref: tarball $(du -b "$dir"/*.tgz | cut -f1) B, .d.ts $(find node_modules/a2a-temporal/dist -name '*.d.ts' -print0 | du -cb --files0-from=- | tail -1 | cut -f1) B"
done

time_tsc() { local s e; s=$(date +%s.%N); npx tsc "${tsc_flags[@]}" "$@" >/dev/null || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
for run in 1 2 3; do
  for ref in "${refs[@]}"; do
    cd "$work/$ref/project"
    echo "$ref run $run: sdk only $(time_tsc --skipLibCheck sdk-only.ts) s, with a2a-temporal $(time_tsc --skipLibCheck workflows.ts worker.ts) s (skipLibCheck); sdk only $(time_tsc sdk-only.ts) s, with a2a-temporal $(time_tsc workflows.ts worker.ts) s (full check)"
  done
done
