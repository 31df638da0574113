"""What happened while the player played: underruns, gaps, ALSA's messages.

The audio callback counts (it cannot print: that would write into the
stroke display, and printing from the audio thread is itself a way to miss
its deadline); once playback is over :class:`PlayReport` says it in one
line (:meth:`PlayReport.summary`), and the command line prints that line
after the display, on its own.

Three kinds of trouble, each seen on a PulseAudio sink under load:

* **underruns** — PortAudio's ``output_underflow`` flag: the device ran dry;
* **gaps downstream** — the output clock jumped later (silence inserted
  after PortAudio; through ALSA's ``pulse`` plugin not every underrun is
  flagged, but each shows up here: :class:`~guji.sound.clock.OutputClock`);
* **late blocks** — the renderer had nothing ready for a callback.

plus what alsa-lib itself said (``underrun occurred``), caught by
:class:`guji.library_messages.AlsaMessages` instead of being written to the
terminal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from guji.i18n import _, ngettext


@dataclass(frozen=True)
class PlayReport:
    """The figures of one playback.

    Attributes
    ----------
    latency:
        The stream's output latency (seconds), as PortAudio gives it.
    callbacks:
        Audio callbacks run.
    underflows:
        Callbacks PortAudio flagged ``output_underflow``.
    starved:
        Callbacks that found no block ready; *starved_frames* of silence.
    jumps:
        Moves of the output clock (gaps downstream); *jumped* seconds in all.
    frames:
        Frames of the performance played.
    announced:
        Events announced when heard; *dropped*: those a quit dropped.
    clockless:
        The device took audio much faster than real time: it has no clock
        (ALSA's null device), so late blocks and gaps mean nothing there.
    quit:
        Playback was stopped before its end.
    realtime:
        The audio thread got real-time scheduling (``SCHED_FIFO``).
    alsa_messages:
        What alsa-lib said meanwhile (``pcm.c:8570 snd_pcm_recover:
        underrun occurred``).
    first_heard:
        Monotonic time at which the first frame was heard (``None`` if none was).
    """

    latency: float = 0.0
    callbacks: int = 0
    underflows: int = 0
    starved: int = 0
    starved_frames: int = 0
    jumps: int = 0
    jumped: float = 0.0
    frames: int = 0
    clockless: bool = False
    announced: int = 0
    dropped: int = 0
    quit: bool = False
    realtime: bool = False
    alsa_messages: tuple[str, ...] = ()
    first_heard: float | None = None

    @property
    def troubled(self) -> bool:
        """Something was heard that should not have been (or not heard that should)."""
        if self.clockless:
            return bool(self.alsa_messages)
        return bool(self.underflows or self.starved or self.jumps or self.alsa_messages)

    def summary(self) -> str:
        """One line: ``latency 200 ms: no underrun``, or what went wrong and a hint.

        In the user's language (:mod:`guji.i18n`); the figures themselves are data.
        """
        ms = f"{self.latency * 1000:.0f}"
        if self.clockless:
            head = _("latency {ms} ms (a device without a clock, faster than real time: "
                     "timing unchecked)").format(ms=ms)
        else:
            head = _("latency {ms} ms").format(ms=ms)
        problems = self._problems()
        if not problems:
            return _("{head}: no underrun").format(head=head)
        text = _(", ").join(problems)
        if self.clockless:
            return _("{head}: {problems}").format(head=head, problems=text)
        return _("{head}: {problems}; a larger --latency may help").format(head=head, problems=text)

    def _problems(self) -> list[str]:
        problems = []
        if self.underflows and not self.clockless:
            problems.append(ngettext("{n} underrun", "{n} underruns",
                                     self.underflows).format(n=self.underflows))
        if self.jumps and not self.clockless:
            problems.append(ngettext("{n} gap downstream ({ms} ms)", "{n} gaps downstream ({ms} ms)",
                                     self.jumps).format(n=self.jumps, ms=f"{self.jumped * 1000:.0f}"))
        if self.starved and not self.clockless:
            problems.append(ngettext("{n} late block ({frames} frames of silence)",
                                     "{n} late blocks ({frames} frames of silence)",
                                     self.starved).format(n=self.starved, frames=self.starved_frames))
        if self.alsa_messages:
            kinds = sorted({m.split(": ", 1)[-1] for m in self.alsa_messages})
            problems.append(_("ALSA said {kinds} ×{n}").format(kinds="; ".join(kinds),
                                                              n=len(self.alsa_messages)))
        return problems

    def to_json(self) -> dict:
        out = asdict(self)
        out["alsa_messages"] = list(self.alsa_messages)
        return out

