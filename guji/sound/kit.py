"""Kits: the four voices together, and kit files.

A :class:`Kit` holds the :class:`~guji.sound.synth.VoiceParams` of the four
voices (鼙, 鼓, the count-in click, the cue bell), with their pans and
levels; :func:`default_kit` is the synthesised one. :func:`one_shot` gives
the sound of one hit of a voice of a kit (made and cached by
:mod:`guji.sound.oneshot`). :func:`load_kit` reads a kit from a kit file or a
directory of recordings, :func:`kit_to_toml` writes one, and
:func:`write_samples` writes the shipped ``samples/`` directory.

Kit files
---------
A kit file is TOML with one table per voice (``[small]`` or ``["鼙"]``,
``[big]`` or ``["鼓"]``, ``[click]``, ``[cue]``; TOML wants the Chinese
names quoted); each key is a :class:`VoiceParams` field, and what a table
leaves out keeps the default::

    name = "my kit"
    ["鼓"]
    fundamental = 110.0
    level = -3.0
    pan = 0.5
    ["鼙"]
    sample = "recordings/pi.flac"   # a recording instead of synthesis

``python -m guji.sound.kit --write-samples DIR`` writes the default kit as such a
file (``default-kit.toml``, every parameter with its meaning) beside the
one-shot WAV of each voice.

A directory of recordings is a kit too: ``small.wav`` (or ``鼙.*``, ``pi.*``)
and ``big.wav`` (or ``鼓.*``, ``gu.*``), optionally ``click.*`` and ``cue.*``;
WAV, FLAC or OGG, any sample rate (resampled), mono or stereo (folded to
mono; the kit's pan places it).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..i18n import _
from ..defaults import RATE
from ..errors import UsageError, escape_controls
from ..files import reason
from ..timing.performance import VOICE_NAMES, Voice
from .oneshot import check_rate, voice_one_shot
from .recordings import RECORDING_EXTENSIONS
from .kitdoc import PARAMETER_HELP, READINGS, TITLES as _TITLES
from .strokes import stroke_params
from .synth import DEFAULT_BIG, DEFAULT_CLICK, DEFAULT_CUE, DEFAULT_SMALL, VoiceParams

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_FIELD = {Voice.SMALL: "small", Voice.BIG: "big", Voice.CLICK: "click", Voice.CUE: "cue"}


@dataclass(frozen=True)
class Kit:
    """The four voices, each with its own parameters, pan and level.

    Index a kit by voice: ``kit[Voice.BIG].pan``.

    Attributes
    ----------
    small, big, click, cue:
        The :class:`VoiceParams` of 鼙, 鼓, the count-in click and the cue bell.
    rate:
        The sample rate the kit was prepared for (recordings are checked by
        resampling to it when the kit is loaded; :func:`one_shot` renders
        any rate).
    name:
        A name to show (the kit file's, or ``"default"``).
    strike:
        ``"vary"`` (each stroke of a drum one of its variants, chosen by its
        place: :mod:`guji.sound.strokes`) or ``"exact"`` (every stroke the
        kit's own hit).
    room:
        ``"dry"``, ``"hall"``, ``"court"`` or an impulse response file
        (:mod:`guji.sound.room`).
    loudness:
        The integrated loudness a render is made to (LUFS, through the
        true-peak limiter: :mod:`guji.sound.level`), or ``None`` (off: the
        peak rule of :mod:`guji.sound.headroom`).
    """

    small: VoiceParams = DEFAULT_SMALL
    big: VoiceParams = DEFAULT_BIG
    click: VoiceParams = DEFAULT_CLICK
    cue: VoiceParams = DEFAULT_CUE
    rate: int = RATE
    name: str = "default"
    strike: str = "vary"
    room: str = "dry"
    loudness: float | None = None

    def __getitem__(self, voice: Voice) -> VoiceParams:
        return getattr(self, _FIELD[Voice(voice)])

    def with_voice(self, voice: Voice, params: VoiceParams) -> "Kit":
        """A copy with *voice* replaced by *params*."""
        return dataclasses.replace(self, **{_FIELD[voice]: params})

    def to_toml(self) -> str:
        """The kit as a kit file (TOML), every parameter with its meaning."""
        return kit_to_toml(self)


def default_kit(rate: int = RATE) -> Kit:
    """The synthesised kit (see :data:`~guji.sound.synth.DEFAULT_SMALL`,
    :data:`~guji.sound.synth.DEFAULT_BIG` …)."""
    return Kit(rate=check_rate(rate))


def one_shot(kit: Kit | None, voice: Voice, rate: int, variant: int | None = None) -> np.ndarray:
    """The sound of one hit of *voice* in *kit* at *rate*: mono float32, read-only.

    Its first sample is the onset (a render puts it on sample
    ``round(t × rate)``); its peak is the voice's ``level``. The result is
    cached: asking again costs nothing. *variant*: one of the drum's strokes
    (:func:`guji.sound.strokes.stroke_params`), ``None`` the kit's own hit.
    """
    kit = kit if kit is not None else default_kit()
    params = kit[Voice(voice)]
    return voice_one_shot(params if variant is None else stroke_params(params, variant), rate)


# -- kit files -----------------------------------------------------------------

_FIELDS = {f.name for f in dataclasses.fields(VoiceParams)}


def load_kit(path_or_dir: str | os.PathLike, rate: int = RATE) -> Kit:
    """Load a kit: a TOML kit file, or a directory of recordings.

    Parameters
    ----------
    path_or_dir:
        A ``.toml`` kit file (see the module docstring: one table per voice,
        keys are :class:`VoiceParams` fields, ``sample`` paths relative to the
        file), or a directory holding ``small.*`` / ``鼙.*`` / ``pi.*`` and
        ``big.*`` / ``鼓.*`` / ``gu.*`` recordings (WAV, FLAC, OGG),
        optionally ``click.*`` and ``cue.*``.
    rate:
        The sample rate the kit will be used at; every recording is read and
        resampled once now, so a bad one is reported at once.

    Raises
    ------
    UsageError
        Naming the file, when the kit cannot be used: no such path, bad TOML,
        an unknown voice or parameter, a bad value, an unreadable or silent
        recording, a directory without a 鼙 and a 鼓.
    """
    rate = check_rate(rate)
    p = Path(path_or_dir)
    try:
        os.stat(p)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as e:       # a name too long, a NUL in it
        raise UsageError(_('{value}: cannot read: {value2}').format(value=escape_controls(str(p)), value2=reason(e) if isinstance(e, OSError) else 'a NUL in the name')) \
            from None
    if p.is_dir():
        kit = _kit_from_directory(p, rate)
    elif p.is_file():
        kit = _kit_from_toml(p, rate)
    elif not p.exists():
        raise UsageError(_('{p}: no such kit (give a kit file .toml or a directory of recordings)').format(p=p))
    else:
        raise UsageError(_('{p}: not a kit file or directory').format(p=p))
    for voice in Voice:
        if kit[voice].sample is not None:
            one_shot(kit, voice, rate)   # read and check every recording now
    return kit


#: The largest kit file read (a kit file of every parameter is about 3 kB).
MAX_KIT_BYTES = 2 ** 20


def _read_toml(path: Path) -> dict:
    """The TOML of a kit file, measured before it is read (:data:`MAX_KIT_BYTES`)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_KIT_BYTES + 1)
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(_('{path}: a kit file must be UTF-8 TOML').format(path=path)) from None
    except OSError as e:
        raise UsageError(_('{path}: cannot read: {strerror}').format(path=path, strerror=e.strerror)) from None
    if len(raw) > MAX_KIT_BYTES:
        raise UsageError(_('{path}: over {value} kB: not a kit file').format(path=path, value=MAX_KIT_BYTES // 1024))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(_('{path}: not a valid kit file: {e}').format(path=path, e=e)) from None
    except RecursionError:
        raise UsageError(_('{path}: not a valid kit file: arrays or tables nested too deep').format(path=path)) \
            from None


def _kit_from_toml(path: Path, rate: int) -> Kit:
    data = _read_toml(path)
    kit = Kit(rate=rate, name=path.stem)
    tables: dict[Voice, str] = {}
    for key, value in data.items():
        if key == "name":
            if not isinstance(value, str):
                raise UsageError(_('{path}: name must be a string').format(path=path))
            kit = dataclasses.replace(kit, name=value)
            continue
        try:
            voice = Voice.from_name(key)
        except UsageError as e:
            raise UsageError(f"{path}: {e}") from None
        if voice in tables:
            raise UsageError(_('{path}: [{value}] and [{value2}] are both the {value3}: give one table per voice').format(path=path, value=_quoted(tables[voice]), value2=_quoted(key), value3=voice.value))
        tables[voice] = key
        if not isinstance(value, dict):
            raise UsageError(_('{path}: [{key}] must be a table of voice parameters').format(path=path, key=key))
        unknown = sorted(set(value) - _FIELDS)
        if unknown:
            raise UsageError(_('{path}: [{key}] unknown parameter {value} (known: {value2})').format(path=path, key=key, value=repr(unknown[0]), value2=', '.join(sorted(_FIELDS))))
        changes = dict(value)
        if "sample" in changes:
            sample = changes["sample"]
            if not isinstance(sample, str) or not sample:
                raise UsageError(_('{path}: [{key}] sample must be the path of a recording').format(path=path, key=key))
            if "\0" in sample:
                raise UsageError(_('{path}: [{key}] sample {value} holds a NUL character: no file can have that name').format(path=path, key=key, value=escape_controls(sample)))
            try:
                changes["sample"] = str((path.parent / Path(sample).expanduser()).resolve())
            except (OSError, RuntimeError):     # a loop of links (RuntimeError before 3.13)
                raise UsageError(_('{path}: [{key}] sample {value}: too many levels of symbolic links').format(path=path, key=key, value=escape_controls(sample))) from None
        for name in ("mode_ratios", "mode_gains", "mode_decays"):
            if name in changes and not isinstance(changes[name], list):
                raise UsageError(_('{path}: [{key}] {name} must be a list of numbers').format(path=path, key=key, name=name))
        try:
            params = kit[voice].replace(**changes)
        except (ValueError, TypeError) as e:
            raise UsageError(f"{path}: [{key}] {e}") from None
        kit = kit.with_voice(voice, params)
    return kit


def _quoted(key: str) -> str:
    """A table name as TOML writes it (``small``, ``"鼙"``)."""
    return key if key.isascii() and key.replace("_", "").replace("-", "").isalnum() \
        else f'"{escape_controls(key)}"'


def _kit_from_directory(directory: Path, rate: int) -> Kit:
    kit = Kit(rate=rate, name=directory.name or str(directory))
    entries = sorted(directory.iterdir())
    for voice, names in VOICE_NAMES.items():
        found = [e for e in entries if e.is_file() and e.suffix.lower() in RECORDING_EXTENSIONS
                 and _take(e.stem.lower(), names) is not None]
        numbers = [_take(e.stem.lower(), names) for e in found]
        if len(set(numbers)) < len(numbers):
            raise UsageError(_('{directory}: more than one recording of {value}: {value2}').format(
                directory=directory, value=voice.value, value2=', '.join(f.name for f in found)))
        if not found:
            if voice in (Voice.SMALL, Voice.BIG):
                wanted = " or ".join(f"{n}.wav" for n in names)
                raise UsageError(_("{directory}: no recording of the {voice} ({wanted}, or "
                                   "{first}-1.wav, {first}-2.wav …; .flac and .ogg also do)").format(
                    directory=directory, voice=voice.value, wanted=wanted, first=names[0]))
            continue
        paths = [str(f.resolve()) for _n, f in sorted(zip(numbers, found))]
        kit = kit.with_voice(voice, kit[voice].replace(sample=paths[0],
                                                       more_samples=tuple(paths[1:])))
    return kit


def _take(stem: str, names) -> int | None:
    """The number of a recording named *stem* of a voice called *names*: 0 for
    ``small``, *n* for ``small-n`` (one of several: :mod:`guji.sound.strokes`)."""
    if stem in names:
        return 0
    name, dash, number = stem.rpartition("-")
    return int(number) if dash and name in names and number.isdigit() and len(number) < 5 \
        else None


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        import json
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def kit_to_toml(kit: Kit) -> str:
    """*kit* as a kit file: one commented table per voice, every parameter."""
    lines = ["# A guji kit file: one table per voice; every key is a voice parameter.",
             "# Load it with --kit FILE. Keys left out keep the default.",
             "# Regenerate: python -m guji.sound.kit --write-samples samples/",
             "",
             f"name = {_toml_value(kit.name)}"]
    width = max(len(n) for n in _FIELDS)
    for voice in Voice:
        params = kit[voice]
        lines += ["", f"# {_TITLES[voice]}", f"[{_FIELD[voice]}]"]
        for f in dataclasses.fields(VoiceParams):
            value = getattr(params, f.name)
            if value is None or value == ():
                continue
            reading = READINGS.get(voice, {}).get(f.name)
            lines.append(f"{f.name:<{width}} = {_toml_value(value)}"
                         f"  # {PARAMETER_HELP[f.name]}" + (f" — {reading}" if reading else ""))
    return "\n".join(lines) + "\n"


# -- samples/ -----------------------------------------------------------------------

#: The one-shot files of samples/: voice → file name.
SAMPLE_FILES = {Voice.SMALL: "small.wav", Voice.BIG: "big.wav", Voice.CLICK: "click.wav",
                Voice.CUE: "cue.wav"}
SAMPLE_RATE = 48000
SAMPLE_SUBTYPE = "PCM_24"
KIT_FILE = "default-kit.toml"


def write_samples(directory: str | os.PathLike, kit: Kit | None = None) -> list[Path]:
    """Write the one-shot WAV of each voice (48 kHz, 24-bit, mono) and the kit file.

    This is how ``samples/`` is made: ``python -m guji.sound.kit --write-samples
    samples/``. The same code writes the same bytes.
    """
    import soundfile as sf
    from ..files import make_folder, writing

    kit = kit or default_kit(SAMPLE_RATE)
    out, _ = make_folder(directory, parents=True)
    written = []
    for voice, name in SAMPLE_FILES.items():
        target = out / name
        with writing(target) as tmp:
            sf.write(tmp.open(), one_shot(kit, voice, SAMPLE_RATE), SAMPLE_RATE,
                     subtype=SAMPLE_SUBTYPE, format="WAV")
        written.append(target)
    target = out / KIT_FILE
    with writing(target) as tmp:
        tmp.open().write(kit_to_toml(kit).encode("utf-8"))
    written.append(target)
    return written


def _main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(
        prog="python -m guji.sound.kit",
        description=_('Write the default one-shot samples and kit file (the samples/ directory).'))
    parser.add_argument("--write-samples", metavar="DIR", required=True,
                        help=_('directory to write small.wav big.wav click.wav cue.wav {kit_file} into').format(kit_file=KIT_FILE))
    args = parser.parse_args(argv)
    for path in write_samples(args.write_samples):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
