import { compareVersions, parseVersion, type Version } from '../shared/version-range.js';
import type { Finding } from './analysis.js';

/** What a rule sees: one declared dependency and the target runtime. */
export interface RuleInput {
  name: string;
  /** The range as declared in the manifest, e.g. `^7.0.3`. */
  range: string;
  /** The lowest version the range admits; undefined for non-semver specs (`github:…`, `latest`). */
  version: Version | undefined;
  targetNode: number;
}

export type Verdict = Pick<Finding, 'suggested' | 'risk' | 'reason'>;

/** One package's compatibility verdict as a function of its declared version and the target Node.js major. */
export interface CompatibilityRule {
  packageName: string;
  /** @returns undefined when the dependency needs nothing for this target. */
  check(input: RuleInput): Verdict | undefined;
}

function below(version: Version | undefined, bound: string): boolean {
  const limit = parseVersion(bound);
  return version !== undefined && limit !== undefined && compareVersions(version, limit) < 0;
}

/** The rule table (a sample: plausible, deterministic, not an authority on these packages). */
export const COMPATIBILITY_RULES: readonly CompatibilityRule[] = [
  {
    packageName: 'node-sass',
    check: ({ range, version, targetNode: t }: RuleInput): Verdict | undefined => {
      if (t >= 21) {
        return {
          risk: 'high',
          suggested: 'sass ^1.77.0',
          reason: `node-sass is deprecated and publishes no binaries for Node.js ${t}; the install falls back to node-gyp and fails. Migrate to sass (Dart Sass).`,
        };
      }
      const needed = t >= 20 ? 9 : t >= 18 ? 8 : 6;
      if (version === undefined || version.major < needed) {
        return {
          risk: 'high',
          suggested: `^${needed}.0.0 (or sass ^1.77.0)`,
          reason: `node-sass ${range} has no binaries for Node.js ${t}; support starts with node-sass ${needed}.`,
        };
      }
      return {
        risk: 'low',
        suggested: 'sass ^1.77.0',
        reason: 'node-sass is deprecated; plan the move to sass (Dart Sass).',
      };
    },
  },
  {
    packageName: 'bcrypt',
    check: ({ range, version, targetNode: t }: RuleInput): Verdict | undefined =>
      below(version, '5.1.0')
        ? {
            risk: 'medium',
            suggested: '^5.1.1',
            reason: `bcrypt ${range} is a native addon without prebuilt binaries for Node.js ${t}: it compiles at install time (Python and a C++ toolchain needed) and must be rebuilt for the new ABI.`,
          }
        : undefined,
  },
  {
    packageName: 'request',
    check: ({ targetNode: t }: RuleInput): Verdict | undefined =>
      t >= 18
        ? {
            risk: 'medium',
            suggested: 'built-in fetch (or undici)',
            reason: `request is deprecated and unmaintained since 2020 and relies on url.parse() and other legacy APIs; Node.js ${t} ships fetch.`,
          }
        : {
            risk: 'low',
            suggested: 'undici',
            reason: 'request is deprecated and unmaintained since 2020; plan a replacement.',
          },
  },
  {
    packageName: 'jest',
    check: ({ version, targetNode: t }: RuleInput): Verdict | undefined => {
      if (version === undefined) return undefined;
      if (version.major < 29) {
        return {
          risk: 'medium',
          suggested: '^29.7.0',
          reason: `jest ${version.major} is out of support and not tested on Node.js ${t}; upgrade to jest 29 or later before switching the runtime.`,
        };
      }
      if (version.major === 29 && t >= 24) {
        return {
          risk: 'low',
          suggested: '^30.0.0',
          reason: `jest 29 predates Node.js ${t}; jest 30 is the line tested on it.`,
        };
      }
      return undefined;
    },
  },
  {
    packageName: 'express',
    check: ({ version, targetNode: t }: RuleInput): Verdict | undefined => {
      if (version === undefined || version.major >= 5) return undefined;
      if (version.major < 4) {
        return {
          risk: 'high',
          suggested: '^5.1.0',
          reason: `express ${version.major} is end-of-life and untested on Node.js ${t}.`,
        };
      }
      return {
        risk: 'low',
        suggested: '^5.1.0',
        reason: `express 4 runs on Node.js ${t} but only receives security fixes; express 5 is the maintained line (review path patterns and async error handling when moving).`,
      };
    },
  },
  {
    packageName: 'sharp',
    check: ({ range, version, targetNode: t }: RuleInput): Verdict | undefined => {
      if (!below(version, '0.33.0')) return undefined;
      return t >= 22
        ? {
            risk: 'high',
            suggested: '^0.33.5',
            reason: `sharp ${range} has no prebuilt libvips binaries for Node.js ${t}; the install tries to compile libvips from source and usually fails. 0.33 ships Node-API builds.`,
          }
        : {
            risk: 'medium',
            suggested: '^0.33.5',
            reason: `sharp ${range} ships binaries per Node.js ABI and must be reinstalled for Node.js ${t}; 0.33 switched to Node-API builds.`,
          };
    },
  },
  {
    packageName: 'sqlite3',
    check: ({ range, version, targetNode: t }: RuleInput): Verdict | undefined => {
      if (!below(version, '5.1.7')) return undefined;
      return {
        risk: t >= 22 ? 'high' : 'medium',
        suggested: '^5.1.7',
        reason: `sqlite3 ${range} publishes no prebuilt binary for Node.js ${t}; npm falls back to a node-gyp build that needs Python and a C++ toolchain.`,
      };
    },
  },
  {
    // Pure JavaScript without engine constraints: compatible with every supported Node.js.
    packageName: 'lodash',
    check: () => undefined,
  },
  {
    packageName: 'node-fetch',
    check: ({ version, targetNode: t }: RuleInput): Verdict | undefined => {
      if (version === undefined || version.major >= 3 || t < 18) return undefined;
      return {
        risk: 'low',
        suggested: 'built-in fetch',
        reason:
          t >= 21
            ? `node-fetch 2 depends on the punycode module, which prints a deprecation warning (DEP0040) on Node.js 21 and later; Node.js ${t} has fetch built in.`
            : `Node.js ${t} has fetch built in; node-fetch 2 is in maintenance mode.`,
      };
    },
  },
  {
    packageName: '@types/node',
    check: ({ version, targetNode: t }: RuleInput): Verdict | undefined =>
      version !== undefined && version.major < t
        ? {
            risk: 'low',
            suggested: `^${t}.0.0`,
            reason: `the type definitions describe Node.js ${version.major}; APIs added up to Node.js ${t} are missing and removed ones still type-check.`,
          }
        : undefined,
  },
  {
    packageName: 'fibers',
    check: ({ targetNode: t }: RuleInput): Verdict | undefined =>
      t >= 16
        ? {
            risk: 'high',
            suggested: 'remove it (use async/await)',
            reason: 'fibers does not build on Node.js 16 or later and is abandoned.',
          }
        : undefined,
  },
];
