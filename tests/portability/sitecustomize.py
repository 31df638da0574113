"""Another system, simulated in a Linux process (``GUJI_SIMULATE=windows|macos``).

Put on ``PYTHONPATH`` by ``tests/test_portability.py`` for the guji processes
it runs, so it runs before guji is imported. What it simulates (and only
this; everything else is this Linux machine's own):

Windows (``GUJI_SIMULATE=windows``)
  * ``guji.system.PLATFORM = "win32"``: every system-dependent branch of
    guji (cache folder, where programs are installed, advice, MIDI back-ends)
    takes Windows' way;
  * no POSIX-only signals: ``signal.SIGHUP``, ``SIGTSTP``, ``SIGCONT``,
    ``SIGQUIT``, ``SIGPIPE``, ``SIGUSR1/2``, ``SIGALRM``, ``SIGWINCH``,
    ``SIGCHLD``, ``SIGTTIN``, ``SIGTTOU`` deleted;
  * no POSIX-only modules: ``termios``, ``tty``, ``pty``, ``fcntl``,
    ``resource``, ``pwd``, ``grp``, ``curses``, ``readline`` refuse to import;
  * no ``os.O_CLOEXEC``, ``os.O_NOCTTY``, ``os.fork``, ``os.getuid``,
    ``os.geteuid``, ``os.getgid``, ``os.mkfifo``, ``os.killpg``, ``os.setsid``;
  * no ``/dev``: a path under ``/dev/`` is "not found" for open, stat and the
    like; ``NUL`` is the null device (as Windows' ``NUL``; ``os.devnull``);
  * ``\\`` paths: ``os.sep`` is ``\\`` (``os.altsep`` ``/``), and a path given
    to open, stat, access, listdir or scandir has its ``\\`` read as a folder
    separator, as is a path given to replace, rename and link (this
    machine's pathlib still splits on ``/`` only);
  * the MIDI back-end: python-rtmidi built with WinMM only, one output port,
    "Microsoft GS Wavetable Synth" (what every Windows has), whose messages
    are appended to ``$GUJI_SIMULATE_MIDI_LOG`` (one line each, hex);
  * the standard streams' encoding comes from the test (``PYTHONIOENCODING=cp1252``).

macOS (``GUJI_SIMULATE=macos``)
  * ``guji.system.PLATFORM = "darwin"``;
  * python-rtmidi built with CoreMIDI only (no ALSA, no JACK), one output
    port, "IAC Driver Bus 1", logged as above;
  * no ALSA: ``libasound`` cannot be loaded through ctypes.

Not simulated: the audio back-ends (PortAudio is this machine's, on ALSA),
the console (msvcrt's keys are tested in process), the file system's rules
(case, reserved names, locking), and a missing python-rtmidi
(``GUJI_SIMULATE_NO_RTMIDI=1`` makes it unimportable, on any system).
"""

import builtins
import ctypes
import os
import signal
import sys

SYSTEM = os.environ.get("GUJI_SIMULATE", "")
LOG = os.environ.get("GUJI_SIMULATE_MIDI_LOG")

if os.environ.get("GUJI_SIMULATE_NO_RTMIDI"):
    sys.modules["rtmidi"] = None


def _fake_rtmidi(api_name: str, port: str) -> None:
    """python-rtmidi as built for another system: only *api_name*, one port."""
    try:
        import rtmidi
    except ImportError:
        return
    api = getattr(rtmidi, api_name)

    class Port:
        def __init__(self, name=None, rtapi=rtmidi.API_UNSPECIFIED, **kwargs):
            if rtapi not in (api, rtmidi.API_UNSPECIFIED):
                raise SystemError("MidiOutAlsa::initialize: error creating ALSA sequencer client")
            self._open = False

        def get_current_api(self):
            return api

        def get_ports(self):
            return [port] if self.outputs else []

        def get_port_count(self):
            return len(self.get_ports())

        def open_port(self, n=0, name=None):
            self._open = True

        def open_virtual_port(self, name=None):
            raise NotImplementedError("virtual ports are not supported by this MIDI back-end")

        def is_port_open(self):
            return self._open

        def send_message(self, message):
            if LOG:
                with open(LOG, "a") as f:
                    f.write(bytes(message).hex() + "\n")

        def close_port(self):
            self._open = False

        def delete(self):
            self._open = False

        def cancel_callback(self):
            pass

    class MidiOut(Port):
        outputs = True

    class MidiIn(Port):
        outputs = False

    rtmidi.get_compiled_api = lambda: [api]
    rtmidi.MidiOut, rtmidi.MidiIn = MidiOut, MidiIn


def _windows_paths() -> None:
    """No /dev, NUL the null device, ``\\`` a separator for the file functions."""
    real_null = os.devnull

    def native(path):
        if isinstance(path, (bytes, int)) or path is None:
            return path
        text = os.fspath(path)
        if isinstance(text, bytes):
            return text
        if text.upper() == "NUL":
            return real_null
        text = text.replace("\\", "/")
        if text == "/dev" or text.startswith("/dev/"):
            raise FileNotFoundError(2, "The system cannot find the path specified", text)
        return text

    def wrap(function):
        def wrapped(path, *args, **kwargs):
            return function(native(path), *args, **kwargs)
        wrapped.__name__ = function.__name__
        return wrapped

    for name in ("stat", "lstat", "open", "access", "listdir", "scandir", "chmod", "unlink",
                 "remove", "mkdir", "rmdir"):
        setattr(os, name, wrap(getattr(os, name)))
    for name in ("replace", "rename", "link"):
        two = getattr(os, name)
        setattr(os, name, lambda a, b, *args, _two=two, **kw: _two(native(a), native(b),
                                                                    *args, **kw))
    builtins.open = wrap(builtins.open)
    os.devnull = "nul"
    os.sep, os.altsep = "\\", "/"


def _windows() -> None:
    for name in ("SIGHUP", "SIGTSTP", "SIGCONT", "SIGQUIT", "SIGPIPE", "SIGUSR1", "SIGUSR2",
                 "SIGALRM", "SIGWINCH", "SIGCHLD", "SIGTTIN", "SIGTTOU"):
        if hasattr(signal, name):
            delattr(signal, name)
    for module in ("termios", "tty", "pty", "fcntl", "resource", "pwd", "grp", "curses",
                   "readline"):
        sys.modules[module] = None
    for name in ("O_CLOEXEC", "O_NOCTTY", "fork", "getuid", "geteuid", "getgid", "mkfifo",
                 "killpg", "setsid"):
        if hasattr(os, name):
            delattr(os, name)
    _windows_paths()
    _fake_rtmidi("API_WINDOWS_MM", "Microsoft GS Wavetable Synth")


def _macos() -> None:
    real_cdll = ctypes.CDLL

    class CDLL(real_cdll):
        def __init__(self, name, *args, **kwargs):
            if name and "asound" in str(name):
                raise OSError(f"dlopen({name}, 0x0006): image not found")
            super().__init__(name, *args, **kwargs)

    ctypes.CDLL = CDLL
    _fake_rtmidi("API_MACOSX_CORE", "IAC Driver Bus 1")


if SYSTEM in ("windows", "macos"):
    import guji.system
    guji.system.PLATFORM = {"windows": "win32", "macos": "darwin"}[SYSTEM]
    _windows() if SYSTEM == "windows" else _macos()
