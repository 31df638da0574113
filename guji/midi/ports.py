"""Live MIDI out: the ports of each system's MIDI back-end.

``guji play --midi-out`` sends a performance's notes (:mod:`guji.midi.events`)
to the instruments performers use live — an electronic drum module, a
synth, a DAW — through mido with the python-rtmidi backend (guji's ``midi``
extra: ``pip install 'guji[midi]'``), on every back-end rtmidi was built
with (:data:`SYSTEMS`): CoreMIDI on macOS, Windows MultiMedia (WinMM) on
Windows, the ALSA sequencer and JACK on Linux (JACK elsewhere too, where
rtmidi has it). Advice is in the words of the system guji runs on
(:func:`guji.system.name`).

Ports
-----
:func:`list_ports` names every output port of both systems
(:class:`Port`: the name and the system); :func:`open_port` opens one by
its name or part of it (``None``: the first that is not ALSA's "Midi
Through"). Without a MIDI system — no ``/dev/snd/seq`` (the kernel's
``snd-seq``), no JACK server — rtmidi raises ``SystemError`` and the
libraries print their complaints on stderr; guji keeps those off the
terminal (:mod:`guji.library_messages`) and raises :class:`MidiUnavailable`:
one line of advice, exit status 2. libjack is told never to start a server
by itself (``JACK_NO_START_SERVER``).

Two pitfalls met: mido turns any ``client_name`` into a *new* virtual port,
connected to nothing (messages vanish), so an existing port is opened
without one; and rtmidi's JACK output hands messages to JACK's next cycle
through a ring buffer, so a port closed at once after a send loses the
last message: :meth:`Outlet.close` waits :data:`DRAIN` first.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import mido

from ..i18n import N_, _
from .. import system as this_system
from ..errors import GujiError
from ..library_messages import AlsaMessages, StderrCapture

#: rtmidi's back-ends, by the name guji shows, in the order they are listed.
SYSTEMS = {"CoreMIDI": "MACOSX_CORE", "WinMM": "WINDOWS_MM", "ALSA": "LINUX_ALSA",
           "JACK": "UNIX_JACK"}

#: Seconds to let rtmidi hand the last messages on before a port closes.
DRAIN = 0.05

ADVICE = N_("no MIDI system: no ALSA sequencer (/dev/snd/seq is missing: 'sudo modprobe "
            "snd-seq') and no JACK server (start one, e.g. 'jackd -d dummy -r 48000'); "
            "or write a MIDI file with 'guji midi'")

#: What to say when no back-end answers, by system (:func:`advice`; English, said translated).
ADVICES = {
    "linux": ADVICE,
    "macos": N_("no MIDI system: CoreMIDI did not answer (open Audio MIDI Setup to check it); "
                "or write a MIDI file with 'guji midi'"),
    "windows": N_("no MIDI system: Windows MIDI (WinMM) did not answer (check the device in "
                  "Device Manager); or write a MIDI file with 'guji midi'"),
}

#: What to say when the back-ends answer with no port, by system.
NO_PORT = {
    "linux": N_("no MIDI output port (start a synth or a DAW, e.g. 'fluidsynth -a pulseaudio', "
                "and see 'guji ports')"),
    "macos": N_("no MIDI output port (start a synth or a DAW, or turn on the IAC Driver in "
                "Audio MIDI Setup, and see 'guji ports')"),
    "windows": N_("no MIDI output port (plug in a MIDI device, or start a virtual MIDI cable "
                  "such as loopMIDI, and see 'guji ports')"),
}

#: The one line when python-rtmidi is missing.
MISSING = N_("live MIDI needs python-rtmidi, which is not installed: pip install 'guji[midi]' "
             "(or pip install python-rtmidi); or write a MIDI file with 'guji midi'")


def advice() -> str:
    """No MIDI system answered: what to do, in this system's words and the user's language."""
    return _(ADVICES[this_system.name()])


def no_port_advice() -> str:
    """No output port: what to do, in this system's words and the user's language."""
    return _(NO_PORT[this_system.name()])


class MidiUnavailable(GujiError):
    """No MIDI system, or no such port: one line of advice (exit status 2)."""


@dataclass(frozen=True)
class Port:
    """An output port: its *name* as the MIDI system gives it, and the *system*."""

    name: str
    system: str

    def to_json(self) -> dict:
        return {"name": self.name, "system": self.system}


def _backend(system: str):
    """mido's rtmidi back-end for *system*; :class:`MidiUnavailable` without python-rtmidi."""
    os.environ.setdefault("JACK_NO_START_SERVER", "1")
    backend = mido.Backend("mido.backends.rtmidi/" + SYSTEMS[system])
    try:
        backend.load()
    except ImportError:
        raise MidiUnavailable(_(MISSING)) from None
    return backend


