"""``guji studio [FILE…]``: the scores in the browser (see :mod:`guji.studio`)."""

from __future__ import annotations

import argparse
import errno
import sys

from ...i18n import N_, _
from ...errors import UsageError
from ._common import add_force_option, checked


def _port(port: int) -> int:
    if not 0 <= port <= 65535:
        raise UsageError(_('{port} is not a port number (0–65535)').format(port=port))
    return port


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "studio", help=_("open the studio in the browser: paste or open a text, see its patterns, "
                       "hear and compare readings, export"),
        description=_("Start a local web app on 127.0.0.1 (this machine only) and open it in the "
                    "browser: open or paste a text and see its patterns, errors and variant "
                    "notes in place; choose readings (yours or the shipped editions'), see "
                    "them drawn and aligned, hear them on one clock and switch A/B while they "
                    "play; export MIDI, audio, sheet music, the page or JSON with the same "
                    "bytes as the commands. Ctrl-C stops it."),
        epilog=_("Example: guji studio mynotes.txt"))
    p.add_argument("files", nargs="*", metavar="FILE",
                   help=_("text files to open (the studio reads only these and what you open in it)"))
    p.add_argument("--port", type=checked(_port, int, N_("a port number")), default=0,
                   help=_("the port on 127.0.0.1 (default: a free one)"))
    p.add_argument("--no-browser", action="store_true",
                   help=_("do not open the browser; just print the address"))
    add_force_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...studio.documents import Library
    from ...studio.server import Studio
    library = Library(args.files)
    try:
        studio = Studio(library, args.port)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise UsageError(_('port {port} on 127.0.0.1 is in use: give another --port, or none for a free one').format(port=args.port)) from None
        raise UsageError(_('cannot listen on 127.0.0.1:{port}: {value}').format(port=args.port, value=e.strerror or e)) from None
    with studio:
        print(_('guji studio: {url}').format(url=studio.url), flush=True)
        print(_('guji studio: Ctrl-C stops it'), file=sys.stderr, flush=True)
        if not args.no_browser:
            import webbrowser
            webbrowser.open(studio.url)
        studio.serve_forever(poll_interval=0.2)
    return 0
