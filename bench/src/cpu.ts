import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time spent by the bench client, the server process, the Postgres cluster and the whole
 * machine (Linux /proc; zero where unreadable), to tell what a search costs and who else was busy.
 */
export interface CpuSample {
  at: number;
  clientMs: number;
  serverMs: number;
  postgresMs: number;
  machineBusyMs: number;
  machineTotalMs: number;
}

export interface CpuUse {
  clientMs: number;
  serverMs: number;
  postgresMs: number;
  /** Busy CPU time of every process on the machine, ours included. */
  machineBusyMs: number;
  /** CPUs × elapsed time. */
  machineTotalMs: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

function processMs(pid: number, withChildren = false): number {
  try {
    // Fields after the command name, which may contain spaces: state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const children = withChildren ? Number(fields[13]) + Number(fields[14]) : 0;
    return (ticks + children) * TICK_MS;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The process's command line, its arguments joined by spaces ('' where unreadable). */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every process whose parent is another in the list: pid → its children. */
function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return children;
  }
  for (const p of pids) {
    const pid = Number(p);
    const parent = parentOf(pid);
    if (parent > 0) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  return children;
}

/** The processes started by `pid`, their children and so on (Linux /proc; none where unreadable). */
export function descendantsOf(pid: number): number[] {
  if (pid <= 0) return [];
  const children = childrenByParent();
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/** When the process started (clock ticks since boot), to tell it from a later one given the same pid. */
export function startTimeOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return -1;
  }
}

/** A process and every process under it: the split topology's launcher and its service processes. */
function treeMs(root: number): number {
  if (root <= 0) return 0;
  return [root, ...descendantsOf(root)].reduce((sum, pid) => sum + processMs(pid), 0);
}

/** The postmaster and its children (backends and background workers; exited ones count in its children's time). */
function clusterMs(postmaster: number): number {
  if (postmaster <= 0) return 0;
  let total = processMs(postmaster, true);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const p of pids) {
    const pid = Number(p);
    if (pid !== postmaster && parentOf(pid) === postmaster) total += processMs(pid);
  }
  return total;
}

function machineMs(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
    const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = v as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const busy = user + nice + system + irq + softirq;
    return { busy: busy * TICK_MS, total: (busy + idle + iowait + steal) * TICK_MS };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export class CpuMeter {
  /**
   * @param serverPid the server process (node running server/src/main.ts, or server/src/split-main.ts,
   *   whose service processes count with it: the whole tree under it is measured)
   * @param postgresBackendPid any backend of the cluster (select pg_backend_pid()): its parent is the
   *   postmaster. Only meaningful when Postgres runs on this machine.
   */
  private readonly postmaster: number;

  constructor(
    private readonly serverPid: number,
    postgresBackendPid: number,
  ) {
    const parent = postgresBackendPid > 0 ? parentOf(postgresBackendPid) : -1;
    // A backend pid of a server on another machine means nothing here.
    this.postmaster = parent > 0 && commandOf(parent).startsWith('postgres') ? parent : -1;
  }

  /** Whether the Postgres cluster's CPU time can be read (it runs on this machine). */
  get seesPostgres(): boolean {
    return this.postmaster > 0;
  }

  sample(): CpuSample {
    const usage = process.cpuUsage();
    const machine = machineMs();
    return {
      at: performance.now(),
      clientMs: (usage.user + usage.system) / 1000,
      serverMs: treeMs(this.serverPid),
      postgresMs: clusterMs(this.postmaster),
      machineBusyMs: machine.busy,
      machineTotalMs: machine.total,
    };
  }

  static between(a: CpuSample, b: CpuSample): CpuUse {
    return {
      clientMs: b.clientMs - a.clientMs,
      serverMs: b.serverMs - a.serverMs,
      postgresMs: b.postgresMs - a.postgresMs,
      machineBusyMs: b.machineBusyMs - a.machineBusyMs,
      machineTotalMs: b.machineTotalMs - a.machineTotalMs,
    };
  }
}
