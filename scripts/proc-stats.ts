// What Linux's /proc says of a process, for the benchmarks and the image check: parent, process group, CPU time.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const clockTicksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

// The fields after the command name (which may hold spaces): [1] parent, [2] process group, [11] utime, [12] stime.
function statFields(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return null;
  }
}

export function processIds(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

// 0 when the process is gone.
export function parentOf(pid: number): number {
  return Number(statFields(pid)?.[1] ?? 0);
}

// CPU ms (utime + stime) of the given processes; a process gone meanwhile counts as 0.
export function processCpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / clockTicksPerSecond;
}

// CPU ms the whole machine spent busy (every core: user, nice, system, irq, softirq, steal), from /proc/stat.
export function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n", 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / clockTicksPerSecond;
}

// A server started by startService (detached) and whatever it forks stay in its process group.
export function processGroup(groupId: number): number[] {
  return processIds().filter((pid) => Number(statFields(pid)?.[2]) === groupId);
}

// Processes whose command line names the given script (a child started by the bench, say).
export function processesRunning(script: string): number[] {
  return processIds().filter((pid) => {
    try {
      return pid !== process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(script);
    } catch {
      return false;
    }
  });
}
