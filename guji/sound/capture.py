"""Listening on an input (a microphone) while guji plays: :class:`Capture`.

    with Capture(rate=48000, seconds=40.0) as heard:    # opens and starts the input
        ...play...
    samples = heard.samples()                           # mono float32, what came in

PortAudio's callback copies each block it is given into a list, and nothing
more (no lock, no print); at most *seconds* of frames are held at once (the
length of what is played, plus a tail, measured before the stream opens: the
memory is bounded, ``4 × rate × seconds`` bytes), later frames are counted
and dropped. ``play --check --loop`` lets go of each pass once it is checked
(:meth:`Capture.forget_before`), so it holds a pass or two, not the practice.
Overflows (``status.input_overflow``: frames the device lost) are counted:
the caller says so, as a late stroke may then be a lost one. The frames are
kept mono (folded as they come), 4 bytes each: 10 minutes at 48 kHz, 115 MB;
:meth:`Capture.reader` reads them back (all, or a stretch) a block at a time
for the detector (:func:`guji.practice.transcribe.transcribe_reader`), as a
file is read — while the input runs, too.

The input is the system's default unless *device* names one (index or part
of a name, as ``guji devices --input`` lists them).
sounddevice is imported only when a capture starts.
"""

from __future__ import annotations

import collections
import time

import numpy as np

from ..i18n import _
from .clock import clock_offset
from .devices import AudioDeviceError, sounddevice_module

#: Callbacks whose ADC times estimate when input frame 0 was captured.
STAMPS = 64


class InputDeviceError(AudioDeviceError):
    """The input cannot be heard: one line, with no advice to render instead
    (a file is no help to a drummer who wants to be heard)."""

    def __init__(self, reason: str, *, detail: str | None = None):
        super().__init__(reason, detail=detail, advice=None)

    def advising(self, advice: str) -> "InputDeviceError":
        return self


def input_device(sd, device: int | str | None) -> int | None:
    """The PortAudio index of the input *device* (``None``: the default);
    :class:`AudioDeviceError` when there is no such input."""
    inputs = [(i, d) for i, d in enumerate(sd.query_devices()) if d["max_input_channels"] > 0]
    if not inputs:
        raise InputDeviceError(_("no sound input (microphone) found"))
    if device is None:
        return None
    if isinstance(device, int) or str(device).isdigit():
        index = int(device)
        if any(i == index for i, _d in inputs):
            return index
    else:
        named = [i for i, d in inputs if str(device).lower() in d["name"].lower()]
        if named:
            return named[0]
    raise InputDeviceError(_("no sound input named '{device}' (see 'guji devices --input')")
                           .format(device=device))


