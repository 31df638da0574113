"""Comparing readings by ear: the modes of ``guji compare`` and of the shared page.

Built on the timing stage, as a command's feature above it:

* :mod:`guji.compare.modes` — :func:`~guji.compare.modes.compare` and its four
  modes (``sequence``: A, a bell, B …; ``alternate``: pass by pass;
  ``stereo``: at once, A left and B right; ``diff``: A alone with a soft bell
  on every place the others differ), each a
  :class:`~guji.timing.performance.Performance` laid out by
  :mod:`guji.timing.layout`;
* :mod:`guji.compare.comparison` — what a mode gives back
  (:class:`~guji.compare.comparison.Comparison`: the performance, the
  schedule lines a listener reads, ``diff``'s marks).

``from guji.compare import compare, MODES``.
"""

from __future__ import annotations

from .comparison import Comparison, Entry, Mark
from .modes import MODES, compare

__all__ = ["MODES", "Comparison", "Entry", "Mark", "compare"]
