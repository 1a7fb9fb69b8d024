/**
 * Temporal's time-skipping test server for the workflow tests with scripted activities
 * (test/workflows/). `TestWorkflowEnvironment.createTimeSkipping()` downloads a native build from
 * Temporal's download site, which our machines cannot reach; the same server ships in the Java
 * SDK as `io.temporal:temporal-test-server` on Maven Central. Maven resolves it with its
 * dependencies (about 33 MB of jars) into `.cache/temporal-test-server/<version>/lib/`, next to a
 * small wrapper script that the SDK starts as `<wrapper> <port>` (`executable: { type:
 * 'existing-path' }`). The JVM is up in about a second, well within the SDK's 5 s.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstCommand, firstLine, run } from '../platform/commands.js';
import { cacheDir } from '../platform/paths.js';

/** The Java SDK release whose test server we run (Maven Central serves it; 1.31.0 runs on Java 17). */
export const TEST_SERVER_VERSION = '1.31.0';
const ARTIFACT = `io.temporal:temporal-test-server:${TEST_SERVER_VERSION}`;

export interface TestServer {
  /** The executable to pass as `executable: { type: 'existing-path', path }`. */
  path: string;
  /** `env`: TEMPORAL_TEST_SERVER_PATH; `cache`: found ready; `maven`: resolved just now. */
  route: 'env' | 'cache' | 'maven';
}

function folder(): string {
  return join(cacheDir, 'temporal-test-server', TEST_SERVER_VERSION);
}

/**
 * The test server's executable: `TEMPORAL_TEST_SERVER_PATH`, else the cached one, else resolved
 * from Maven Central (a few seconds; needs `java` and `mvn`). Idempotent and safe to run from
 * several processes at once (each resolves into a folder of its own, the first rename wins).
 * @throws Error naming what is missing (java, mvn) or the first line of Maven's failure.
 */
export async function ensureTestServer(log: (line: string) => void = () => {}): Promise<TestServer> {
  const fromEnv = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (fromEnv) return { path: fromEnv, route: 'env' };
  const dir = folder();
  const wrapper = join(dir, 'temporal-test-server');
  if (existsSync(wrapper)) return { path: wrapper, route: 'cache' };
  const [java, mvn] = await Promise.all([firstCommand(['java'], ['-version']), firstCommand(['mvn'], ['-v'])]);
  if (!java || !mvn) {
    throw new Error(
      `The workflow tests run Temporal's time-skipping test server (${ARTIFACT}, from Maven Central), which needs ${!java ? 'java (17 or later)' : 'mvn (Maven)'} on the PATH; or set TEMPORAL_TEST_SERVER_PATH to a test server executable.`,
    );
  }
  log(`resolving ${ARTIFACT} with Maven into ${dir}`);
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    writeFileSync(join(tmp, 'pom.xml'), pom());
    await run(
      mvn,
      [
        '-B',
        '-q',
        '-f',
        join(tmp, 'pom.xml'),
        `-Dmaven.repo.local=${join(tmp, 'm2')}`,
        'dependency:copy-dependencies',
        `-DoutputDirectory=${join(tmp, 'lib')}`,
      ],
      { maxBuffer: 16 << 20, timeout: 600_000 },
    );
    if (!readdirSync(join(tmp, 'lib')).some((jar) => jar.startsWith('temporal-test-server-'))) {
      throw new Error(`Maven resolved no temporal-test-server jar into ${join(tmp, 'lib')}`);
    }
    rmSync(join(tmp, 'm2'), { recursive: true, force: true });
    writeFileSync(join(tmp, 'temporal-test-server'), wrapperScript());
    chmodSync(join(tmp, 'temporal-test-server'), 0o755);
    try {
      renameSync(tmp, dir);
    } catch (err) {
      if (!existsSync(wrapper)) throw err; // another process won the race: its copy is as good
    }
    return { path: wrapper, route: 'maven' };
  } catch (err) {
    throw new Error(`Resolving ${ARTIFACT} from Maven Central failed: ${firstLine(err)}`, { cause: err });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A project that depends on the test server alone, for `mvn dependency:copy-dependencies`. */
function pom(): string {
  const [groupId, artifactId, version] = ARTIFACT.split(':');
  return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>a2a-temporal.local</groupId>
  <artifactId>temporal-test-server-jars</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></dependency>
  </dependencies>
</project>
`;
}

/**
 * `temporal-test-server <port> [--enable-time-skipping]`, as the SDK runs it. `exec`, so the
 * SDK's kill reaches the JVM. Tiered compilation stops at C1 and the serial collector is used:
 * the JVM starts faster, which is what short test runs need.
 */
function wrapperScript(): string {
  return `#!/bin/sh
# Temporal's time-skipping test server (${ARTIFACT}), resolved from Maven Central by tooling/temporal-test-server.ts.
lib="$(dirname "$0")/lib"
exec "\${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$lib/*" io.temporal.testserver.TestServer "$@"
`;
}
