"""What a kit file says beside each parameter: its meaning, and the reading of the sources behind the default.

:func:`guji.sound.kit.kit_to_toml` writes a kit file with one comment a line:
:data:`PARAMETER_HELP` (what the parameter is), then, for the drums,
:data:`READINGS` (why the default is what it is). 陸德明 (釋文): ○ 鼙 —
其聲下，其音榻榻然; □ 鼓 — 其聲高，其音鏜鏜然. The defaults read 聲高/聲下 as
loudness (高聲 is a loud voice), size as pitch (a small head sounds higher).
"""

from __future__ import annotations

from ..timing.performance import Voice

#: One line on each parameter, for the comments of a written kit file.
PARAMETER_HELP: dict[str, str] = {
    "fundamental": "Hz of the lowest mode",
    "mode_ratios": "frequency of each mode / fundamental (membrane: Bessel zeros j_mn/j_01)",
    "mode_gains": "amplitude of each mode at the strike (relative)",
    "mode_decays": "seconds each mode takes to fall by 60 dB",
    "pitch_fall": "the modes start this fraction sharp (0.06 = 6 %) ...",
    "pitch_fall_time": "... and relax with this time constant (s)",
    "noise_level": "stick noise burst: peak amplitude, in mode_gains units",
    "noise_decay": "stick noise burst: decay time constant (s)",
    "noise_cutoff": "stick noise burst: one-pole low-pass cut-off (Hz; 0 = white)",
    "attack": "raised-cosine rise at the start (s)",
    "length": "seconds of one hit (synthesis)",
    "fade": "raised-cosine fade at the end (s)",
    "level": "peak of one hit, dBFS",
    "pan": "-1 left .. 0 centre .. +1 right",
    "seed": "seed of the noise: same seed, same bytes",
    "sample": "a recording (WAV/FLAC/OGG) to use instead of synthesis",
    "more_samples": "more recordings of this drum, taken with sample as its strokes",
    "variants": "how many different strokes (--strike vary; 1 = every stroke alike)",
    "force_spread": "each stroke +/- this many dB harder or softer (brighter when harder)",
    "strike_position": "where mode_gains are heard: radius from the centre (0) to the rim (1)",
    "position_spread": "each stroke lands +/- this fraction of the radius away",
}

TITLES = {Voice.SMALL: "鼙, the small drum (○): 其聲下，其音榻榻然 — soft, damped, flat",
           Voice.BIG: "鼓, the big drum (□): 其聲高，其音鏜鏜然 — loud, ringing, booming",
           Voice.CLICK: "the count-in click (not in the sources)",
           Voice.CUE: "the cue bell (not in the sources)"}


#: Why each drum's default is what it is, beside the parameter in a kit file.
READINGS: dict[Voice, dict[str, str]] = {
    Voice.SMALL: {
        "fundamental": "a small head sounds higher than the 鼓 (size as pitch)",
        "mode_decays": "damped within a quarter of a second: 榻榻, flat and dry",
        "noise_level": "a bright stick slap: the 'ta' of 榻榻",
        "level": "聲下 read as loudness: 6 dB below the 鼓",
        "variants": "a player's strokes are never alike (not in the sources)",
    },
    Voice.BIG: {
        "fundamental": "a big head, low and booming: 鏜鏜 (詩·擊鼓: 擊鼓其鏜)",
        "mode_decays": "rings about 2 s: the boom of 鏜鏜",
        "pitch_fall": "the head stretched by the stick, then settling",
        "level": "聲高 read as loudness (高聲, a loud voice): 6 dB above the 鼙",
        "variants": "a player's strokes are never alike (not in the sources)",
    },
}
