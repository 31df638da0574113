"""Audio output devices: which there are, which to use, and what to say when there is none.

sounddevice (PortAudio) is imported only here and only when sound is asked
for (:func:`sounddevice_module`), so the rest of guji works on machines
without PortAudio. Every failure to reach a device is an
:class:`AudioDeviceError`: one line saying what to install or suggesting
``guji render``, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, _
from ..defaults import RATE
from ..errors import GujiError

#: What to do without PortAudio or a device (the tail of every device error,
#: unless the command gives advice of its own: :meth:`AudioDeviceError.advising`).
RENDER_HINT = N_("to write a file instead: guji render ID -o out.wav")
#: How to install PortAudio.
PORTAUDIO_INSTALL = ("install it with 'sudo apt-get install libportaudio2' (Debian/Ubuntu) or "
                     "'brew install portaudio' (macOS)")
PORTAUDIO_HINT = f"{PORTAUDIO_INSTALL}, or write a file instead: guji render ID -o out.wav"


def portaudio_install() -> str:
    """How to install PortAudio on this system (:func:`guji.system.install_hint`)."""
    from .. import system
    return _("install it with {hint}").format(hint=system.install_hint("portaudio"))


#: No device, in a musician's words.
NO_DEVICE = N_("no sound output here: no sound card or audio device was found")


class AudioDeviceError(GujiError):
    """No way to play sound here: no PortAudio, no output device, a device that
    cannot take the rate or channels asked for. Exit status 2.

    The message reads ``REASON (DETAIL); INSTALL; ADVICE``: *reason* in a
    musician's words (``no sound output here: no sound card or audio device
    was found``), *detail* what PortAudio said (``Error querying device -1``),
    for whoever helps, *install* what would make sound play here (if
    anything), and *advice* what to do instead. A command replaces the
    advice with its own (:meth:`advising`): the command the user typed, with
    ``-o``.
    """

    def __init__(self, reason: str, *, detail: str | None = None, advice: str | None = RENDER_HINT,
                 install: str | None = None):
        if advice is RENDER_HINT:        # the general advice: said in the user's language
            advice = _(RENDER_HINT)
        self.reason, self.detail, self.install = reason, detail, install
        self.advice = advice
        text = _("{reason} ({detail})").format(reason=reason, detail=detail) if detail else reason
        tail = _("; ").join(x for x in (install, advice) if x)
        super().__init__(_("{text}; {tail}").format(text=text, tail=tail) if tail else text)

    def advising(self, advice: str) -> "AudioDeviceError":
        """The same error with *advice* (what to do instead) in place of the general one."""
        return AudioDeviceError(self.reason, detail=self.detail, advice=advice,
                                install=self.install)


def sounddevice_module():
    """Import sounddevice, or raise :class:`AudioDeviceError` when PortAudio is missing."""
    _pulse_runtime_of_our_own()
    try:
        import sounddevice
    except OSError as e:   # sounddevice raises OSError('PortAudio library not found')
        detail = str(e).splitlines()[0] if str(e) else "PortAudio library not found"
        raise AudioDeviceError(_('cannot play sound: PortAudio, the library guji plays sound with, is not installed'), detail=detail,
                               install=portaudio_install()) from None
    except ImportError:
        raise AudioDeviceError(_('cannot play sound: the sounddevice package is missing'),
                               install="pip install sounddevice") from None
    return sounddevice


def _pulse_runtime_of_our_own() -> None:
    """Keep libpulse's runtime folder out of ``$TMPDIR`` where it would be left.

    PortAudio's probe reaches libpulse (ALSA's ``pulse`` plugin). With no
    ``PULSE_RUNTIME_PATH`` and no ``XDG_RUNTIME_DIR``, libpulse keeps its runtime
    folder where a link in its configuration folder (``~/.config/pulse/ID-runtime``)
    points; without one it makes ``$TMPDIR/pulse-XXXXXXXXXXXX`` and the link, and
    leaves both. No server can be reached through a folder made just now, so
    then guji names one of its own (``PULSE_RUNTIME_PATH``) in a temporary folder
    removed when guji exits. A link already there, or either variable set, is
    left to libpulse as it is (a server may be listening there)."""
    import os
    if os.environ.get("PULSE_RUNTIME_PATH") or os.environ.get("XDG_RUNTIME_DIR"):
        return
    from pathlib import Path
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "pulse"
    try:
        if any(p.name.endswith("-runtime") and p.is_dir() for p in config.iterdir()):
            return
    except OSError:                  # no such folder yet: libpulse would make it
        pass
    import atexit
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="guji-pulse-")
    atexit.register(shutil.rmtree, folder, True)
    os.environ["PULSE_RUNTIME_PATH"] = os.path.join(folder, "pulse")


@dataclass(frozen=True)
class OutputDevice:
    """One audio output device, as ``guji devices`` lists it."""

    index: int
    name: str
    hostapi: str
    channels: int
    default_rate: float
    default: bool

    def to_json(self) -> dict:
        return {"index": self.index, "name": self.name, "hostapi": self.hostapi,
                "channels": self.channels, "default_rate": self.default_rate,
                "default": self.default}


def list_devices(kind: str = "output") -> list[OutputDevice]:
    """The output devices PortAudio sees (possibly none); with *kind*
    ``"input"`` the input devices (microphones, for ``guji play --check``).

    Raises :class:`AudioDeviceError` without PortAudio.
    """
    sd = sounddevice_module()
    try:
        devices = sd.query_devices()
        hostapis = sd.query_hostapis()
        default = _default_output(sd) if kind == "output" else _default_input(sd)
    except sd.PortAudioError as e:
        raise AudioDeviceError(_('cannot list the sound outputs'), detail=str(e)) from None
    out = []
    for d in devices:
        channels = int(d[f"max_{kind}_channels"])
        if channels <= 0:
            continue
        out.append(OutputDevice(int(d["index"]), str(d["name"]),
                                str(hostapis[d["hostapi"]]["name"]),
                                channels, float(d["default_samplerate"]),
                                int(d["index"]) == default))
    return out


def _default_input(sd) -> int:
    """The default input's index (−1: none)."""
    try:
        return int(sd.default.device[0])
    except (TypeError, ValueError, IndexError):
        return -1


