/** The machine a run was measured on (figures only compare within one run, but they get read later). */
import { cpus, loadavg, release, totalmem } from 'node:os';
import { round } from './stats.js';

export interface Machine {
  cores: number;
  cpu_model: string;
  memory_gb: number;
  node: string;
  kernel: string;
  temporal_cli: string;
  /** 1-minute load average at the start and the end (other processes share the machine). */
  load_avg_start: number;
  load_avg_end?: number;
  wall_time_s?: number;
}

export function describeMachine(temporalCli: string): Machine {
  return {
    cores: cpus().length,
    cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
    memory_gb: round(totalmem() / 1024 ** 3),
    node: process.version,
    kernel: release(),
    temporal_cli: temporalCli.replace(/^temporal version /, ''),
    load_avg_start: round(loadavg()[0] ?? 0, 2),
  };
}

export function finishMachine(machine: Machine, wallTimeMs: number): Machine {
  return { ...machine, load_avg_end: round(loadavg()[0] ?? 0, 2), wall_time_s: round(wallTimeMs / 1000) };
}
