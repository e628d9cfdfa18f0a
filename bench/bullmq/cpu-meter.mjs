import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the suite runs on

/**
 * CPU seconds (user + system) of this process as "client" (process.cpuUsage) and of named processes (/proc/PID/stat):
 * a snapshot before a phase and one after give what each spent on it. A process that is gone reads as 0.
 */
export class CpuMeter {
  /** @param {Map<string, number>} otherPids name to pid, in the order the results list them */
  constructor(otherPids) {
    this.pids = otherPids;
  }

  snapshot() {
    const usage = process.cpuUsage();
    const seconds = { client: (usage.user + usage.system) / 1e6 };
    for (const [name, pid] of this.pids) {
      seconds[name] = cpuSecondsOf(pid);
    }
    return seconds;
  }

  static since(before, after) {
    const spent = {};
    for (const [name, start] of Object.entries(before)) {
      spent[name] = (after[name] ?? start) - start;
    }
    return spent;
  }
}

function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name, which is in parentheses and may hold spaces: utime is field 14, stime 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