class Capture:
    """An input stream kept in memory (module docstring)."""

    def __init__(self, *, rate: int, seconds: float, device: int | str | None = None):
        self.rate, self.device = rate, device
        self.limit = max(1, int(round(seconds * rate)))       # frames held at once
        self._blocks: list[np.ndarray] = []
        self.frames = 0            # frames kept (the next kept frame's number)
        self._base = 0             # the number of the first frame still held (forget_before)
        self.dropped = 0           # frames past the limit
        self.overflows = 0
        self._stream = None
        self.started = self.ended = 0.0   # monotonic: the input opened, closed
        self._stamps: collections.deque = collections.deque(maxlen=STAMPS)
        self._offset = 0.0                # time.monotonic() − PortAudio's time

    def _callback(self, indata, frames, time_info, status) -> None:
        if status.input_overflow:
            self.overflows += 1
        if time_info is not None:
            self._stamps.append((time_info.inputBufferAdcTime, time_info.currentTime,
                                 self.frames + self.dropped))
        room = self.limit - (self.frames - self._base)
        if room <= 0:
            self.dropped += frames
            return
        kept = min(room, frames)
        block = indata[:kept, 0].copy()           # mono: channels summed, then halved
        with np.errstate(all="ignore"):           # a broken input's non-numbers: said later
            for c in range(1, indata.shape[1]):
                block += indata[:kept, c]
            if indata.shape[1] > 1:
                block *= 1.0 / indata.shape[1]
        self._blocks.append(block)
        self.frames += kept
        self.dropped += frames - kept

    def start(self) -> "Capture":
        """Open the input and start listening; :class:`AudioDeviceError` when it cannot."""
        sd = sounddevice_module()
        index = input_device(sd, self.device)
        info = sd.query_devices(index, "input") if index is not None else \
            sd.query_devices(kind="input")
        channels = max(1, min(2, int(info["max_input_channels"])))
        try:
            self._stream = sd.InputStream(samplerate=self.rate, channels=channels,
                                          dtype="float32", device=index,
                                          callback=self._callback)
            self._offset = clock_offset(lambda: self._stream.time)
            self._stream.start()
            self.started = time.monotonic()
        except sd.PortAudioError as e:
            self.close()
            raise InputDeviceError(_("cannot open the sound input"), detail=str(e)) from None
        return self

    def close(self) -> None:
        """Stop and close the input (safe to call twice)."""
        stream, self._stream = self._stream, None
        if stream is not None:
            self.ended = time.monotonic()
            from .stream import PORTAUDIO_WAIT, bounded
            bounded(stream.abort, PORTAUDIO_WAIT)
            bounded(stream.close, PORTAUDIO_WAIT)

    def __enter__(self) -> "Capture":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def captured_at(self) -> float | None:
        """The monotonic time input frame 0 was captured (by the device's ADC
        times: the median of the last :data:`STAMPS` callbacks' estimates), or
        ``None`` where the host API gives no ADC times."""
        estimates = sorted(adc + self._offset - before / self.rate
                           for adc, now, before in list(self._stamps)
                           if adc > 0.0 and 0.0 <= now - adc < 10.0)
        return estimates[len(estimates) // 2] if estimates else None

    @property
    def clockless(self) -> bool:
        """The input gave frames much faster than real time (ALSA's null
        device): it hears nothing and has no clock."""
        listened = (self.ended or time.monotonic()) - self.started
        return (self.frames + self.dropped) / self.rate > 2 * listened + 1

    def samples(self) -> np.ndarray:
        """What came in (and is still held), mono float32, in one array."""
        if not self._blocks:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(self._blocks)

    def reader(self, start: int = 0, stop: int | None = None) -> "BlockReader":
        """What came in, frames *start* … *stop* (default: all held), read as a
        sound file is (``read(frames, dtype=, always_2d=)``), a block at a time,
        without one array of it all; :attr:`BlockReader.frames` says how many,
        :attr:`BlockReader.start` from which input frame (*start*, or the first
        still held).
        Safe while the input runs (the callback only appends)."""
        blocks, at = list(self._blocks), self._base
        stop = self.frames if stop is None else min(stop, self.frames)
        start = max(start, at)                    # what was let go is not there
        chosen = []
        for block in blocks:
            lo, hi = max(start, at), min(stop, at + len(block))
            if lo < hi:
                chosen.append(block[lo - at:hi - at])
            at += len(block)
        return BlockReader(chosen, start)

    def forget_before(self, frame: int) -> None:
        """Let go of the blocks wholly before input frame *frame* (checked
        already: ``--loop`` holds a pass or two, not the whole practice). Called
        by one thread only, the one reading."""
        while self._blocks and self._base + len(self._blocks[0]) <= frame:
            self._base += len(self._blocks[0])
            del self._blocks[0]


class BlockReader:
    """Mono float32 blocks read as :class:`soundfile.SoundFile` reads a file."""

    def __init__(self, blocks: list[np.ndarray], start: int = 0):
        self._blocks, self._at, self._offset = blocks, 0, 0
        self.frames = sum(len(b) for b in blocks)
        self.start = start

    def read(self, frames: int, dtype: str = "float32", always_2d: bool = True) -> np.ndarray:
        parts, wanted = [], frames
        while wanted and self._at < len(self._blocks):
            block = self._blocks[self._at][self._offset:self._offset + wanted]
            parts.append(block)
            wanted -= len(block)
            self._offset += len(block)
            if self._offset >= len(self._blocks[self._at]):
                self._at, self._offset = self._at + 1, 0
        out = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
        return out.astype(dtype, copy=False)[:, None] if always_2d else out.astype(dtype)
