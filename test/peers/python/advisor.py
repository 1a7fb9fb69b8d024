"""The upgrade advisor's own knowledge, free of any SDK: which dependencies of a package.json
need attention before a service moves to another Node.js major, and the report about them.

A deliberately small rule table (plausible and deterministic, not an authority on these
packages), the same facts as the TypeScript sample agent's, written again here so that this
peer is an agent of its own and not a wrapper around ours.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

RISKS = ('high', 'medium', 'low')

REPORT_ARTIFACT_ID = 'compatibility-report'
REPORT_ARTIFACT_NAME = 'Compatibility report'
SORTED_ARTIFACT_ID = 'sorted-fix-suggestions'
SORTED_ARTIFACT_NAME = 'Fix suggestions by risk'

_NAMED_NODE = re.compile(r'\bnode(?:\.?js)?\s*(?:version\s*)?v?(\d{1,3})(?:\.\d+){0,2}(?!\d)', re.IGNORECASE)
_BARE_NODE = re.compile(r'^\s*v?(\d{1,3})(?:\.\d+){0,2}\s*\.?\s*$')
_FIRST_VERSION = re.compile(r'(\d+)(?:\.(\d+))?(?:\.(\d+))?')


@dataclass(frozen=True)
class Finding:
    name: str
    current: str
    suggested: str
    risk: str
    reason: str


def parse_target_node(text: str, bare: bool = False) -> int | None:
    """The Node.js major a text names ("Node.js 24", "node v22"); a bare "24" only when `bare`."""
    match = _NAMED_NODE.search(text) or (_BARE_NODE.match(text) if bare else None)
    if not match:
        return None
    major = int(match.group(1))
    return major if 0 < major < 100 else None


def looks_like_manifest(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get('dependencies'), dict)


def _lowest(range_text: str) -> tuple[int, int, int] | None:
    """The first version a range names (`^5.0.1` → 5.0.1); None for `latest`, `github:…`."""
    match = _FIRST_VERSION.search(range_text)
    if not match:
        return None
    return tuple(int(part or 0) for part in match.groups())  # type: ignore[return-value]


def _rule(name: str, version: tuple[int, int, int] | None, target: int) -> tuple[str, str, str] | None:
    """(risk, suggested, reason) for one dependency, or None when it needs nothing."""
    if version is None:
        return None
    major = version[0]
    if name == 'node-sass':
        return ('high', 'sass ^1.77.0', f'node-sass is deprecated and publishes no binaries for Node.js {target}.')
    if name == 'bcrypt' and version < (5, 1, 0):
        return ('medium', '^5.1.1', f'bcrypt {major} compiles at install time on Node.js {target} (no prebuilt binary).')
    if name == 'request':
        return ('medium', 'built-in fetch (or undici)', 'request is unmaintained since 2020; Node.js has fetch.')
    if name == 'sharp' and version < (0, 33, 0):
        risk = 'high' if target >= 22 else 'medium'
        return (risk, '^0.33.5', f'this sharp has no prebuilt libvips for Node.js {target}; 0.33 ships Node-API builds.')
    if name == 'sqlite3' and version < (5, 1, 7):
        risk = 'high' if target >= 22 else 'medium'
        return (risk, '^5.1.7', f'this sqlite3 has no prebuilt binary for Node.js {target}; node-gyp would build it.')
    if name == 'jest' and major < 29:
        return ('medium', '^29.7.0', f'jest {major} is out of support and untested on Node.js {target}.')
    if name == 'express' and major < 5:
        return ('low', '^5.1.0', 'express 4 only receives security fixes; express 5 is the maintained line.')
    if name == 'node-fetch' and major < 3 and target >= 18:
        return ('low', 'built-in fetch', f'Node.js {target} has fetch built in; node-fetch 2 is in maintenance mode.')
    if name == '@types/node' and major < target:
        return ('low', f'^{target}.0.0', f'the type definitions describe Node.js {major}, not {target}.')
    return None


def analyse(manifest: dict[str, Any], target: int) -> list[Finding]:
    """Findings in manifest order (dependencies, then devDependencies)."""
    findings: list[Finding] = []
    for section in ('dependencies', 'devDependencies'):
        for name, range_text in (manifest.get(section) or {}).items():
            if not isinstance(range_text, str):
                continue
            verdict = _rule(name, _lowest(range_text), target)
            if verdict:
                risk, suggested, reason = verdict
                findings.append(Finding(name, range_text, suggested, risk, reason))
    return findings


def sort_by_risk(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (RISKS.index(f.risk), f.name))


def as_data(findings: list[Finding]) -> list[dict[str, str]]:
    return [asdict(f) for f in findings]


def findings_from_data(data: Any) -> list[Finding] | None:
    """Reads `{findings: [...]}` back from a report's data part; None when it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get('findings'), list):
        return None
    fields = ('name', 'current', 'suggested', 'risk', 'reason')
    items = data['findings']
    if not all(isinstance(f, dict) and all(isinstance(f.get(k), str) for k in fields) for f in items):
        return None
    return [Finding(**{k: f[k] for k in fields}) for f in items]


def report_chunks(manifest: dict[str, Any], target: int, findings: list[Finding], package_manager: str | None):
    """The report as three chunks of (kind, value) parts: title, findings table, summary + data."""
    service = manifest.get('name') or 'the service'
    count = len(manifest.get('dependencies') or {}) + len(manifest.get('devDependencies') or {})
    heading = f'# Compatibility report: {service} on Node.js {target}\n\nChecked {count} dependencies.\n\n'
    rows = ''.join(f'| {f.name} | {f.current} | {f.suggested} | {f.risk} | {f.reason} |\n' for f in findings)
    table = '## Findings\n\n| Package | Current | Suggested | Risk | Reason |\n| --- | --- | --- | --- | --- |\n' + rows + '\n'
    lines = [f'- {risk.capitalize()} risk: {sum(1 for f in findings if f.risk == risk)}' for risk in RISKS]
    if package_manager:
        lines.append(f'- Package manager: {package_manager}')
    summary = '## Summary\n\n' + '\n'.join(lines) + '\n'
    return [
        [('text', heading)],
        [('text', table)],
        [('text', summary), ('data', {'targetNode': target, 'findings': as_data(findings)})],
    ]


def sorted_suggestions_text(findings: list[Finding]) -> str:
    lines = [f'{i + 1}. **{f.name}** ({f.risk}): {f.current} → {f.suggested}. {f.reason}' for i, f in enumerate(findings)]
    return '# Fix suggestions by risk\n\n' + ('\n'.join(lines) if lines else 'Nothing to fix.') + '\n'
