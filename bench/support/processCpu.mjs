// CPU time a process (the shop under load) used, read from /proc/PID/stat: a figure another program on the same
// cores does not skew, unlike requests per second. Linux only; elsewhere the figure is left out (null).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond = null;

/** CPU milliseconds (user + system, all threads) process `pid` has used so far, or null where /proc is missing. */
export function processCpuMs(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  // utime and stime are the 14th and 15th fields, counted after the command name (which may hold spaces).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
