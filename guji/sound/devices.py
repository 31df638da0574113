"""Audio output devices: which there are, which to use, and what to say when there is none.

sounddevice (PortAudio) is imported only here and only when sound is asked
for (:func:`sounddevice_module`), so the rest of guji works on machines
without PortAudio. Every failure to reach a device is an
:class:`AudioDeviceError`: one line saying what to install or suggesting
``guji render``, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import GujiError

#: What to do without PortAudio or a device (the tail of every device error).
RENDER_HINT = "to write a file instead: guji render ID -o out.wav"
PORTAUDIO_HINT = ("install it with 'sudo apt-get install libportaudio2' (Debian/Ubuntu) or "
                  "'brew install portaudio' (macOS), or write a file instead: "
                  "guji render ID -o out.wav")


class AudioDeviceError(GujiError):
    """No way to play sound here: no PortAudio, no output device, a device that
    cannot take the rate or channels asked for. Exit status 2."""


def sounddevice_module():
    """Import sounddevice, or raise :class:`AudioDeviceError` when PortAudio is missing."""
    try:
        import sounddevice
    except OSError as e:   # sounddevice raises OSError('PortAudio library not found')
        reason = str(e).splitlines()[0] if str(e) else "PortAudio library not found"
        raise AudioDeviceError(f"cannot play sound: {reason}; {PORTAUDIO_HINT}") from None
    except ImportError:
        raise AudioDeviceError("cannot play sound: the sounddevice package is missing "
                               f"(pip install sounddevice); {RENDER_HINT}") from None
    return sounddevice


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


def list_devices() -> list[OutputDevice]:
    """The output devices PortAudio sees (possibly none).

    Raises :class:`AudioDeviceError` without PortAudio.
    """
    sd = sounddevice_module()
    try:
        devices = sd.query_devices()
        hostapis = sd.query_hostapis()
        default = _default_output(sd)
    except sd.PortAudioError as e:
        raise AudioDeviceError(f"cannot list audio devices ({e}); {RENDER_HINT}") from None
    out = []
    for d in devices:
        if d["max_output_channels"] <= 0:
            continue
        out.append(OutputDevice(int(d["index"]), str(d["name"]),
                                str(hostapis[d["hostapi"]]["name"]),
                                int(d["max_output_channels"]), float(d["default_samplerate"]),
                                int(d["index"]) == default))
    return out


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
                raise AudioDeviceError(f"no audio output device ({e}); {RENDER_HINT}") from None
        return index
    if isinstance(device, str) and device.strip().lstrip("-").isdigit():
        device = int(device)
    try:
        info = sd.query_devices(device, kind="output")
    except ValueError as e:
        raise AudioDeviceError(f"no output device {device!r}: {e} (see 'guji devices')") from None
    except sd.PortAudioError as e:
        raise AudioDeviceError(f"no output device {device!r} ({e}); see 'guji devices'; "
                               f"{RENDER_HINT}") from None
    return int(info["index"])


def check_output(sd, index: int, rate: int, channels: int) -> None:
    """:class:`AudioDeviceError` unless device *index* can play *channels* at *rate*."""
    try:
        sd.check_output_settings(device=index, channels=channels, dtype="float32",
                                 samplerate=rate)
    except sd.PortAudioError as e:
        raise AudioDeviceError(f"the output device cannot play {channels} channel(s) at "
                               f"{rate} Hz ({e}); try --rate 44100 or --channels 1; "
                               f"{RENDER_HINT}") from None
