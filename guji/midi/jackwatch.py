"""Noticing a JACK server that goes away: a client of its own, told on shutdown.

python-rtmidi's JACK output says nothing when its server dies: messages go
on into a ring nobody reads, ``get_ports()`` still lists the old ports, and
MIDI-only ``guji play`` played on to its end and exited 0 with every note
after the kill lost. JACK itself knows at once: libjack tells each client
through ``jack_on_shutdown``. :class:`JackWatch` opens one small client of
guji's (no ports, no process callback; ``JackNoStartServer``) on the server
the MIDI port is on and sets :attr:`JackWatch.gone` when it is told — within
one read of the server's socket, milliseconds. Loaded through ``ctypes``
from ``libjack.so.0`` (the library python-rtmidi's JACK back-end uses);
without it there is no watch (:func:`watch` gives ``None``) and nothing else
changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading

#: jack_options_t JackNoStartServer: never start a server to watch.
_NO_START_SERVER = 0x01

_SHUTDOWN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class JackWatch:
    """A JACK client that sets :attr:`gone` when its server shuts down."""

    def __init__(self, lib, client):
        self._lib, self._client = lib, client
        self.gone = threading.Event()
        self._callback = _SHUTDOWN(lambda _arg: self.gone.set())   # kept: called from C
        lib.jack_on_shutdown(client, self._callback, None)
        lib.jack_activate(client)

    def close(self) -> None:
        """Close the client (not after the server went: libjack may wait on it)."""
        client, self._client = self._client, None
        if client is not None and not self.gone.is_set():
            self._lib.jack_client_close(client)


def _library():
    name = ctypes.util.find_library("jack") or "libjack.so.0"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    lib.jack_client_open.restype = ctypes.c_void_p
    lib.jack_client_open.argtypes = [ctypes.c_char_p, ctypes.c_int,
                                     ctypes.POINTER(ctypes.c_int)]
    lib.jack_on_shutdown.argtypes = [ctypes.c_void_p, _SHUTDOWN, ctypes.c_void_p]
    lib.jack_activate.argtypes = [ctypes.c_void_p]
    lib.jack_client_close.argtypes = [ctypes.c_void_p]
    return lib


def watch() -> JackWatch | None:
    """A watch on the JACK server this process reaches (``JACK_DEFAULT_SERVER``),
    or ``None`` without libjack or without a server."""
    lib = _library()
    if lib is None:
        return None
    status = ctypes.c_int(0)
    client = lib.jack_client_open(b"guji-watch", _NO_START_SERVER, ctypes.byref(status))
    if not client:
        return None
    return JackWatch(lib, client)
