"""``guji devices``: list the audio output devices ``guji play --device`` can use."""

from __future__ import annotations

import argparse

from ...i18n import _
from ._common import add_json_option, print_json


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "devices", help=_("list audio output devices"),
        description=_("List the audio output devices PortAudio sees; '*' marks the default. "
                    "Give the index or part of the name to 'guji play --device'."))
    p.add_argument("--input", action="store_true",
                   help=_("list the input devices (microphones) instead, for 'guji play --check --input'"))
    add_json_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...sound.devices import NO_DEVICE, RENDER_HINT, list_devices
    devices = list_devices("input" if args.input else "output")
    if args.json:
        print_json([d.to_json() for d in devices])
        return 0
    if not devices:
        print(_("{text}; {tail}").format(text=_(NO_DEVICE), tail=_(RENDER_HINT)))
        return 0
    from ..columns import table
    rows = [(("*" if d.default else " ") + f"{d.index:3d}", d.name,
             _("({hostapi}, {channels} ch, {default_rate:g} Hz)").format(
                 hostapi=d.hostapi, channels=d.channels, default_rate=d.default_rate))
            for d in devices]
    for line in table(rows):      # names padded by display width (揚聲器 is 6 columns)
        print(line)
    return 0
