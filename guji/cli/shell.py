"""Shell completion scripts and the man page, generated from the parsers.

Both are read off the very parsers the command line runs
(:func:`guji.cli.main.build_parser`), so they never fall behind: the
commands, each command's options, the choices of options that have them,
and the shipped pattern ids (``lu``, ``xue:2``, ``lu:1@wuli-tongkao`` …).

The completion scripts are static: a TAB runs no Python (nothing to wait
for); the script is made once, by ``guji completion bash|zsh|fish``. For zsh
the bash script is loaded through zsh's ``bashcompinit``. The man page
(``guji man``) is roff (``man -l``, or put it in ``man1/guji.1``).
"""

from __future__ import annotations

import argparse
import datetime
import re
import shlex

from .. import __version__

SHELLS = ("bash", "zsh", "fish")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, tuple[str, argparse.ArgumentParser]]:
    """Command name → (its one-line help, its parser), in ``guji --help``'s order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return {name: (helps.get(name, ""), p) for name, p in action.choices.items()}
    return {}


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings and a.help != argparse.SUPPRESS]


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0 and not isinstance(action, (argparse._HelpAction,
                                                         argparse._VersionAction))


def pattern_ids() -> list[str]:
    """The shipped pattern ids a completion offers."""
    from ..text.reading.editions import editions
    ids = ["lu", "xue", "lu:1", "lu:2", "xue:1", "xue:2"]
    return ids + [f"{score}:{d}@{e.slug}" for e in editions() for score in ("lu", "xue")
                  for d in (1, 2)]


def _words(items) -> str:
    return " ".join(shlex.quote(str(i)) for i in items)


def bash(parser: argparse.ArgumentParser) -> str:
    """The bash completion script (zsh loads it too, :func:`zsh`)."""
    commands = _subcommands(parser)
    cases, values = [], []
    for name, (_, sub) in commands.items():
        opts = [s for a in _options(sub) for s in a.option_strings]
        cases.append(f"        {name}) opts={shlex.quote(' '.join(opts))} ;;")
        for a in _options(sub):
            if a.choices and _takes_value(a):
                for s in a.option_strings:
                    values.append(f"        {name}:{s}) COMPREPLY=($(compgen -W "
                                  f"{shlex.quote(' '.join(map(str, a.choices)))} -- \"$cur\"));"
                                  " return ;;")
            elif _takes_value(a) and a.nargs != "?":
                for s in a.option_strings:
                    values.append(f"        {name}:{s}) COMPREPLY=($(compgen -f -- \"$cur\"));"
                                  " return ;;")
    return _BASH.format(version=__version__, commands=" ".join(commands),
                        ids=" ".join(pattern_ids()), cases="\n".join(cases),
                        values="\n".join(values))


_BASH = """\
# bash completion for guji {version} (made by 'guji completion bash')
_guji() {{
    # the word being completed, whole: bash splits lu:1@x at ':' (COMP_WORDBREAKS)
    local line="${{COMP_LINE:0:COMP_POINT}}"
    local cur="${{line##*[[:space:]]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    local cmd="" i opts
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in -*) ;; *) cmd="${{COMP_WORDS[i]}}"; break ;; esac
    done
    if [[ -z "$cmd" ]]; then
        COMPREPLY=($(compgen -W "{commands} --help --version" -- "$cur"))
        return
    fi
    case "$cmd:$prev" in
{values}
    esac
    case "$cmd" in
{cases}
        *) opts="" ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "{ids}" -- "$cur") $(compgen -f -- "$cur"))
        if [[ "$cur" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
            local before="${{cur%"${{cur##*:}}"}}"
            COMPREPLY=("${{COMPREPLY[@]#"$before"}}")
        fi
    fi
}}
complete -o filenames -F _guji guji
"""


def zsh(parser: argparse.ArgumentParser) -> str:
    """The zsh completion script: the bash one, through ``bashcompinit``."""
    return ("# zsh completion for guji (made by 'guji completion zsh')\n"
            "autoload -U +X compinit && compinit\n"
            "autoload -U +X bashcompinit && bashcompinit\n" + bash(parser))


def _fish_text(text: str) -> str:
    return shlex.quote(" ".join((text or "").split())[:90])


def fish(parser: argparse.ArgumentParser) -> str:
    """The fish completion script."""
    commands = _subcommands(parser)
    lines = [f"# fish completion for guji {__version__} (made by 'guji completion fish')",
             "complete -c guji -f",
             "complete -c guji -n __fish_use_subcommand -l help -d 'show the help'",
             "complete -c guji -n __fish_use_subcommand -l version -d 'show the version'"]
    for name, (help_text, sub) in commands.items():
        lines.append(f"complete -c guji -n __fish_use_subcommand -a {name} "
                     f"-d {_fish_text(help_text)}")
        seen = f"'__fish_seen_subcommand_from {name}'"
        lines.append(f"complete -c guji -n {seen} -F -a {shlex.quote(' '.join(pattern_ids()))}")
        for a in _options(sub):
            flags = " ".join(f"-l {s[2:]}" if s.startswith("--") else f"-s {s[1:]}"
                             for s in a.option_strings)
            value = ""
            if _takes_value(a):
                value = (f" -x -a {shlex.quote(' '.join(map(str, a.choices)))}" if a.choices
                         else " -r -F")
            lines.append(f"complete -c guji -n {seen} {flags}{value} -d {_fish_text(a.help)}")
    return "\n".join(lines) + "\n"


def completion(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script for *shell* (one of :data:`SHELLS`)."""
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](parser)


def _roff(text: str) -> str:
    """*text* safe in a roff line: backslashes doubled, no leading dot or quote."""
    text = " ".join((text or "").split()).replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text)


