import { arch, cpus, hostname, loadavg, platform, release, totalmem } from 'node:os';
import { execFileSync } from 'node:child_process';

/** What the numbers were measured on: they only compare within one run on one machine. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  chromium?: string;
  openFilesLimit?: number;
  /** 1-minute load average when the run started and when it ended: above the core count, other work shared the machine. */
  loadAverage: { start: number; end: number };
  hostnameHash: string;
}

const startLoad = loadavg()[0]!;

/** Describes this machine; the host name is only kept as a short hash so results.json stays shareable. */
export function machineInfo(chromiumVersion?: string): MachineInfo {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    ...(chromiumVersion ? { chromium: chromiumVersion } : {}),
    ...openFilesLimit(),
    loadAverage: { start: Math.round(startLoad * 100) / 100, end: Math.round(loadavg()[0]! * 100) / 100 },
    hostnameHash: shortHash(hostname()),
  };
}

/** The soft limit on open files, which bounds how many concurrent streams one process can hold. */
export function openFilesLimit(): { openFilesLimit?: number } {
  try {
    const out = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    const n = Number(out);
    return Number.isFinite(n) ? { openFilesLimit: n } : {};
  } catch {
    return {};
  }
}

function shortHash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0');
}
