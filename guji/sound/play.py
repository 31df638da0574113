"""Live playback through PortAudio (sounddevice), with the stroke shown as it sounds.

:func:`play` streams from the same block renderer as the files
(:class:`guji.render.Mix`): the first sound waits only for the first small
block, never for a whole render. While it plays, the terminal shows the
source line of the pattern with the glyph sounding now highlighted (reverse
video); when the output is not a terminal, one plain line per stroke, the
glyph in brackets.

sounddevice is imported only when sound is asked for, so the rest of guji
works on machines without PortAudio. Every failure to reach a device is an
:class:`AudioDeviceError`: one line saying what to install or suggesting
``guji render``, never a traceback.

Ctrl-C stops at once: the stream is aborted and closed, then the
KeyboardInterrupt goes on (the command line exits with 130).
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from typing import Iterable, TextIO

from ..errors import GujiError, display_width, escape_controls
from ..text.notation import Pattern, Rite
from .mixer import Mix
from ..cli.terminal import unescaped
from ..timing.performance import Cue, Part
from ..timing.score import Event
from .voices import Kit

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


def play(parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = 48000,
         device: int | str | None = None, display: bool = True, out: TextIO | None = None,
         channels: int = 2, block_frames: int = PLAY_BLOCK_FRAMES) -> None:
    """Play *parts* (and *cues*) on an audio output device.

    Parameters
    ----------
    parts, cues, kit, rate, channels:
        As for :class:`guji.render.Mix`.
    device:
        Device index or (part of a) name, as ``guji devices`` lists them;
        default: the system's default output.
    display:
        Show the stroke sounding now on *out* (see :class:`StrokeDisplay`).
    out:
        Where the display goes (default ``sys.stderr``).
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
    try:
        sd.check_output_settings(device=index, channels=mix.channels, dtype="float32",
                                 samplerate=mix.rate)
    except sd.PortAudioError as e:
        raise AudioDeviceError(f"the output device cannot play {mix.channels} channel(s) at "
                               f"{mix.rate} Hz ({e}); try --rate 44100 or --channels 1; "
                               f"{RENDER_HINT}") from None
    try:
        stream = sd.OutputStream(samplerate=mix.rate, channels=mix.channels, dtype="float32",
                                 device=index)
    except sd.PortAudioError as e:
        raise AudioDeviceError(f"cannot open the audio output ({e}); {RENDER_HINT}") from None
    shower = StrokeDisplay(mix, out if out is not None else sys.stderr) if display else None
    try:
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


def _quietly(sd, action) -> None:
    """Run a stream's abort/close; a PortAudio error there changes nothing."""
    try:
        action()
    except sd.PortAudioError:
        pass


# -- the display ---------------------------------------------------------------

REVERSE = "\x1b[7m"
NORMAL = "\x1b[27m"
CLEAR_LINE = "\x1b[K"


class StrokeDisplay:
    """Shows the stroke sounding now: the pattern's source line, its glyph marked.

    On a terminal one status line is redrawn in place, the glyph in reverse
    video; otherwise (a pipe, a file) each new stroke is one plain line with
    the glyph in brackets.
    """

    def __init__(self, mix: Mix, out: TextIO, tty: bool | None = None, width: int | None = None):
        self.mix = mix
        self.out = unescaped(out)      # the content is escaped here, the codes are ours
        if tty is None:
            try:
                tty = bool(out.isatty())
            except (AttributeError, ValueError):
                tty = False
        self.tty = tty
        self.width = width or (shutil.get_terminal_size((80, 24)).columns if tty else 100)
        self._current: tuple[int, int] | None = None
        self._drawn = False

    def show(self, frame: int) -> None:
        """Show the latest stroke started at or before *frame* (if it changed)."""
        found = self.mix.event_at(frame)
        if found is None:
            return
        part_index, event = found
        key = (part_index, event.index)
        if key == self._current:
            return
        self._current = key
        line = format_stroke(self.mix.parts[part_index], event, tty=self.tty, width=self.width - 1)
        if self.tty:
            self.out.write("\r" + line + CLEAR_LINE)
            self._drawn = True
        else:
            self.out.write(line + "\n")
        self.out.flush()

    def close(self) -> None:
        if self.tty and self._drawn:
            self.out.write("\n")
            self.out.flush()
            self._drawn = False


def format_stroke(part: Part, event: Event, *, tty: bool, width: int = 100) -> str:
    """One display line for *event* of *part*.

    ``魯鼓 1 liji-zhengyi  pass 1/2  3/12 鼓  半，○□[○]□…`` — the part, the
    pass, the stroke's place in the pass and its drum, then the source line
    holding its glyph, cut to *width* columns around the glyph. On a
    terminal (*tty*) the glyph is in reverse video instead of brackets.
    A count-in click shows ``count-in 2/4``.
    """
    score = part.score
    if event.drum is None:
        return _fit(escape_controls(f"{part.name}  count-in {event.index + 1}/{score.count_in}"),
                    width)
    head = escape_controls(f"{part.name}  pass {event.pass_index + 1}/{score.repeat}  "
            f"{event.position + 1}/{score.per_pass} {event.drum.value}  ")
    room = max(10, width - display_width(head))
    return head + source_excerpt(score.pattern, event, tty=tty, width=room)


def source_excerpt(pattern: Pattern, event: Event, *, tty: bool, width: int) -> str:
    """The source line holding *event*'s glyph, the glyph marked, cut to *width* columns."""
    stroke = event.stroke
    if stroke is None:
        raise ValueError("a count-in click has no glyph")
    text = None
    for number, line in pattern.lines:
        if number == stroke.location.line:
            text = line
            break
    if text is not None and 0 <= stroke.location.column - 1 < len(text):
        col = stroke.location.column - 1
    else:   # no source text: show the normalised notation
        text, col = pattern.notation(Rite.SHE, marker=False), stroke.index
    text = text.replace("\t", " ").rstrip("\r\n")
    # controls in the source shown escaped (U+001B), the glyph's column moved with them
    col = len(escape_controls(text[:col]))
    text = escape_controls(text)
    glyph = text[col]
    left, right = text[:col], text[col + 1:]
    mark_w = display_width(glyph) + (0 if tty else 2)
    # cut the line to a window around the glyph
    budget = max(0, width - mark_w)
    want_left = budget // 2
    if display_width(left) > want_left:
        left = "…" + _take(reversed(left), max(want_left - 1, 0))[::-1]
    rest = max(0, budget - display_width(left))
    if display_width(right) > rest:
        right = _take(right, max(rest - 1, 0)) + "…"
    mark = f"{REVERSE}{glyph}{NORMAL}" if tty else f"[{glyph}]"
    return left + mark + right


def _fit(text: str, width: int) -> str:
    if display_width(text) <= width:
        return text
    return _take(text, width - 1) + "…"


def _take(chars: Iterable[str], limit: int) -> str:
    """The leading *chars* that fit in *limit* columns (up to the first that does not)."""
    out, used = [], 0
    for ch in chars:
        used += display_width(ch)
        if used > limit:
            break
        out.append(ch)
    return "".join(out)
