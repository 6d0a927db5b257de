/** Memory of a child process, from /proc, and a sampler that keeps its peak. */
import { readFileSync } from 'node:fs';

/** Resident memory (total, and anonymous = heap + native allocations), MB. */
export function rss(pid: number): { totalMb: number; anonMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { totalMb: kb('VmRSS') / 1024, anonMb: kb('RssAnon') / 1024 };
}

/** Samples `pid` every `everyMs` until stopped; `peak` holds the largest sample so far. */
export function rssSampler(pid: number, everyMs = 200) {
  const peak = { totalMb: 0, anonMb: 0 };
  const sample = () => {
    try {
      const m = rss(pid);
      peak.totalMb = Math.max(peak.totalMb, m.totalMb);
      peak.anonMb = Math.max(peak.anonMb, m.anonMb);
    } catch {
      // the process has exited
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return { peak, sample, stop: () => clearInterval(timer) };
}
