"""No traceback anywhere: signals, Ctrl-C at any moment, and exit statuses a script can use.

The signals are real: a few lines run before the command line (the
console script's way in: ``from guji.cli import main``) send one to the
process at an exact point — while a module is being imported, or once the
first blocks of a render are written — so each test is deterministic, with
no sleeping and no timing.
"""

from __future__ import annotations

import os
import signal

import pytest

from guji.cli.main import main

import runner

#: Sends *SIGNUM* to this process when *MODULE* is first imported.
AT_IMPORT = """
import os, signal, sys
class _Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), {signum})
        return None
sys.meta_path.insert(0, _Interrupt())
"""

#: Sends *SIGNUM* to this process once *FRAMES* frames of a render are written.
MID_WRITE = """
import os, sys
import guji.cli.progress as progress
_call = progress.ProgressBar.__call__
def _hook(self, done, total):
    if done >= {frames}:
        os.kill(os.getpid(), {signum})
    return _call(self, done, total)
progress.ProgressBar.__call__ = _hook
"""


@pytest.mark.parametrize("module", [
    "guji.cli.main", "argparse", "guji.cli.commands.render", "guji.timing.layout", "soundfile",
])
def test_ctrl_c_while_importing_exits_130_without_a_traceback(tmp_path, module):
    # Ctrl-C in the first 0.1 s once gave a KeyboardInterrupt traceback, exit 1
    prelude = AT_IMPORT.format(module=module, signum=int(signal.SIGINT))
    r = runner.wrapped(prelude, ["render", "lu", "--rate", "8000", "-o", "lu.flac"], tmp_path)
    assert r.returncode == 130, r.stderr
    assert r.stderr == "guji: interrupted\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("module", ["guji.i18n", "gettext", "argparse"])
@pytest.mark.parametrize("signum, status, line", [
    (signal.SIGTERM, 143, "guji: terminated (SIGTERM)"), (signal.SIGHUP, 129, "guji: hung up (SIGHUP)"),
])
def test_a_signal_while_the_first_modules_load_is_the_stop(tmp_path, module, signum, status, line):
    # guji's handlers once came after its language's modules had loaded (gettext,
    # typing, threading: tens of ms on a loaded machine): a SIGTERM then ended guji
    # by the signal, with no line
    prelude = AT_IMPORT.format(module=module, signum=int(signum))
    r = runner.wrapped(prelude, ["midi", "lu", "-o", "lu.mid"], tmp_path)
    assert (r.returncode, r.stderr) == (status, line + "\n")
    assert list(tmp_path.iterdir()) == []


#: The modules loaded when guji gives SIGTERM its handler, beyond those loaded before it ran.
AT_HANDLERS = """
import signal, sys
_before, _signal = set(sys.modules), signal.signal
def _watch(signum, handler):
    if signum == signal.SIGTERM and callable(handler):
        signal.signal = _signal
        print("loaded:", sorted(set(sys.modules) - _before), file=sys.stderr)
    return _signal(signum, handler)
signal.signal = _watch
"""


def test_guji_s_handlers_come_before_anything_slow_loads(tmp_path):
    # the start-up window: a signal before the handlers ends guji by its default action
    r = runner.wrapped(AT_HANDLERS, ["--version"], tmp_path)
    assert r.returncode == 0
    loaded = r.err_lines[0]
    # and what importing a regular package costs the standard library (an editable
    # install has them loaded already by its finder): importlib, warnings, __future__
    assert loaded.startswith("loaded: ") and set(eval(loaded[8:])) <= {
        "guji", "guji.cli", "guji.stops", "collections.abc", "contextlib", "__future__",
        "importlib", "importlib._bootstrap", "importlib._bootstrap_external", "warnings"}, loaded


