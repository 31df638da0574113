"""Blocks rendered ahead of the sound card, by a thread of their own.

The audio callback must never wait: not for the renderer, not for a lock
another thread holds while the scheduler has put it aside. So rendering
happens on a *feeder* thread (:class:`BlockRing`), which pulls blocks from
the renderer and keeps up to *ahead* seconds of them queued; the callback
takes them with :meth:`BlockRing.take` and says how many frames it used with
:meth:`BlockRing.used`. The two share a ``collections.deque`` (``append`` and
``popleft`` are atomic) and two counters, each written by one side only: no
lock at all.

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
from typing import Any, Iterable, Iterator

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

    def take(self):
        """The next ``(block, [(offset, payload), …])``, :data:`END` after the
        last, or ``None`` when nothing is ready (the renderer is late)."""
        try:
            return self._queue.popleft()
        except IndexError:
            return None

    def used(self, frames: int) -> None:
        """The callback played *frames* more frames of the blocks."""
        self._consumed += frames

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