def compiled_systems() -> list[str]:
    """The back-ends (:data:`SYSTEMS`) this python-rtmidi was built with, in
    :data:`SYSTEMS`' order; :class:`MidiUnavailable` without python-rtmidi."""
    try:
        module = mido.Backend("mido.backends.rtmidi").module
        compiled = set(module.get_api_names())
    except ImportError:
        raise MidiUnavailable(_(MISSING)) from None
    return [name for name, api in SYSTEMS.items() if api in compiled]


def _quietly(action: Callable[[], Any]):
    """Run *action* with ALSA's and libjack's messages kept off the terminal."""
    with StderrCapture(), AlsaMessages():
        return action()


def list_ports() -> list[Port]:
    """The output ports of every back-end rtmidi has (possibly none).

    Raises :class:`MidiUnavailable` (:func:`advice`) when none answers."""
    ports: list[Port] = []
    answered = 0
    for system in compiled_systems():
        try:
            names = _quietly(_backend(system).get_output_names)
        except (OSError, ValueError):    # rtmidi's SystemError: that system is not there
            continue
        answered += 1
        ports += [Port(name, system) for name in names]
    if not answered:
        raise MidiUnavailable(advice())
    return ports


def _chosen(name: str | None, ports: list[Port]) -> Port:
    """The port *name* (exactly, else the only port containing it), or the
    first that is not a "Midi Through" port; :class:`MidiUnavailable` if none."""
    if name is None:
        real = [p for p in ports if "midi through" not in p.name.lower()]
        if not (real or ports):
            raise MidiUnavailable(_("no MIDI output port (start a synth or a DAW, and see 'guji ports')"))
        return (real or ports)[0]
    exact = [p for p in ports if p.name == name]
    partial = [p for p in ports if name.lower() in p.name.lower()]
    if exact or len(partial) == 1:
        return (exact or partial)[0]
    listed = ", ".join(p.name for p in ports) or "none"
    if partial:
        raise MidiUnavailable(_('{name} names more than one MIDI port ({listed}): give more of the name').format(name=repr(name), listed=listed))
    raise MidiUnavailable(_("no MIDI port {name} (ports: {listed}; see 'guji ports')").format(name=repr(name), listed=listed))


def open_port(name: str | None = None) -> "Outlet":
    """An :class:`Outlet` on the output port *name* (or part of it; ``None``:
    the first real one). Raises :class:`MidiUnavailable` (one line)."""
    ports = list_ports()
    port = _chosen(name, ports)
    try:
        return Outlet(_quietly(lambda: _backend(port.system).open_output(port.name)), port)
    except (OSError, ValueError) as e:
        raise MidiUnavailable(_('cannot open the MIDI port {name} ({e})').format(name=repr(port.name), e=e)) from None


class Outlet:
    """An open MIDI output port that remembers which notes are sounding, so
    that stopping silences them (:meth:`silence`)."""

    def __init__(self, port, info: Port):
        self.port = port
        self.info = info
        self.sent = 0
        self._sounding: set[tuple[int, int]] = set()
        self._lock = threading.Lock()

    def send(self, message: mido.Message) -> None:
        with self._lock:
            self.port.send(message)
            self.sent += 1
            key = (message.channel, message.note) if hasattr(message, "note") else None
            if key is None:
                return
            if message.type == "note_on" and message.velocity > 0:
                self._sounding.add(key)
            else:
                self._sounding.discard(key)

    def silence(self) -> None:
        """A note_off for every note still sounding."""
        with self._lock:
            for channel, note in sorted(self._sounding):
                self.port.send(mido.Message("note_off", channel=channel, note=note))
            self._sounding.clear()

    def close(self) -> None:
        """Silence, let the last messages go (:data:`DRAIN`), close the port."""
        self.silence()
        time.sleep(DRAIN)
        _quietly(self.port.close)
