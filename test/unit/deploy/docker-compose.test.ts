import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../../platform/paths.js';

interface ComposeService {
  image?: string;
  build?: string | { context: string; dockerfile?: string };
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
}

const compose = parse(readFileSync(join(packageRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = Object.entries(compose.services);

describe('docker-compose.yml', () => {
  it('gives every service an image or a build context that holds a Dockerfile', () => {
    for (const [name, service] of services) {
      if (service.image) {
        expect(service.image, name).toMatch(/^[\w./-]+:[\w.-]+$/); // pinned tag, never implicit latest
        continue;
      }
      const build = typeof service.build === 'string' ? { context: service.build } : service.build;
      expect(build, `${name} has neither image nor build`).toBeDefined();
      expect(existsSync(join(packageRoot, build!.context, build!.dockerfile ?? 'Dockerfile')), name).toBe(true);
    }
  });

  it('copies only paths that exist into the image', () => {
    const dockerfile = readFileSync(join(packageRoot, 'Dockerfile'), 'utf8');
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(join(packageRoot, source)), source).toBe(true);
  });

  it('depends only on services it defines, and mounts folders of this repository', () => {
    for (const [name, service] of services) {
      const deps = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
      for (const dep of deps) expect(compose.services, `${name} depends on ${dep}`).toHaveProperty(dep);
      for (const volume of service.volumes ?? []) {
        const [host] = volume.split(':');
        if (host!.startsWith('./')) expect(existsSync(join(packageRoot, host!)), volume).toBe(true);
      }
    }
    for (const script of ['setup-postgres.sh', 'create-namespace.sh']) {
      accessSync(join(packageRoot, 'deploy', 'scripts', script), constants.X_OK);
    }
  });
});
