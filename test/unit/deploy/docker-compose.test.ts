import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../../platform/paths.js';
import { CLI_TYPE_NAME } from '../../../platform/search-attributes-setup.js';
import { searchAttributeKeys } from '../../../contract/search-attributes.js';

interface ComposeService {
  image?: string;
  build?: string | { context: string; dockerfile?: string };
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  restart?: string;
  command?: string[] | string;
  environment?: Record<string, string>;
  pull_policy?: string;
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

  const dockerfile = readFileSync(join(packageRoot, 'Dockerfile'), 'utf8');
  const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));

  it('copies only paths that exist into the image', () => {
    expect(copied.length).toBeGreaterThan(0);
    for (const source of copied) expect(existsSync(join(packageRoot, source)), source).toBe(true);
  });

  it('copies every folder the build compiles', () => {
    const build = JSON.parse(readFileSync(join(packageRoot, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
    expect(copied).toEqual(expect.arrayContaining(build.include));
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

  it('builds one image of ours, once, and runs the worker, the agents, setup and the CLI from it', () => {
    const built = services.filter(([, service]) => service.build);
    expect(built.map(([name]) => name)).toEqual(['worker']);
    const ours = built[0]![1].image!;
    for (const name of ['worker', 'agents', 'temporal-setup', 'cli', 'codec-server']) {
      expect(compose.services[name]!.image, name).toBe(ours);
      if (name !== 'worker') expect(compose.services[name]!.pull_policy, name).toBe('never');
    }
    expect(compose.services['temporal-setup']!.command).toEqual(['setup']);
  });

  it('restarts the long-running services and points the CLI at the UI the stack serves', () => {
    for (const name of ['postgresql', 'temporal', 'temporal-ui', 'agents', 'worker']) {
      expect(compose.services[name]!.restart, name).toBe('unless-stopped');
    }
    const uiPort = (compose.services['temporal-ui'] as { ports: string[] }).ports[0]!.split(':')[0];
    for (const name of ['worker', 'cli', 'temporal-setup']) {
      expect(compose.services[name]!.environment?.A2A_TEMPORAL_UI_URL, name).toBe(`http://localhost:${uiPort}`);
    }
  });

  it('shares one blob store between the worker, the CLI and the codec server the UI decodes with', () => {
    for (const name of ['worker', 'cli', 'codec-server']) {
      const service = compose.services[name]!;
      expect(service.volumes, name).toContain(`blobs:${service.environment?.A2A_BLOB_DIR}`);
    }
    const published = (compose.services['codec-server'] as { ports: string[] }).ports[0]!;
    expect(published).toMatch(/^127\.0\.0\.1:8081:/); // the host's loopback only
    expect(compose.services['temporal-ui']!.environment?.TEMPORAL_CODEC_ENDPOINT).toMatch(/^http:\/\/localhost:8081\//);
  });

  it('runs the Temporal server from deploy/temporal-server.yaml, the config the cluster test runs', () => {
    const temporal = compose.services.temporal!;
    const mount = temporal.volumes!.find((v) => v.startsWith('./deploy:'))!.split(':')[1]!;
    expect(temporal.environment?.TEMPORAL_SERVER_CONFIG_FILE_PATH).toBe(`${mount}/temporal-server.yaml`);
    expect(temporal.environment?.DYNAMIC_CONFIG_FILE_PATH).toBe(`${mount}/dynamicconfig/development-sql.yaml`);
    // The server version the cluster test builds (test/cluster/harness/binaries.ts) is the image's.
    const binaries = readFileSync(join(packageRoot, 'test', 'cluster', 'harness', 'binaries.ts'), 'utf8');
    const version = /TEMPORAL_SERVER_VERSION = 'v([\d.]+)'/.exec(binaries)![1];
    expect(temporal.image).toBe(`temporalio/server:${version}`);
  });

  it('builds the image on a maintained Node line, with the workflows bundled, running as a user without privileges', () => {
    const dockerfile = readFileSync(join(packageRoot, 'Dockerfile'), 'utf8');
    const majors = [...dockerfile.matchAll(/^FROM node:(\d+)/gm)].map((m) => Number(m[1]));
    expect(majors.length).toBeGreaterThan(0);
    for (const major of majors) expect(major).toBeGreaterThanOrEqual(22); // Node 20 left maintenance in April 2026
    const user = [...dockerfile.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
    expect(user.at(-1)).toBeDefined();
    expect(user.at(-1)).not.toMatch(/^(root|0)$/);
    const bundle = /A2A_WORKFLOW_BUNDLE=(\S+)/.exec(dockerfile)?.[1];
    expect(bundle).toBeDefined();
    expect(dockerfile).toContain(`node dist/worker/write-workflow-bundle.js ${bundle}`);
  });

  it('has the namespace script register exactly the search attributes the workflows set', () => {
    const script = readFileSync(join(packageRoot, 'deploy', 'scripts', 'create-namespace.sh'), 'utf8');
    const listed = /^SEARCH_ATTRIBUTES='([^']*)'/m.exec(script)![1]!.split(/\s+/);
    expect(listed).toEqual(searchAttributeKeys.map((key) => `${key.name}:${CLI_TYPE_NAME[key.type]}`));
    expect(script).not.toMatch(/--yes|\|\| true/);
  });
});
