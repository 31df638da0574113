"""One hit of a voice at a sample rate: synthesised or recorded, made once.

:func:`voice_one_shot` turns the :class:`~guji.sound.synth.VoiceParams` of a
voice into the samples of one hit at a rate: :func:`~guji.sound.synth.synthesize`
when it names no recording, else :func:`~guji.sound.recordings.recorded`. The
result is cached (a render asks for each voice once a part, a test many
times): the key is the parameters, the rate and, for a recording, the file's
modification time and size, so an edited recording is read again.

A synthesised hit is also kept on disk, in guji's cache folder
(``$GUJI_CACHE``, else each system's own place: ``$XDG_CACHE_HOME/guji`` or
``~/.cache/guji`` on Linux, ``~/Library/Caches/guji`` on macOS,
``%LOCALAPPDATA%\\guji\\Cache`` on Windows: :func:`guji.system.cache_home`), as
the very float32 samples synthesis made (a ``.npy`` file): the next command
loads it in a millisecond instead of synthesising again, and renders the
same bytes. The file's name is a hash of the parameters, the rate and the
source of :mod:`guji.sound.synth`, so a changed voice or a changed
synthesiser is synthesised afresh. A cached file is checked before it is used
(its header before any sample, then the samples: :func:`read_cached`) and
made afresh when it is not what guji wrote (a forged header, NaN); one is
written whole or not at all (a full disk leaves no temporary file). A cache
that cannot be read or written is passed over in silence (``GUJI_CACHE=off``
turns it off).

The sample rates guji renders and plays at are checked here
(:data:`MIN_RATE` … :data:`MAX_RATE`, :func:`check_rate`).
:func:`guji.sound.kit.one_shot` asks for a voice of a kit.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ..i18n import _
from ..defaults import MAX_RATE, MIN_RATE, check_rate  # noqa: F401 (re-exported)
from ..errors import UsageError
from .recordings import recorded
from .synth import VoiceParams, synthesize, without_dc

# the rates guji renders and plays at, and their check: one place (guji.defaults)


@functools.lru_cache(maxsize=64)
def _one_shot_cached(params: VoiceParams, rate: int, stamp: tuple) -> np.ndarray:
    if params.sample is not None:
        out = without_dc(recorded(params, rate).astype(np.float64)).astype(np.float32)
    else:
        out = _from_disk(params, rate)
        if out is None:
            out = synthesize(params, rate).astype(np.float32)
            _to_disk(params, rate, out)
    out.setflags(write=False)
    return out


def cache_folder() -> Path | None:
    """Where synthesised hits are kept (``None``: the cache is off)."""
    chosen = os.environ.get("GUJI_CACHE")
    if chosen:
        return None if chosen.lower() in ("off", "0", "no", "none") else Path(chosen)
    from .. import system
    folder = system.cache_home() / "guji"
    return folder / "Cache" if system.name() == "windows" else folder


@functools.lru_cache(maxsize=1)
def _synth_source_hash() -> str:
    from . import synth
    with open(synth.__file__, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _cache_file(params: VoiceParams, rate: int, kind: str = "hit") -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    made_by = _synth_source_hash() if kind == "hit" else _weighing_source_hash()
    key = hashlib.sha256(f"{params!r}|{rate}|{made_by}".encode()).hexdigest()
    return folder / f"{kind}-{key[:32]}.npy"


@functools.lru_cache(maxsize=1)
def _weighing_source_hash() -> str:
    """What a K-weighted hit is made by: the synthesiser, the K-weighting and its
    transform (:mod:`guji.sound.loudness`, :mod:`guji.sound.gauge`), numpy's version."""
    from . import gauge, loudness
    digest = hashlib.sha256(_synth_source_hash().encode() + np.__version__.encode())
    for module in (gauge, loudness):
        with open(module.__file__, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()


def _from_disk(params: VoiceParams, rate: int) -> np.ndarray | None:
    """The cached hit, or ``None`` when there is none or it is not what guji
    wrote (:func:`read_cached`): it is then synthesised and written afresh."""
    path = _cache_file(params, rate)
    if path is None:
        return None
    return read_cached(path, max(1, int(round(params.length * rate))))


def read_cached(path: Path, length: int, bound: float = 1.0) -> np.ndarray | None:
    """The float32 hit of *length* samples in the ``.npy`` file *path*, or ``None``
    unless the file is exactly that: its header read and checked before any
    sample (little-endian float32, one dimension of *length*, the file's size
    that of the header and the samples), then every sample finite and within
    ±*bound* (a hit's peak is at most 0 dBFS)."""
    try:
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            if version not in ((1, 0), (2, 0)):
                return None
            shape, fortran, dtype = (np.lib.format.read_array_header_1_0(f) if version == (1, 0)
                                     else np.lib.format.read_array_header_2_0(f))
            if shape != (length,) or dtype != np.dtype("<f4") or \
                    os.fstat(f.fileno()).st_size != f.tell() + 4 * length:
                return None
            x = np.fromfile(f, dtype="<f4", count=length)
    except (OSError, ValueError, EOFError):
        return None
    if len(x) != length or not np.all(np.abs(x) <= bound):    # NaN fails the test too
        return None
    return x


def _to_disk(params: VoiceParams, rate: int, x: np.ndarray, kind: str = "hit") -> None:
    """Keep *x* in the cache, whole or not at all: a full disk leaves no temporary file."""
    path = _cache_file(params, rate, kind)
    if path is None:
        return
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".hit-", suffix=".npy", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            np.save(f, x, allow_pickle=False)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


#: A K-weighted hit's samples are within this (the K-weighting's gain is at most
#: +4 dB, its ring small): a cached one beyond it is made afresh.
WEIGHTED_BOUND = 4.0


@functools.lru_cache(maxsize=64)
def _weighted_cached(params: VoiceParams, rate: int, stamp: tuple) -> np.ndarray:
    from .gauge import Weighing
    weigh = Weighing(rate, 1)
    out = None
    if params.sample is None:
        path = _cache_file(params, rate, "khit")
        length = max(1, int(round(params.length * rate))) + weigh.taps - 1
        out = None if path is None else read_cached(path, length, WEIGHTED_BOUND)
    if out is None:
        hit = _one_shot_cached(params, rate, stamp)
        out = np.ascontiguousarray(weigh.weighted([hit[:, None]], [(1.0,)])[0][:, 0])
        if params.sample is None and np.all(np.abs(out) <= WEIGHTED_BOUND):
            _to_disk(params, rate, out, "khit")
    out.setflags(write=False)
    return out


def weighted_one_shot(params: VoiceParams, rate: int) -> np.ndarray:
    """The hit of *params* at *rate* K-weighted (BS.1770), its ring included
    (:meth:`guji.sound.gauge.Weighing.weighted`): read-only float32, mono; kept
    like the hit (in memory, and on disk when synthesised)."""
    return _weighted_cached(params, check_rate(rate), _stamp(params))


def _stamp(params: VoiceParams) -> tuple:
    """What tells an edited recording from the one cached: its time and size."""
    if params.sample is None:
        return ()
    try:
        st = os.stat(params.sample)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return ("missing",)


def voice_one_shot(params: VoiceParams, rate: int) -> np.ndarray:
    """The samples of one hit of *params* at *rate* (read-only float32, mono)."""
    rate = check_rate(rate)
    try:
        return _one_shot_cached(params, rate, _stamp(params))
    except ValueError as e:
        raise UsageError(_('voice: {e}').format(e=e)) from None
