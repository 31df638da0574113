"""Whether the machine itself kept time while a live test ran: a canary and the host's steal.

A live test holds guji to milliseconds on this machine's clock: MIDI notes
within 10 ms of their spacing, no message sent 20 ms after its time. On a
virtual machine the host may stop the machine's processors for a while
("steal": seen here in runs of 7-10 ms, hundreds of ms a minute while the
machine was busy) and then every thread on them is late, guji's and the
test's alike — guji says so honestly (``24 MIDI messages, the latest 21.7 ms
after its time``), and no program could have done better.

:class:`StallWatch` tells such a try from guji's own lateness. While it is
open, a small process of its own (not this one: this process's interpreter
lock would delay it) sleeps 1 ms at a time at real-time priority
(``SCHED_FIFO`` 1, where allowed: root; under guji's and JACK's priorities,
above every normal process, so busy loops cannot delay it) and notes every
wake-up :data:`STALL_S` or more late; the host's steal is read from
``/proc/stat`` (all processors, in clock ticks of 10 ms) before and after.
A try during which neither saw anything is one on a machine that kept time:
there, guji must keep it too.

    with StallWatch() as watch:
        ...                                 # the live try
    if not ok and watch.disturbed:
        ...                                 # the machine was held up: try again
"""

from __future__ import annotations

import json
import subprocess
import sys

#: A canary's wake-up this late (seconds) is a stall of the machine: the canary
#: is real-time and alone in its process, so on a machine that keeps time it
#: wakes within ~0.1 ms (1 ms beside guji's own real-time busy-wait).
STALL_S = 0.004

#: The canary's real-time priority: under guji's (20) and JACK's (10).
CANARY_PRIORITY = 1

CANARY = r"""
import json, os, select, sys, time
period, threshold, priority = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
def steal():
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()       # "cpu user nice system idle iowait irq softirq steal ..."
        return int(fields[8]) if len(fields) > 8 else 0
    except OSError:
        return 0
try:
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    realtime = True
except (AttributeError, OSError):
    realtime = False
stalls, worst, wakes = [], 0.0, 0
before = steal()
fd = sys.stdin.fileno()
last = time.monotonic()         # each wake-up is measured from the one before: a stop anywhere counts
sys.stdout.write("ready\n")
sys.stdout.flush()
while True:
    ready, _, _ = select.select([fd], [], [], period)
    now = time.monotonic()
    late = now - last - period                  # closed early: < 0 unless held up before it
    last = now
    wakes += 1
    worst = max(worst, late)
    if late >= threshold and len(stalls) < 1000:
        stalls.append([round(now - late, 6), round(late, 6)])
    if ready:
        break                                   # the watch is closed: stdin's end
json.dump({"realtime": realtime, "wakes": wakes, "worst_s": worst, "stalls": stalls,
           "steal_ticks": steal() - before, "tick_s": 1 / os.sysconf("SC_CLK_TCK")}, sys.stdout)
"""


class StallWatch:
    """A canary process and the host's steal while it is open (see the module).

    After it closes: :attr:`stalls` (``[monotonic due, seconds late]`` of each
    late wake-up, measured from the wake-up before, so that a stop anywhere
    in the canary's loop is seen), :attr:`worst_s`, :attr:`steal_s` (the host's steal summed
    over the processors), :attr:`realtime` (the canary got ``SCHED_FIFO``),
    :attr:`disturbed` and :meth:`summary`."""

    def __init__(self, period_s: float = 0.001, threshold_s: float = STALL_S):
        self.period_s = period_s
        self.threshold_s = threshold_s
        self.stalls: list[list[float]] = []
        self.worst_s = 0.0
        self.steal_s = 0.0
        self.wakes = 0
        self.realtime = False
        self._proc: subprocess.Popen | None = None

    def __enter__(self) -> "StallWatch":
        self._proc = subprocess.Popen(
            [sys.executable, "-c", CANARY, str(self.period_s), str(self.threshold_s),
             str(CANARY_PRIORITY)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self._proc.stdout.readline().strip() != "ready":
            self._proc.kill()
            self._proc.wait()
            raise RuntimeError("the stall canary did not start")
        return self

    def __exit__(self, *exc) -> None:
        proc, self._proc = self._proc, None
        try:
            out, _ = proc.communicate(input="", timeout=10)     # closes its stdin: it reports
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise RuntimeError("the stall canary did not stop") from None
        seen = json.loads(out)
        self.realtime = seen["realtime"]
        self.wakes = seen["wakes"]
        self.worst_s = seen["worst_s"]
        self.stalls = seen["stalls"]
        self.steal_s = seen["steal_ticks"] * seen["tick_s"]

    @property
    def pid(self) -> int | None:
        """The canary's process id while the watch is open."""
        return self._proc.pid if self._proc is not None else None

    @property
    def disturbed(self) -> bool:
        """The machine was held up while the watch was open: the canary woke
        :data:`STALL_S` late at least once, or the host stole a processor."""
        return bool(self.stalls) or self.steal_s > 0

    def summary(self) -> str:
        """``canary 1,234 wake-ups, worst 0.2 ms, 0 stalls ≥ 4 ms; host steal 0 ms``."""
        return (f"canary {self.wakes:,} wake-ups{'' if self.realtime else ' (not real-time)'}, "
                f"worst {self.worst_s * 1000:.1f} ms, {len(self.stalls)} stalls ≥ "
                f"{self.threshold_s * 1000:g} ms; host steal {self.steal_s * 1000:.0f} ms")


__all__ = ["StallWatch", "STALL_S"]