def _default_output(sd) -> int:
    try:
        dev = sd.default.device[1]
    except (TypeError, IndexError):
        dev = sd.default.device
    return int(dev) if dev is not None else -1


def output_device(sd, device: int | str | None) -> int:
    """The index of the output device to use; :class:`AudioDeviceError` if none."""
    if device is None:
        index = _default_output(sd)
        if index < 0:
            try:   # PortAudio may still resolve a default itself
                return int(sd.query_devices(kind="output")["index"])
            except (sd.PortAudioError, ValueError) as e:
                raise AudioDeviceError(_(NO_DEVICE), detail=str(e)) from None
        return index
    if isinstance(device, str) and device.strip().lstrip("-").isdigit():
        device = int(device)
    try:
        info = sd.query_devices(device, kind="output")
    except ValueError as e:
        raise AudioDeviceError(_('no sound output {device} here').format(device=repr(device)), detail=str(e),
                               install="'guji devices' lists them") from None
    except sd.PortAudioError as e:
        raise AudioDeviceError(_('no sound output {device} here').format(device=repr(device)), detail=str(e),
                               install="'guji devices' lists them") from None
    return int(info["index"])


def check_playable(device: int | str | None = None, rate: int = RATE,
                   channels: int = 2) -> int:
    """The index of the output device that will play *channels* at *rate*
    (*device* as :func:`output_device` takes it); :class:`AudioDeviceError`
    if sound cannot be played here — asked before anything is shown, so a
    command fails at once, not after printing what it would play."""
    sd = sounddevice_module()
    index = output_device(sd, device)
    check_output(sd, index, rate, channels)
    return index


def device_name(index: int) -> str:
    """What device *index* is called, with its sound system: ``pulse (ALSA)``."""
    sd = sounddevice_module()
    try:
        info = sd.query_devices(index)
        return f"{info['name']} ({sd.query_hostapis(info['hostapi'])['name']})"
    except (sd.PortAudioError, ValueError, KeyError):
        return f"device {index}"


def check_output(sd, index: int, rate: int, channels: int) -> None:
    """:class:`AudioDeviceError` unless device *index* can play *channels* at *rate*."""
    try:
        sd.check_output_settings(device=index, channels=channels, dtype="float32",
                                 samplerate=rate)
    except sd.PortAudioError as e:
        raise AudioDeviceError(_('the sound output cannot play {channels} channel(s) at {rate} Hz').format(channels=channels, rate=rate), detail=str(e),
                               install="try --rate 44100 or --channels 1") from None
