"""The shared page follows its players: the stroke sounding now is lit.

While one of the page's players plays, the stroke it is sounding is lit in
the drawing of the sources and in the timeline — the score follows the
sound, as the terminal's stroke display does for ``guji play``. Each
player's ``<audio>`` element carries, in ``data-follow``, what it plays
(:func:`follow_data`): for each part of its performance, the picture's row
of the pattern, the part's start, interval, count-in, length in events,
and the strokes of one pass (their places in the pattern). A small inline
script (:data:`SCRIPT`) reads the audio element's ``currentTime`` on every
frame while it plays (``requestAnimationFrame``; the ``timeupdate`` event
comes only about four times a second), works out the event sounding in each
part — the latest started, ``floor((t − start) / interval)``, within the
part's grid — and lights the shapes whose ``data-stroke`` is ``row-stroke``
(:func:`guji.views.svg.stroke_shape`) with the class ``sounding``. Pausing
keeps the light on the paused stroke; the end puts it out; starting one
player pauses the others.

Without scripts the page is the same page: the pictures, the tables and the
players all work; only the light does not move.
"""

from __future__ import annotations

import json
from typing import Sequence

from ..text.reading.notation import Pattern
from ..timing.performance import Performance

#: How a lit stroke looks (CSS, in the page's style).
STYLE = """
svg .stroke.sounding { fill: #ffb000; fill-opacity: 0.85; stroke: #7a3b00; }
"""

#: The script of the page (plain ES5-level JavaScript, no library, no network).
SCRIPT = """
(function () {
  "use strict";
  function sounding(parts, t) {
    var keys = [];
    parts.forEach(function (p) {
      var i = Math.floor((t - p.start) / p.interval + 1e-9);
      if (i < p.count_in || i >= p.events) { return; }
      keys.push(p.row + "-" + p.strokes[(i - p.count_in) % p.strokes.length]);
    });
    return keys;
  }
  var audios = Array.prototype.slice.call(document.querySelectorAll("audio[data-follow]"));
  var lit = [];
  function light(keys) {
    lit.forEach(function (el) { el.classList.remove("sounding"); });
    lit = [];
    keys.forEach(function (key) {
      document.querySelectorAll('[data-stroke="' + key + '"]').forEach(function (el) {
        el.classList.add("sounding");
        lit.push(el);
      });
    });
  }
  audios.forEach(function (audio) {
    var parts = JSON.parse(audio.getAttribute("data-follow"));
    var frame = 0, shown = null;
    function update() {
      var keys = sounding(parts, audio.currentTime);
      var key = keys.join(" ");
      if (key !== shown) { shown = key; light(keys); }
    }
    function follow() { update(); frame = window.requestAnimationFrame(follow); }
    audio.addEventListener("play", function () {
      audios.forEach(function (other) { if (other !== audio) { other.pause(); } });
      window.cancelAnimationFrame(frame);
      shown = null;
      follow();
    });
    audio.addEventListener("pause", function () { window.cancelAnimationFrame(frame); update(); });
    audio.addEventListener("seeked", update);
    audio.addEventListener("ended", function () {
      window.cancelAnimationFrame(frame);
      shown = null;
      light([]);
    });
  });
})();
"""


def row_of(pattern: Pattern, patterns: Sequence[Pattern]) -> int:
    """The row of *pattern* in the page's pictures (the same object, else an equal one)."""
    for k, p in enumerate(patterns):
        if p is pattern:
            return k
    return list(patterns).index(pattern)


def follow_parts(performance: Performance, patterns: Sequence[Pattern]) -> list[dict]:
    """What the script needs of each part of *performance* (see the module)."""
    out = []
    for part in performance.parts:
        score = part.score
        out.append({"row": row_of(score.pattern, patterns), "start": score.start,
                    "interval": score.interval, "count_in": score.count_in,
                    "events": len(score), "strokes": [s.index for s in score.played]})
    return out


def follow_data(performance: Performance, patterns: Sequence[Pattern]) -> str:
    """The ``data-follow`` attribute's value (JSON) of a player of *performance*."""
    return json.dumps(follow_parts(performance, patterns), separators=(",", ":"))
