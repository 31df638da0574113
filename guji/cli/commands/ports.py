"""``guji ports``: list the MIDI output ports ``guji play --midi-out`` can use."""

from __future__ import annotations

import argparse

from ...i18n import _
from ._common import add_json_option, print_json


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "ports", help=_("list MIDI output ports"),
        description=_("List the MIDI output ports of this system's MIDI back-ends (CoreMIDI on "
                    "macOS, WinMM on Windows, the ALSA sequencer and a running JACK server on "
                    "Linux): an electronic drum module, a synth, a DAW. Give a name, or part "
                    "of it, to 'guji play --midi-out'. Needs guji's midi extra "
                    "(pip install 'guji[midi]')."))
    add_json_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...midi.ports import list_ports, no_port_advice
    ports = list_ports()
    if args.json:
        print_json([p.to_json() for p in ports])
        return 0
    if not ports:
        print(no_port_advice())
        return 0
    for p in ports:
        print(f"{p.name}  ({p.system})")
    return 0
