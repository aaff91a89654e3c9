"""Runs a command and watches every process whose command line holds MARKER: one that is not
below the command (its launcher was killed and it lives on, orphaned) in two polls running,
or one alive a second after the command ended, is a survivor.

usage: process_tree_watch.py [--stop-at-survivor] MARKER -- CMD...
Prints "survivors: N" (and each one's pid and command line), then exits with CMD's code.
--stop-at-survivor (a negative control, which needs one survivor, not the run's end): at the
first survivor, every process holding MARKER and CMD are killed, and the exit code is 0."""
import os
import subprocess
import sys
import time


def processes():
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone between the listing and the read
        state, ppid = stat[stat.rfind(")") + 2:].split()[:2]
        table[int(name)] = (int(ppid), state, cmdline)
    return table


def below(pid, root, table):
    while pid in table and pid > 1:
        if pid == root:
            return True
        pid = table[pid][0]
    return False


stop_at_survivor = sys.argv[1] == "--stop-at-survivor"
marker, cmd = sys.argv[1 + stop_at_survivor], sys.argv[sys.argv.index("--") + 1:]
child = subprocess.Popen(cmd)
survivors, last_orphans, stopped = {}, set(), False
while child.poll() is None:
    table = processes()
    orphans = {p for p, (pp, state, line) in table.items()
               if marker in line and state not in "ZX" and p != child.pid and not below(p, child.pid, table)
               and p != os.getpid()}
    for p in orphans & last_orphans:
        survivors[p] = table[p][2]
    last_orphans = orphans
    if survivors and stop_at_survivor:
        # The launcher first, so that it starts nothing after the listing; then what holds MARKER.
        child.kill()
        child.wait()
        for p, (pp, state, line) in processes().items():
            if marker in line and p != os.getpid():
                try:
                    os.kill(p, 9)
                except OSError:
                    pass  # gone already
        stopped = True
        break
    time.sleep(0.1)
if not stopped:
    time.sleep(1.0)
    for p, (pp, state, line) in processes().items():
        if marker in line and state not in "ZX" and p != os.getpid():
            survivors[p] = line
print(f"survivors: {len(survivors)}" + (" (stopped at the first)" if stopped else ""))
for p, line in survivors.items():
    print(f"  pid {p}: {line[:200]}")
sys.exit(0 if stopped else child.returncode)
