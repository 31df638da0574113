"""Live playback through PortAudio (sounddevice).

:func:`play` streams from the same block renderer as the files
(:class:`guji.sound.mixer.Mix`): the first sound waits only for the first
small block, never for a whole render. What is shown while it plays is the
caller's: *display* makes a :class:`Display` of the mix, and play tells it
the frame sounding now after each block (``guji play`` passes the stroke
display, :func:`guji.cli.display.stroke_display`). The library itself
writes nothing to the terminal.

sounddevice is imported only when sound is asked for, so the rest of guji
works on machines without PortAudio. Every failure to reach a device is an
:class:`AudioDeviceError`: one line saying what to install or suggesting
``guji render``, never a traceback.

Ctrl-C stops at once: the stream is aborted and closed, then the
KeyboardInterrupt goes on (the command line exits with 130).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

from ..errors import GujiError
from ..timing.performance import Cue
from .kit import Kit
from .mixer import Mix

#: What to do without PortAudio or a device (the tail of every device error).
RENDER_HINT = "to write a file instead: guji render ID -o out.wav"
PORTAUDIO_HINT = ("install it with 'sudo apt-get install libportaudio2' (Debian/Ubuntu) or "
                  "'brew install portaudio' (macOS), or write a file instead: "
                  "guji render ID -o out.wav")

#: Frames per block written to the device (about 43 ms at 48 kHz): the
#: display is updated once a block.
PLAY_BLOCK_FRAMES = 2048


class AudioDeviceError(GujiError):
    """No way to play sound here: no PortAudio, no output device, a device that
    cannot take the rate or channels asked for. Exit status 2."""


def _sounddevice():
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
    sd = _sounddevice()
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


def _output_device(sd, device: int | str | None) -> int:
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


class Display(Protocol):
    """What :func:`play` shows while it plays (made from the :class:`Mix`)."""

    def show(self, frame: int) -> None:
        """Frame *frame* is sounding now (called after each block, and at the end)."""

    def close(self) -> None:
        """Playback is over (or interrupted): end the display."""


def play(parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = 48000,
         device: int | str | None = None, display: Callable[[Mix], Display] | None = None,
         channels: int = 2, block_frames: int = PLAY_BLOCK_FRAMES) -> None:
    """Play *parts* (and *cues*) on an audio output device.

    Parameters
    ----------
    parts, cues, kit, rate, channels:
        As for :class:`guji.sound.mixer.Mix`.
    device:
        Device index or (part of a) name, as ``guji devices`` lists them;
        default: the system's default output.
    display:
        Called with the :class:`Mix` once the stream is open; what it returns
        is told the frame sounding now after each block, and closed at the
        end (for ``guji play``: :func:`guji.cli.display.stroke_display`).
        Default: nothing is shown.
    block_frames:
        Frames written at a time.

    Raises
    ------
    AudioDeviceError
        Without PortAudio, without an output device, or when the device
        cannot play at *rate* with *channels*.
    KeyboardInterrupt
        On Ctrl-C, after the stream has been aborted and closed.
    """
    sd = _sounddevice()
    index = _output_device(sd, device)
    mix = Mix(parts, cues, kit=kit, rate=rate, channels=channels)
    stream = _open_stream(sd, index, mix)
    shower = display(mix) if display is not None else None
    try:
        _stream_blocks(stream, mix, shower, block_frames)
    except sd.PortAudioError as e:
        _quietly(sd, stream.abort)
        raise AudioDeviceError(f"the audio output failed ({e}); {RENDER_HINT}") from None
    except BaseException:
        _quietly(sd, stream.abort)   # Ctrl-C: stop now, drop what is buffered
        raise
    finally:
        _quietly(sd, stream.close)
        if shower is not None:
            shower.close()


def _open_stream(sd, index: int, mix: Mix):
    """An output stream on device *index* for *mix*; :class:`AudioDeviceError`
    when the device cannot take its rate and channels."""
    try:
        sd.check_output_settings(device=index, channels=mix.channels, dtype="float32",
                                 samplerate=mix.rate)
    except sd.PortAudioError as e:
        raise AudioDeviceError(f"the output device cannot play {mix.channels} channel(s) at "
                               f"{mix.rate} Hz ({e}); try --rate 44100 or --channels 1; "
                               f"{RENDER_HINT}") from None
    try:
        return sd.OutputStream(samplerate=mix.rate, channels=mix.channels, dtype="float32",
                               device=index)
    except sd.PortAudioError as e:
        raise AudioDeviceError(f"cannot open the audio output ({e}); {RENDER_HINT}") from None


def _stream_blocks(stream, mix: Mix, shower: Display | None, block_frames: int) -> None:
    """Start *stream*, write *mix* to it block by block, telling *shower* the
    frame sounding now (what was written, less the output latency), and
    return when the last sample has been played."""
    stream.start()
    latency = int(round(float(stream.latency) * mix.rate))
    written = 0
    for block in mix.blocks(block_frames):
        stream.write(block)
        written += len(block)
        if shower is not None:
            shower.show(written - latency)
    if shower is not None:
        shower.show(mix.frames)
    stream.stop()          # returns when the last sample has been played


def _quietly(sd, action) -> None:
    """Run a stream's abort/close; a PortAudio error there changes nothing."""
    try:
        action()
    except sd.PortAudioError:
        pass
