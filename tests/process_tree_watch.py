"""Runs a command and watches every process whose command line holds MARKER: one that is not
below the command (its launcher was killed and it lives on, orphaned) in two polls running,
or one alive a second after the command ended, is a survivor.

usage: process_tree_watch.py MARKER -- CMD...
Prints "survivors: N" (and each one's pid and command line), then exits with CMD's code."""
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


marker, cmd = sys.argv[1], sys.argv[sys.argv.index("--") + 1:]
child = subprocess.Popen(cmd)
survivors, last_orphans = {}, set()
while child.poll() is None:
    table = processes()
    orphans = {p for p, (pp, state, line) in table.items()
               if marker in line and state not in "ZX" and p != child.pid and not below(p, child.pid, table)
               and p != os.getpid()}
    for p in orphans & last_orphans:
        survivors[p] = table[p][2]
    last_orphans = orphans
    time.sleep(0.1)
time.sleep(1.0)
for p, (pp, state, line) in processes().items():
    if marker in line and state not in "ZX" and p != os.getpid():
        survivors[p] = line
print(f"survivors: {len(survivors)}")
for p, line in survivors.items():
    print(f"  pid {p}: {line[:200]}")
sys.exit(child.returncode)
