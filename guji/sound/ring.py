"""Blocks rendered ahead of the sound card, by a thread of their own.

The audio callback must never wait: not for the renderer, not for a lock
another thread holds while the scheduler has put it aside. So rendering
happens on a *feeder* thread (:class:`BlockRing`), which pulls blocks from
the renderer and keeps up to *ahead* seconds of them queued; the callback
reads them. The two share a ``collections.deque`` (``append`` and
``popleft`` are atomic) and two counters, each written by one side only: no
lock at all. :meth:`BlockRing.read` copies frames into the device's buffer,
:meth:`BlockRing.skip_to_event` drops them up to the next event (a resume
starts on a stroke).

Each block comes with the events that fall in it (an offset into the block
and the caller's payload), so the callback knows which output frame each
event went out on — the frame the announcer then waits for
(:mod:`guji.sound.player`).
"""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import numpy as np

#: Put on the ring after the last block.
END = object()


@dataclass(frozen=True)
class Scheduled:
    """Something to announce when frame *frame* of the block stream is heard."""

    frame: int
    payload: Any


class BlockRing:
    """Blocks queued ahead of the audio callback by a feeder thread.

    Parameters
    ----------
    blocks:
        float32 arrays, frames × *channels* (any lengths; may be endless).
    events:
        :class:`Scheduled` items in frame order (frames counted from the
        first frame of *blocks*; may be endless).
    channels:
        Channels of the output.
    ahead:
        Frames kept queued (the feeder sleeps 5 ms while the ring is full).
    """

    def __init__(self, blocks: Iterable[np.ndarray], events: Iterable[Scheduled], *,
                 channels: int, ahead: int):
        self.channels = channels
        self.ahead = max(1, int(ahead))
        self.error: BaseException | None = None
        self._blocks: Iterator[np.ndarray] = iter(blocks)
        self._events: Iterator[Scheduled] = iter(events)
        self._queue: collections.deque = collections.deque()
        self._produced = 0      # written by the feeder only
        self._consumed = 0      # written by the callback only
        self._block: list | None = None     # the callback's: [array, events, offset]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._feed, name="guji-feeder", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop feeding (blocks already queued stay); wait for the thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    @property
    def done(self) -> bool:
        """The feeder has put its last block (or stopped)."""
        return self._thread.ident is not None and not self._thread.is_alive()

    @property
    def queued(self) -> int:
        """Frames rendered and not yet played."""
        return self._produced - self._consumed

    def wait_for(self, frames: int, timeout: float = 5.0) -> None:
        """Wait until *frames* are queued, or the feeder is done, or *timeout* s."""
        deadline = time.monotonic() + timeout
        while self.queued < frames and not self.done and time.monotonic() < deadline:
            time.sleep(0.001)

    # -- the callback's side ---------------------------------------------------------
    # (no lock, no allocation: deque.popleft is atomic, and _consumed is the
    # callback's alone)

    def read(self, out, frames: int, at: int, announce: Callable[[int, Any], None]
             ) -> tuple[int, bool]:
        """Copy up to *frames* queued frames into *out* (the first at output
        frame *at*), calling ``announce(output frame, payload)`` for each
        event copied; the frames copied, and whether the blocks have ended
        (fewer frames and not ended: the renderer is late)."""
        filled = 0
        ended = False
        while filled < frames:
            current = self._current()
            if current is None or current is END:
                ended = current is END
                break
            block, events, offset = current
            n = min(frames - filled, len(block) - offset)
            out[filled:filled + n] = block[offset:offset + n]
            while events and events[0][0] < offset + n:
                event_offset, payload = events.pop(0)
                announce(at + filled + event_offset - offset, payload)
            filled += n
            self._advance(offset + n)
        self._consumed += filled
        return filled, ended

    def skip_to_event(self) -> tuple[bool, bool]:
        """Drop frames up to the next event (resuming on a stroke, not in the
        middle of a ring): whether an event was reached, and whether the
        blocks ended first. Neither: nothing more is ready yet (call again)."""
        while True:
            current = self._current()
            if current is None or current is END:
                return False, current is END
            block, events, offset = current
            stop = events[0][0] if events else len(block)
            self._consumed += max(0, stop - offset)
            self._advance(max(offset, stop))
            if events:
                return True, False

    def _current(self):
        """The block being read (``[array, events, offset]``), the next one
        taken if none; ``None`` when nothing is ready, :data:`END` at the end."""
        if self._block is None:
            try:
                item = self._queue.popleft()
            except IndexError:
                return None
            if item is END:
                self._queue.appendleft(END)     # the end stays the end
                return END
            self._block = [item[0], item[1], 0]
        return self._block

    def _advance(self, offset: int) -> None:
        if offset >= len(self._block[0]):
            self._block = None
        else:
            self._block[2] = offset

    # -- the feeder ------------------------------------------------------------------

    def _feed(self) -> None:
        try:
            position = 0
            pending = next(self._events, None)
            for block in self._blocks:
                if self._stop.is_set():
                    return
                block = self._shaped(block)
                n = len(block)
                events = []
                while pending is not None and pending.frame < position + n:
                    events.append((max(0, pending.frame - position), pending.payload))
                    pending = next(self._events, None)
                while self.queued >= self.ahead and not self._stop.is_set():
                    time.sleep(0.005)
                self._queue.append((block, events))
                self._produced += n
                position += n
        except BaseException as e:      # raised again by the player when it closes
            self.error = e
        finally:
            self._queue.append(END)

    def _shaped(self, block: np.ndarray) -> np.ndarray:
        """*block* as a contiguous float32 array of frames × channels."""
        block = np.asarray(block, dtype=np.float32)
        if block.ndim == 1:
            block = block[:, None]
        if block.shape[1] != self.channels:
            block = np.broadcast_to(block[:, :1], (len(block), self.channels))
        return np.ascontiguousarray(block)