def _option_entry(action: argparse.Action) -> list[str]:
    metavar = action.metavar or (action.dest.upper() if _takes_value(action) else None)
    if action.choices and _takes_value(action):
        metavar = "{" + ",".join(map(str, action.choices)) + "}"
    names = ", ".join(f"\\fB{_roff(s)}\\fR" for s in action.option_strings)
    if metavar:
        names += f" \\fI{_roff(str(metavar))}\\fR"
    help_text = (action.help or "").replace("%(default)s", str(action.default))
    return [".TP", names, _roff(help_text)]


def man_page(parser: argparse.ArgumentParser) -> str:
    """The man page of guji (roff, section 1), every command and option."""
    today = datetime.date.today().isoformat()
    out = [f'.TH GUJI 1 "{today}" "guji {__version__}" "User Commands"',
           ".SH NAME", "guji \\- " + _roff(parser.description or ""),
           ".SH SYNOPSIS", "\\fBguji\\fR \\fICOMMAND\\fR [\\fIOPTION\\fR|\\fIID\\fR]...",
           ".SH DESCRIPTION", _roff(parser.epilog or ""),
           ".PP", "Options may come anywhere on the line, among the pattern ids. Each error "
                  "is one line naming the command's own \\fB\\-\\-help\\fR; exit status 2.",
           ".SH COMMANDS"]
    for name, (help_text, sub) in _subcommands(parser).items():
        usage = sub.format_usage().replace("usage: ", "", 1)
        out += [".SS " + _roff(name), _roff(sub.description or help_text),
                ".PP", ".nf", _roff(usage.strip()), ".fi"]
        if sub.epilog:
            out += [".PP", _roff(sub.epilog)]
        for action in _options(sub):
            out += _option_entry(action)
    out += [".SH EXIT STATUS", "0 done; 1 \\fBguji diff\\fR: the readings differ; 2 an error "
            "(one line); 130 Ctrl\\-C; 143 SIGTERM; 129 SIGHUP.",
            ".SH ENVIRONMENT", ".TP", "\\fBGUJI_CACHE\\fR",
            "the folder of synthesised hits (\\fBoff\\fR: none); default: the system's cache "
            "folder.", ".TP", "\\fBGUJI_CHROMIUM\\fR", "the browser that makes PNG files.",
            ".SH SEE ALSO", "\\fBguji COMMAND \\-\\-help\\fR; README.md and docs/ of guji."]
    return "\n".join(out) + "\n"
