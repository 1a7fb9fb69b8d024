/**
 * The gRPC binding's code is generated from pinned protos: a changed proto (not the pinned
 * release) or generated code that is not what the protos give (edited by hand, or a proto
 * changed without `npm run generate:grpc`) fails here.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../../platform/paths.js';

const GRPC_DIR = join(packageRoot, 'a2a', 'grpc');
const PROTO_DIR = join(GRPC_DIR, 'proto');
const scratch = mkdtempSync(join(tmpdir(), 'a2a-grpc-gen-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the gRPC binding code', () => {
  it('is generated from the protos pinned in a2a/grpc/proto/README.md', () => {
    const readme = readFileSync(join(PROTO_DIR, 'README.md'), 'utf8');
    const pinned = new Map([...readme.matchAll(/^([0-9a-f]{64}) {2}(\S+\.proto)$/gm)].map((m) => [m[2]!, m[1]!]));
    const protos = filesUnder(PROTO_DIR).filter((f) => f.endsWith('.proto'));
    expect(protos.map((f) => relative(PROTO_DIR, f)).sort()).toEqual([...pinned.keys()].sort());
    for (const file of protos) {
      const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
      expect(hash, relative(PROTO_DIR, file)).toBe(pinned.get(relative(PROTO_DIR, file)));
    }
  });

  it('is exactly what buf and protoc-gen-es generate from them', async () => {
    await promisify(execFile)(join(packageRoot, 'scripts', 'generate-grpc.sh'), ['-o', scratch], { cwd: packageRoot });
    const committed = join(GRPC_DIR, 'gen');
    const fresh = join(scratch, 'gen');
    const names = (dir: string) =>
      filesUnder(dir)
        .map((f) => relative(dir, f))
        .sort();
    expect(names(committed)).toEqual(names(fresh));
    for (const name of names(fresh)) {
      expect(readFileSync(join(committed, name), 'utf8'), name).toBe(readFileSync(join(fresh, name), 'utf8'));
    }
  }, 60_000);
});