@pytest.mark.parametrize("module, signum, language, lang, status, line", [
    # before the command line chose its language: the stop's line chooses it itself
    ("guji.cli.main", signal.SIGINT, {"LANG": "zh_TW.UTF-8"}, [], 130, "guji：已中斷"),
    ("guji.cli.main", signal.SIGTERM, {"LANG": "C"}, ["--lang", "zh-Hans"], 143,
     "guji：已终止（SIGTERM）"),
    ("guji.cli.main", signal.SIGHUP, {"LANG": "zh_CN.UTF-8"}, ["--lang=en"], 129,
     "guji: hung up (SIGHUP)"),
    # after: the command line's own handling, in the same words
    ("guji.cli.commands.render", signal.SIGINT, {"LANG": "C"}, ["--lang", "zh-Hant"], 130,
     "guji：已中斷"),
])
def test_a_stop_while_guji_loads_is_said_in_the_user_s_language(tmp_path, module, signum,
                                                               language, lang, status, line):
    # the stop's line was English before the catalogs loaded (issue 23)
    prelude = AT_IMPORT.format(module=module, signum=int(signum))
    r = runner.wrapped(prelude, [*lang, "render", "lu", "--rate", "8000", "-o", "lu.flac"],
                       tmp_path, env=runner.environment(**language))
    assert (r.returncode, r.stderr) == (status, line + "\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("signum, status, line, name", [
    (signal.SIGINT, 130, "guji: interrupted", "long.wav"),
    (signal.SIGTERM, 143, "guji: terminated (SIGTERM)", "long.wav"),
    (signal.SIGHUP, 129, "guji: hung up (SIGHUP)", "long.wav"),
    (signal.SIGTERM, 143, "guji: terminated (SIGTERM)", "long.flac"),
    (signal.SIGHUP, 129, "guji: hung up (SIGHUP)", "long.ogg"),
])
def test_a_signal_mid_write_removes_the_temporary_file(tmp_path, signum, status, line, name):
    # SIGTERM and SIGHUP once left the temporary file (1.5 GB after 2 s) and said nothing
    out = tmp_path / name
    out.write_bytes(b"the old file")
    prelude = MID_WRITE.format(frames=200_000, signum=int(signum))
    r = runner.wrapped(prelude, ["render", "lu", "--repeat", "50", "--rate", "8000",
                                 "-o", str(out)], tmp_path)
    assert (r.returncode, r.err_lines) == (status, [line])
    assert out.read_bytes() == b"the old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_signal_while_streaming_to_a_pipe_is_one_line(tmp_path):
    prelude = MID_WRITE.format(frames=200_000, signum=int(signal.SIGTERM))
    r = runner.wrapped(prelude, ["render", "lu", "--repeat", "50", "--rate", "8000", "-o", "-"],
                       tmp_path)
    assert (r.returncode, r.err_lines) == (143, ["guji: terminated (SIGTERM)"])
    assert r.stdout[:4] == b"RIFF"          # what was streamed before the signal


def test_the_previous_handlers_come_back_after_a_command(capsys):
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    assert main(["glyphs"]) == 0
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == before


# -- tracebacks once, one line now -----------------------------------------------------------

@pytest.mark.parametrize("encoding", ["rot13", "base64", "hex", "zlib", "bz2", "uu", "quopri",
                                      "undefined", "no-such-codec"])
