/** CPU time of processes from /proc (Linux), in seconds: what a delegation costs each part of the stack. */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the unit of /proc/<pid>/stat's times, 100 on every Linux architecture the project runs on. */
const TICKS_PER_S = 100;

/** The fields of /proc/<pid>/stat after the command name (whose parentheses may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process has ended
  }
}

/**
 * User + system CPU seconds of `pid`, and, with `tree`, of its children that have ended and
 * been waited for (cutime, cstime) and of its descendants alive now (PostgreSQL's backends).
 */
export function cpuSeconds(pid: number, tree = false): number {
  const f = statFields(pid);
  if (!f) return Number.NaN;
  // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  let ticks = Number(f[11]) + Number(f[12]);
  if (tree) {
    ticks += Number(f[13]) + Number(f[14]);
    for (const child of descendants(pid)) {
      const c = statFields(child);
      if (c) ticks += Number(c[11]) + Number(c[12]);
    }
  }
  return ticks / TICKS_PER_S;
}

function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (f) parentOf.set(Number(entry), Number(f[1]));
  }
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parentOf)
      if (ppid === parent) {
        found.push(pid);
        frontier.push(pid);
      }
  }
  return found;
}
