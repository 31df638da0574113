"""A page to share: pictures, alignment and audio of a comparison, in one folder.

``guji page A B … -o DIR/`` writes ``DIR/index.html`` and, beside it, one
audio file for each variant and one for each compare mode
(:mod:`guji.compare.modes`). The page needs nothing else: the pictures are inline
SVG (:mod:`guji.views.draw`), the style and the one small script are inline
(the script lights the stroke sounding now as a player plays:
:mod:`guji.views.follow`; without scripts the page works the same, unlit),
there is no font download, no network address at all; the ``<audio>``
elements name their files by relative paths. So the folder can be zipped,
mailed, put on any web server, or opened straight from the file system
(``file://``). With ``--single-file`` (*single_file*) the audio goes inside
the page itself, as ``data:`` URIs: one ``.html`` file holds everything.

Audio format
------------
FLAC by default: lossless, so each file lasts exactly its render's length,
and every current browser plays it (Chrome, Edge, Firefox, Safari 11+).
``ogg`` (Vorbis; smaller, but not in older Safari) and ``wav`` (everywhere,
largest) can be chosen.

The page holds, in order: the patterns as the sources write them, the
aligned timeline, for each variant against A the alignment (a table of the
aligned strokes with the differences marked, and the counts), then the
players: each variant alone, then each compare mode with its schedule.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Sequence

from ..defaults import RATE
from .. import __version__
from ..text.collation.align import align_patterns, check_patterns
from ..text.collation.grid import Cell, HalfColumn, align_many
from ..text.reading.names import LETTERS, file_stem, part_name
from ..compare.comparison import Comparison
from ..compare.modes import MODES, compare
from ..timing.layout import perform
from ..timing.performance import Performance, Timing
from .embed import data_uri, single_file_target
from .page_markup import STYLE as _STYLE, e as _e, zh as _zh
from .follow import SCRIPT as FOLLOW_SCRIPT, STYLE as FOLLOW_STYLE, follow_data
from .legend import pattern_title
from .source import source_drawing
from .timeline import timeline_drawing
from ..errors import UsageError
from ..text.reading.notation import HALF, Pattern
from ..files import make_folder, writing
from ..temporary import staged

#: Audio formats of the page: extension → (MIME type for ``<source type>``,
#: libsndfile format, libsndfile subtype), all written by :func:`guji.sound.files.write_audio`.
AUDIO_FORMATS: dict[str, tuple[str, str, str | None]] = {
    "flac": ("audio/flac", "FLAC", "PCM_16"),
    "ogg": ("audio/ogg; codecs=vorbis", "OGG", "VORBIS"),
    "wav": ("audio/wav", "WAV", "PCM_16"),
}
DEFAULT_AUDIO_FORMAT = "flac"

#: What each mode is, for the page (one line each).
MODE_TEXT = {
    "sequence": "A in full, a short gap with a soft bell, then B (then C …).",
    "alternate": "Pass by pass: A's pass, then B's, round after round.",
    "stereo": "Together on one grid: A in the left ear, B in the right (headphones help).",
    "diff": "A alone, with a soft bell on each stroke where another reading differs.",
}


@dataclass(frozen=True)
class Track:
    """One audio player of the page.

    Attributes
    ----------
    key:
        ``variant-a`` … or ``compare-sequence`` …
    heading:
        What the player is called on the page.
    filename:
        The audio file, relative to the page.
    mime:
        Its MIME type (for ``<source type>``).
    duration:
        Seconds of audio in the file.
    schedule:
        Lines saying what plays when (may be empty).
    description:
        One sentence about it.
    follow:
        What the player plays, for the script that lights the stroke
        sounding now (:func:`guji.views.follow.follow_data`; empty: none).
    src:
        The audio itself as a ``data:`` URI, in a single-file page (``None``:
        the file beside the page).
    """

    key: str
    heading: str
    filename: str
    mime: str
    duration: float
    schedule: str = ""
    description: str = ""
    follow: str = ""
    src: str | None = None

    @property
    def source(self) -> str:
        """What ``<source src>`` names: the file, or the audio itself (a data URI)."""
        return self.src if self.src is not None else self.filename


def variant_filename(index: int, pattern: Pattern, ext: str) -> str:
    """``a-lu-1-liji-zhengyi.flac``: the letter, then the pattern's file stem
    (:func:`guji.text.reading.names.file_stem`, ASCII and lower case: a name for the web)."""
    letter = LETTERS[index % 26].lower()
    return f"{letter}-{file_stem(pattern, lower=True, ascii_only=True)}.{ext}"


def mode_filename(mode: str, ext: str) -> str:
    return f"compare-{mode}.{ext}"


# -- HTML ------------------------------------------------------------------------



def alignment_table(a: Pattern, b: Pattern, letter_b: str = "B") -> str:
    """An HTML table of A and B aligned column by column, differences marked
    (the columns of :meth:`Grid.walk_with_halves <guji.text.collation.grid.Grid.walk_with_halves>`)."""
    rows = ([f"<th>A {_e(a.id)}</th>"], [f"<th>{_e(letter_b)} {_e(b.id)}</th>"])
    for column in align_many([a, b]).walk_with_halves():
        if isinstance(column, HalfColumn):
            for r in (0, 1):
                rows[r].append(f'<td class="half">{HALF if column.rows[r] else ""}</td>')
            continue
        differs = column.cells[1].differs
        for r, cell in enumerate(column.cells[:2]):
            rows[r].append(_alignment_cell(cell, differs))
    return ('<table class="alignment">\n<tr>' + "".join(rows[0]) + "</tr>\n<tr>"
            + "".join(rows[1]) + "</tr>\n</table>\n")


def _alignment_cell(cell: Cell, differs: bool) -> str:
    """One ``<td>`` of :func:`alignment_table`: the glyph (``―`` for a gap),
    its stroke number, drum and source position as a tooltip."""
    cls = ["differs"] if differs else []
    if cell.stroke is None:
        cls.append("gap")
        text, title = "―", ""
    else:
        text = cell.stroke.glyph
        title = (f' title="stroke {cell.index + 1} {cell.stroke.drum.value}, '
                 f'source {cell.stroke.location}"')
    cls_attr = f' class="{" ".join(cls)}"' if cls else ""
    return f"<td{cls_attr}{title}>{text}</td>"


def _plural(n: int, word: str) -> str:
    """``1 pass``, ``2 passes``, ``3 strokes``."""
    suffix = "" if n == 1 else ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")
    return f"{n} {word}{suffix}"


def alignment_summary(a: Pattern, b: Pattern) -> str:
    al = align_patterns(a, b)
    if al.identical:
        return "identical"
    return f"{al.counts_text()} (edit distance {al.distance}, from A)"


def build_html(patterns: Sequence[Pattern], timing: Timing, tracks: Sequence[Track],
               *, title: str | None = None) -> str:
    """The page (a complete HTML document) for *patterns* and their audio *tracks*.

    Pure: it names the audio files but reads none.
    """
    patterns = list(patterns)
    title = title or ("guji: " + " · ".join(part_name(p) for p in patterns))
    out = ["<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
           '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
           f"<title>{_e(title)}</title>\n<style>{_STYLE}{FOLLOW_STYLE}</style>\n</head>\n"
           "<body>\n<main>\n",
           f"<h1>{_zh(title)}</h1>\n"]
    out.append("<ul>\n" + "".join(
        f"<li><b>{LETTERS[i % 26]}</b> <code>{_e(p.id)}</code> — {_zh(pattern_title(p))}: "
        f"{_zh(p.notation())}</li>\n" for i, p in enumerate(patterns)) + "</ul>\n")
    out.append(f'<p class="note">Played as {_zh(timing.rite.chinese)} ({_e(timing.rite.value)}'
               f"{': from ' + _zh('半') + ' to the end' if timing.rite.value == 'touhu' else ': the whole pattern'}"
               f"), one stroke every {timing.interval:g} s ({_zh('間若一')}), "
               f"{_plural(timing.repeat, 'pass')}"
               f"{f', {timing.count_in} count-in clicks' if timing.count_in else ''}. "
               f"{_zh('○')} is the {_zh('鼙')} (small drum), {_zh('□')} the {_zh('鼓')} "
               "(big drum).</p>\n")

    out.append("<h2>As the sources write them</h2>\n")
    out.append('<figure class="picture" id="source" tabindex="0" role="region" '
               'aria-label="The patterns as the sources write them">\n'
               + source_drawing(patterns).svg() + "</figure>\n")
    out.append("<h2>Aligned</h2>\n")
    out.append('<figure class="picture" id="timeline" tabindex="0" role="region" '
               'aria-label="The aligned timeline">\n'
               + timeline_drawing(patterns).svg() + "</figure>\n")
    for i, p in enumerate(patterns[1:], start=1):
        letter = LETTERS[i % 26]
        out.append(f"<h3>A against {letter}: {_e(alignment_summary(patterns[0], p))}</h3>\n")
        out.append(f'<div class="scroll" tabindex="0" role="region" lang="zh-Hant" '
                   f'aria-label="A against {letter}, stroke by stroke">\n'
                   + alignment_table(patterns[0], p, letter) + "</div>\n")

    out.append("<h2>Listen</h2>\n")
    out += [_player_html(t) for t in tracks]
    out.append(f'<p class="note">Made with guji {_e(__version__)}: '
               f"the {_zh('投壺')} drum scores of the {_zh('禮記')}.</p>\n</main>\n")
    if any(t.follow for t in tracks):
        out.append(f"<script>{FOLLOW_SCRIPT}</script>\n")
    out.append("</body>\n</html>\n")
    return "".join(out)


def _player_html(t: Track) -> str:
    """One player of the page: its heading, description, ``<audio>`` and schedule."""
    out = []
    out.append(f'<div class="player" id="{_e(t.key)}">\n<h3>{_zh(t.heading)}</h3>\n')
    if t.description:
        out.append(f"<p>{_zh(t.description)}</p>\n")
    follow = f' data-follow="{_e(t.follow)}"' if t.follow else ""
    out.append(f'<audio controls preload="metadata" aria-label="{_e(t.heading)}" '
               f'data-duration="{t.duration:.6f}"'
               f'{follow}><source src="{_e(t.source)}" type="{_e(t.mime)}">'
               f'<a href="{_e(t.source)}" download="{_e(t.filename)}">{_e(t.filename)}'
               f'</a></audio>\n')
    if t.schedule:
        lines = "\n".join(_zh(line) for line in t.schedule.rstrip().split("\n"))
        out.append(f'<pre class="schedule" tabindex="0" role="region" '
                   f'aria-label="What plays when: {_e(t.heading)}">{lines}</pre>\n')
    out.append("</div>\n")
    return "".join(out)


# -- writing ---------------------------------------------------------------------

def write_page(directory: str | os.PathLike, patterns: Sequence[Pattern],
               timing: Timing = Timing(), *, modes: Sequence[str] = MODES,
               audio_format: str = DEFAULT_AUDIO_FORMAT, kit=None, rate: int = RATE,
               progress: Callable[[str], None] | None = None,
               single_file: bool = False) -> Path:
    """Write ``index.html`` and its audio files into *directory*.

    Parameters
    ----------
    directory:
        Created if missing (its parent must exist), and removed again if
        the page fails. The page is made in a temporary folder inside it,
        then its files are moved in together (:func:`guji.temporary.staged`):
        files of the same names are replaced all at once, or, on a failure
        or a stop, none are. With
        *single_file*: the ``.html`` file to write (a folder, existing or
        ending in ``/``: its ``index.html``).
    patterns:
        Two or more variants, A first (one pattern: only its own player).
    timing:
        How every variant is played.
    modes:
        The compare modes to include (default: all of :data:`guji.compare.modes.MODES`).
    audio_format:
        A key of :data:`AUDIO_FORMATS`.
    kit, rate:
        Passed to :func:`guji.sound.files.write_audio`.
    progress:
        Called with a line as each file is written.
    single_file:
        Put the audio inside the page (``data:`` URIs): one file to mail.

    Returns
    -------
    Path
        The ``index.html`` (or single file) written.
    """
    patterns = _checked(patterns, modes, audio_format)
    if single_file:
        page = single_file_target(directory)
        with tempfile.TemporaryDirectory(prefix="guji-page-") as tmp:
            write = _audio_writer(Path(tmp), audio_format, kit, rate, None)
            tracks = [replace(t, src=data_uri(Path(tmp) / t.filename, t.mime)) for t in
                      _write_players(patterns, timing, modes, audio_format, write)]
        return _write_html(page, build_html(patterns, timing, tracks), progress)
    folder, made = make_folder(directory)
    said: list[str] = []
    try:     # made beside, then moved in as a whole: the old page, or the new one
        with staged(folder) as stage:
            write = _audio_writer(stage, audio_format, kit, rate, said)
            tracks = _write_players(patterns, timing, modes, audio_format, write)
            _write_html(stage / "index.html", build_html(patterns, timing, tracks))
            said.append(f"index.html: the page, {len(tracks)} players")
    except BaseException:
        if made:            # a failed page leaves no folder it made (Ctrl-C included)
            shutil.rmtree(folder, ignore_errors=True)
        raise
    for line in said if progress else ():
        progress(f"wrote {folder / line}")
    return folder / "index.html"


def _checked(patterns: Sequence[Pattern], modes: Sequence[str],
             audio_format: str) -> list[Pattern]:
    """The patterns as a list, once the format, the patterns and the modes are
    known good (:class:`UsageError` otherwise)."""
    if audio_format not in AUDIO_FORMATS:
        raise UsageError(f"unknown audio format {audio_format!r}: use one of "
                         f"{', '.join(AUDIO_FORMATS)}")
    patterns = list(patterns)
    if not patterns:
        raise UsageError("a page needs at least one pattern")
    for m in modes:
        if m not in MODES:
            raise UsageError(f"unknown compare mode {m!r}: use one of {', '.join(MODES)}")
    for other in patterns[1:]:          # the page aligns A with each, after the audio
        check_patterns(patterns[0], other)
    return patterns


def _audio_writer(folder: Path, audio_format: str, kit, rate: int, said: list[str] | None
                  ) -> Callable[[str, Performance], float]:
    """A function writing a performance to ``folder/name`` in *audio_format*
    (:func:`guji.sound.files.write_audio`), adding ``NAME: WHAT`` to *said*,
    and returning the seconds of audio written."""
    from ..sound.files import write_audio
    import soundfile

    subtype = AUDIO_FORMATS[audio_format][2]

    def write(name: str, performance: Performance) -> float:
        path = folder / name
        write_audio(path, performance, kit=kit, rate=rate, format=audio_format, subtype=subtype)
        with open(path, "rb") as f:           # any name: libsndfile takes no surrogates
            duration = soundfile.info(f).duration
        if said is not None:
            said.append(f"{name}: {duration:.1f} s; {performance.stroke_count} strokes; "
                        f"{audio_format.upper()}")
        return duration

    return write


def _write_players(patterns: Sequence[Pattern], timing: Timing, modes: Sequence[str],
                   ext: str, write: Callable[[str, Performance], float]) -> list[Track]:
    """Write (with *write*) the audio of each variant alone, then, with two or
    more variants, of each compare mode; the :class:`Track` of each, in that
    order. *ext* is the audio format (a key of :data:`AUDIO_FORMATS`)."""
    mime = AUDIO_FORMATS[ext][0]
    tracks: list[Track] = []
    for i, p in enumerate(patterns):
        score = timing.score(p)
        name = variant_filename(i, p, ext)
        performance = perform(p, timing)
        duration = write(name, performance)
        n = score.per_pass
        tracks.append(Track(f"variant-{LETTERS[i % 26].lower()}",
                            f"{LETTERS[i % 26]}: {part_name(p)}", name, mime, duration,
                            description=f"{pattern_title(p)} — {n} strokes a pass, "
                                        f"{p.notation(timing.rite)}",
                            follow=follow_data(performance, patterns)))
    if len(patterns) >= 2:
        for mode in modes:
            c: Comparison = compare(patterns, mode, timing)
            name = mode_filename(mode, ext)
            duration = write(name, c.performance)
            tracks.append(Track(f"compare-{mode}", f"compare: {mode}", name, mime, duration,
                                schedule=c.schedule_text(), description=MODE_TEXT[mode],
                                follow=follow_data(c.performance, patterns)))
    return tracks


def _write_html(index: Path, page: str, progress: Callable[[str], None] | None = None) -> Path:
    """Write *page* to *index* atomically; its path."""
    with writing(index) as tmp:
        Path(tmp).write_text(page, encoding="utf-8")
    if progress:
        progress(f"wrote {index}: the page, in one file")
    return index