def test_an_encoding_that_is_not_a_text_encoding_is_one_line(tmp_path, capsys, encoding):
    text = tmp_path / "f.txt"
    text.write_text("魯鼓 ○□半○□\n", encoding="utf-8")
    assert main(["scan", str(text), "--encoding", encoding]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "encoding" in err


def test_a_utf32_file_is_read_as_utf32(tmp_path, capsys):
    # a UTF-32 file (BOM) was once read as UTF-16: "unknown symbol '' (U+0000)", a raw NUL
    text = tmp_path / "u32.txt"
    text.write_bytes("魯鼓 ○□○半○□○\n".encode("utf-32"))
    assert main(["scan", str(text)]) == 0
    out = capsys.readouterr().out
    assert "(utf-32)" in out and "○□○半○□○" in out


def test_guji_alone_prints_the_usage_and_exits_2(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: guji") and "give a command" in err


@pytest.mark.parametrize("ids, status", [
    (["lu:1", "lu:1@wuli-tongkao"], 1), (["lu:2", "lu:2@wuli-tongkao"], 0),
])
@pytest.mark.parametrize("json", [[], ["--json"]])
def test_diff_exits_1_when_the_readings_differ(capsys, ids, status, json):
    # `guji diff` once exited 0 either way: a script could not tell
    assert main(["diff", *ids, *json]) == status


def test_a_failed_page_leaves_no_folder_it_made(tmp_path):
    # a failed page once left the empty folder it made
    args = ["page", "lu:1", "lu:2", "--bpm", "1", "--repeat", "100", "--rate", "8000",
            "-o", "site"]
    r = runner.guji(args, tmp_path)
    assert r.returncode == 2 and "24 h" in r.stderr
    assert list(tmp_path.iterdir()) == []
    # a folder that was there before stays, with what it held
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "notes.txt").write_text("mine")
    assert runner.guji(args, tmp_path).returncode == 2
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == ["notes.txt"]


def test_a_page_interrupted_mid_write_leaves_no_folder(tmp_path):
    prelude = """
        import os, signal
        import guji.sound.files as files
        _write = files.write_audio
        def _hook(*args, **kwargs):
            path = _write(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGTERM)      # after the first audio file
            return path
        files.write_audio = _hook
        """
    r = runner.wrapped(prelude, ["page", "lu:1", "lu:2", "--rate", "8000", "-o", "site"],
                       tmp_path)
    assert (r.returncode, r.err_lines[-1]) == (143, "guji: terminated (SIGTERM)")
    assert list(tmp_path.iterdir()) == []
    assert "Traceback" not in r.stderr and os.path.exists(tmp_path)


#: A signal landing inside a C extension's import: the extension turns the stop's
#: exception into an ImportError (numpy: "PyCapsule_Import could not import module
#: 'datetime'", seen 3 times in 40 stops 0.1–0.6 s into a render beside two busy
#: loops). Simulated (the moment cannot be hit on purpose): the render's first
#: import signals the process and converts the stop as the extension does.
BROKEN_IMPORT = """
import os, signal
import guji.cli.commands.render as render
run = render.run
def broken(args):
    try:
        os.kill(os.getpid(), signal.SIGHUP)
        for _ in range(1000):     # the handler runs between two steps of Python code
            pass
    except KeyboardInterrupt:
        raise ImportError("PyCapsule_Import could not import module 'datetime'") from None
    return run(args)
render.run = broken
"""


def test_an_import_a_signal_broke_is_the_stop_not_a_traceback(tmp_path):
    r = runner.wrapped(BROKEN_IMPORT, ["render", "lu", "--rate", "8000", "-o", "lu.wav"], tmp_path)
    assert (r.returncode, r.err_lines) == (129, ["guji: hung up (SIGHUP)"]), r.stderr
    assert list(tmp_path.iterdir()) == []


#: Sends *SIGNUM* to this process once LilyPond has made a temporary file of its
#: own (``lilypond-tmp-*``, Ghostscript's ``gs_*``) anywhere under ``$TMPDIR``.
IN_LILYPOND = """
import os, signal, subprocess, time
_communicate = subprocess.Popen.communicate
def _hook(self, *args, **kwargs):
    if "lilypond" in str(self.args[0]):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                name.startswith(("lilypond-tmp-", "gs_"))
                for _d, _s, names in os.walk(os.environ["TMPDIR"]) for name in names):
            time.sleep(0.005)
        os.kill(os.getpid(), {signum})
    return _communicate(self, *args, **kwargs)
subprocess.Popen.communicate = _hook
"""


@pytest.mark.tools
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_while_lilypond_engraves_leaves_nothing_in_tmpdir(tmp_path, signum, status):
    # LilyPond's own lilypond-tmp-* (up to 3.1 MB) was left in $TMPDIR by 6 runs of 14
    from tools import require
    require("lilypond")
    temp = tmp_path / "tmp"
    temp.mkdir()
    (tmp_path / "out").mkdir()
    r = runner.wrapped(IN_LILYPOND.format(signum=int(signum)), ["sheet", "lu", "-o", "x.pdf"],
                       tmp_path / "out", env=runner.environment(TMPDIR=str(temp)))
    assert r.returncode == status and "Traceback" not in r.stderr, r.stderr
    assert list(temp.iterdir()) == [] and list((tmp_path / "out").iterdir()) == []


#: SIGHUP and SIGINT ignored before guji starts, as ``nohup`` and a shell's
#: background job (no job control) leave them.
IGNORED_AT_START = """
import signal
signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
"""


def test_a_signal_ignored_when_guji_starts_stays_ignored(tmp_path):
    # nohup guji render … & kill -HUP $! once exited 129 and left no file
    out = tmp_path / "x.wav"
    prelude = IGNORED_AT_START + MID_WRITE.format(
        frames=200_000, signum=f"{int(signal.SIGHUP)}); os.kill(os.getpid(), {int(signal.SIGINT)}")
    r = runner.wrapped(prelude, ["render", "lu", "--repeat", "50", "--rate", "8000",
                                 "-o", str(out)], tmp_path)
    assert r.returncode == 0
    assert [line.split(":")[0] for line in r.err_lines] == ["wrote " + str(out)]
    assert out.read_bytes()[:4] == b"RIFF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.wav"]
