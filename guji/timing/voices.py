"""Voices: what a sink sounds — the two drums, the count-in click, the cue bell.

:class:`Voice` names them; :data:`VOICE_NAMES` lists what a user may call
them (``--map``, ``--velocity``, ``--pan``, ``--mute``, kit files);
:data:`DRUMS` are the two of the sources (○ 鼙 and □ 鼓: 圜者擊鼙，方者擊鼓,
鄭注), the only ones a part can leave out (:func:`check_muted`).
"""

from __future__ import annotations

import enum

from ..i18n import _
from ..errors import UsageError
from ..text.reading.notation import Drum


class Voice(enum.Enum):
    """What a sink sounds: the two drums, the count-in click, and the cue bell.

    The click (count-in) and the cue (a soft bell: the gap between variants in
    ``compare sequence``, and the marked strokes of ``compare diff``) are not
    in the sources; they are guji's, and sound unlike either drum.
    """

    SMALL = "鼙"
    BIG = "鼓"
    CLICK = "click"
    CUE = "cue"

    @classmethod
    def from_name(cls, name: "str | Voice | Drum") -> "Voice":
        """The voice a user names (see :data:`VOICE_NAMES`, any case), or a
        :class:`Voice` or :class:`~guji.text.reading.notation.Drum` as is;
        :class:`~guji.errors.UsageError` for anything else."""
        if isinstance(name, Voice):
            return name
        if isinstance(name, Drum):
            return cls.of(name)
        key = str(name).strip().lower()
        for voice, names in VOICE_NAMES.items():
            if key in names:
                return voice
        raise UsageError(_('unknown voice {name}: use 鼙 (small, pi), 鼓 (big, gu), click or cue').format(name=repr(name)))

    @property
    def latin(self) -> str:
        """The voice's name in Latin letters (pinyin for the drums: ``pi`` 鼙,
        ``gu`` 鼓), for software that cannot show Chinese."""
        return _LATIN[self]

    @classmethod
    def of(cls, drum: Drum | None) -> "Voice":
        """The voice of a drum; ``None`` (a count-in event) is the click."""
        if drum is None:
            return cls.CLICK
        return cls.SMALL if drum is Drum.SMALL else cls.BIG


#: The names a voice goes by on the command line (``--map``, ``--velocity``,
#: ``--pan``), in kit files and as recording file names in a kit directory.
VOICE_NAMES: dict[Voice, tuple[str, ...]] = {
    Voice.SMALL: ("small", "鼙", "pi", "○"),
    Voice.BIG: ("big", "鼓", "鼔", "gu", "□"),
    Voice.CLICK: ("click", "count-in"),
    Voice.CUE: ("cue", "bell"),
}


_LATIN = {Voice.SMALL: "pi", Voice.BIG: "gu", Voice.CLICK: "click", Voice.CUE: "cue"}

#: The voices a part can leave out (:attr:`Part.muted`): the two drums.
DRUMS = (Voice.SMALL, Voice.BIG)


def check_muted(voices) -> frozenset[Voice]:
    """*voices* (names as :meth:`Voice.from_name` takes them) as a frozenset
    of drums, or :class:`UsageError` for anything but 鼙 and 鼓."""
    if isinstance(voices, (str, Voice, Drum)):
        voices = [voices]
    out = frozenset(Voice.from_name(v) for v in voices)
    for voice in out:
        if voice not in DRUMS:
            raise UsageError(_('only a drum can be muted (鼙 or 鼓), not {value}').format(value=voice.value))
    return out
