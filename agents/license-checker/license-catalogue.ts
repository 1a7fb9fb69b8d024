/**
 * The license checker's offline knowledge (a sample, not an authority): SPDX licenses of common
 * packages and releases known to have been compromised or sabotaged.
 */
export const LICENSES: Readonly<Record<string, string>> = {
  '@types/node': 'MIT',
  axios: 'MIT',
  bcrypt: 'MIT',
  colors: 'MIT',
  dotenv: 'BSD-2-Clause',
  'event-stream': 'MIT',
  express: 'MIT',
  'ffmpeg-static': 'GPL-3.0-or-later',
  fibers: 'MIT',
  hyperformula: 'GPL-3.0-only',
  jest: 'MIT',
  lodash: 'MIT',
  'node-fetch': 'MIT',
  'node-sass': 'MIT',
  pg: 'MIT',
  request: 'Apache-2.0',
  sharp: 'Apache-2.0',
  sqlite3: 'BSD-3-Clause',
  stripe: 'MIT',
  typescript: 'Apache-2.0',
  'ua-parser-js': 'MIT',
  uuid: 'MIT',
};

export interface CompromisedRelease {
  packageName: string;
  versions: readonly string[];
  incident: string;
}

export const COMPROMISED_RELEASES: readonly CompromisedRelease[] = [
  {
    packageName: 'event-stream',
    versions: ['3.3.6'],
    incident: 'ships the malicious flatmap-stream dependency (2018)',
  },
  {
    packageName: 'ua-parser-js',
    versions: ['0.7.29', '0.8.0', '1.0.0'],
    incident: 'hijacked release installing a cryptominer and password stealer (2021)',
  },
  {
    packageName: 'coa',
    versions: ['2.0.3', '2.0.4', '2.1.1', '2.1.3', '3.0.1', '3.1.3'],
    incident: 'hijacked release with a password-stealing install script (2021)',
  },
  {
    packageName: 'rc',
    versions: ['1.2.9', '1.3.9', '2.3.9'],
    incident: 'hijacked release with a password-stealing install script (2021)',
  },
  {
    packageName: 'colors',
    versions: ['1.4.1', '1.4.2'],
    incident: 'sabotaged by its author: prints garbage in an endless loop (2022)',
  },
  {
    packageName: 'node-ipc',
    versions: ['10.1.1', '10.1.2'],
    incident: 'protestware that overwrites files on some hosts (2022)',
  },
];
