"""``guji completion SHELL``: the shell completion script (bash, zsh, fish)."""

from __future__ import annotations

import argparse
import sys

from ...i18n import _
from ..shell import SHELLS

INSTALL = {
    "bash": "guji completion bash > ~/.local/share/bash-completion/completions/guji",
    "zsh": "guji completion zsh > ~/.zfunc/_guji  (or: source <(guji completion zsh) in ~/.zshrc)",
    "fish": "guji completion fish > ~/.config/fish/completions/guji.fish",
}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "completion", help=_("print the shell completion script (bash, zsh, fish)"),
        description=_("Print the completion script for SHELL: the commands, their options, the "
                      "choices of options and the shipped pattern ids complete with TAB. The "
                      "script is static: a TAB runs no Python. Install it with: {install}.").format(
            install="; ".join(INSTALL.values())))
    p.add_argument("shell", choices=SHELLS, help=_("the shell"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..main import build_parser
    from ..shell import completion
    sys.stdout.write(completion(args.shell, build_parser([])))
    return 0
