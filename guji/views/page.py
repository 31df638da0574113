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
players: each variant alone, then each compare mode with its schedule. The
HTML is written by :mod:`guji.views.page_html`, in the chosen language.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from ..defaults import RATE
from ..text.collation.align import check_patterns
from ..text.reading.names import LETTERS, file_stem
from ..compare.comparison import Comparison
from ..compare.modes import MODES, compare
from ..timing.layout import perform
from ..timing.performance import Performance, Timing
from ..page_words import _, ngettext
from .embed import data_uri, single_file_target
from .follow import follow_data
from .page_html import (MODE_TEXT, Track, alignment_summary, alignment_table, build_html,
                        mode_description, mode_heading, variant_description, variant_heading)
from ..errors import UsageError
from ..text.reading.notation import Pattern
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

def variant_filename(index: int, pattern: Pattern, ext: str) -> str:
    """``a-lu-1-liji-zhengyi.flac``: the letter, then the pattern's file stem
    (:func:`guji.text.reading.names.file_stem`, ASCII and lower case: a name for the web)."""
    letter = LETTERS[index % 26].lower()
    return f"{letter}-{file_stem(pattern, lower=True, ascii_only=True)}.{ext}"


def mode_filename(mode: str, ext: str) -> str:
    return f"compare-{mode}.{ext}"


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
            said.append(_page_line(len(tracks)))
    except BaseException:
        if made:            # a failed page leaves no folder it made (Ctrl-C included)
            shutil.rmtree(folder, ignore_errors=True)
        raise
    for line in said if progress else ():
        progress(_("wrote {name}").format(name=folder / line))
    return folder / "index.html"


def _page_line(players: int) -> str:
    """``index.html: the page, 5 players``: what the progress says of the page."""
    return ngettext("index.html: the page, {n} player", "index.html: the page, {n} players",
                    players).format(n=players)


def _checked(patterns: Sequence[Pattern], modes: Sequence[str],
             audio_format: str) -> list[Pattern]:
    """The patterns as a list, once the format, the patterns and the modes are
    known good (:class:`UsageError` otherwise)."""
    if audio_format not in AUDIO_FORMATS:
        raise UsageError(_("unknown audio format {format!r}: use one of {formats}").format(
            format=audio_format, formats=", ".join(AUDIO_FORMATS)))
    patterns = list(patterns)
    if not patterns:
        raise UsageError(_("a page needs at least one pattern"))
    for m in modes:
        if m not in MODES:
            raise UsageError(_("unknown compare mode {mode!r}: use one of {modes}").format(
                mode=m, modes=", ".join(MODES)))
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
            said.append(ngettext("{name}: {seconds} s; {n} stroke; {format}",
                                 "{name}: {seconds} s; {n} strokes; {format}",
                                 performance.stroke_count).format(
                name=name, seconds=f"{duration:.1f}", n=performance.stroke_count,
                format=audio_format.upper()))
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
        tracks.append(Track(f"variant-{LETTERS[i % 26].lower()}", variant_heading(i, p),
                            name, mime, duration,
                            description=variant_description(p, timing, n),
                            follow=follow_data(performance, patterns)))
    if len(patterns) >= 2:
        for mode in modes:
            c: Comparison = compare(patterns, mode, timing)
            name = mode_filename(mode, ext)
            duration = write(name, c.performance)
            tracks.append(Track(f"compare-{mode}", mode_heading(mode), name, mime, duration,
                                schedule=c.schedule_text(), description=mode_description(mode),
                                follow=follow_data(c.performance, patterns)))
    return tracks


def _write_html(index: Path, page: str, progress: Callable[[str], None] | None = None) -> Path:
    """Write *page* to *index* atomically; its path."""
    with writing(index) as tmp:
        Path(tmp).write_text(page, encoding="utf-8")
    if progress:
        progress(_("wrote {name}: the page, in one file").format(name=index))
    return index


__all__ = ["AUDIO_FORMATS", "DEFAULT_AUDIO_FORMAT", "MODE_TEXT", "Track", "alignment_summary",
           "alignment_table", "build_html", "mode_filename", "variant_filename", "write_page"]
