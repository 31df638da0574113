"""What libsndfile writes FLAC and OGG through: a file object of guji's.

:class:`SinkIO` is the file libsndfile writes to (soundfile's virtual I/O):
it passes the bytes on to the real destination (:class:`guji.files.Output`),
so that

* a failure of the file system is a real :class:`OSError` with its errno
  (``ENOSPC``: disk full), kept and raised after libsndfile gives up — an
  error raised inside libsndfile's callback would only be printed, and
  libsndfile would report ``System error.``;
* a stream (a pipe, a device, standard output) is written in order: where
  libsndfile seeks back to rewrite a header in place (FLAC's STREAMINFO at
  the end), a stream cannot, and what would be rewritten is dropped, as
  libsndfile does itself when it writes to a pipe;
* an Ogg stream gets the same serial number every time (:data:`OGG_SERIAL`);
* a FLAC stream states its length: libFLAC fills in STREAMINFO's total
  samples at the end, by seeking back, which a stream cannot; guji knows the
  length before it starts and writes it in as the header passes
  (:func:`flac_with_length`; the MD5 stays 0, "unknown", as FLAC allows).

Ogg serial numbers
------------------
libsndfile gives each Ogg stream a serial number drawn from the clock, so two
renders of one command would differ in those bytes only. Every page is given
:data:`OGG_SERIAL` as it passes, its CRC recomputed (:func:`ogg_crc`).
:func:`fix_ogg_serial` does the same to a finished file.
"""

from __future__ import annotations

import errno
import os
import zlib

from ..stops import requested

#: Serial number written in every Ogg page (libsndfile picks a random one).
OGG_SERIAL = 0x67756A69   # "guji"

_REVERSE_BITS = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def ogg_crc(page: bytes) -> int:
    """The CRC of an Ogg page (CRC-32, polynomial 0x04C11DB7, not reflected,
    initial value 0), computed with :func:`zlib.crc32` on bit-reversed bytes."""
    raw = zlib.crc32(page.translate(_REVERSE_BITS), 0xFFFFFFFF) ^ 0xFFFFFFFF
    return int(f"{raw:032b}"[::-1], 2)


def with_serial(page: bytes | bytearray, serial: int = OGG_SERIAL) -> bytes:
    """*page* (one whole Ogg page) with the stream serial number *serial* and its CRC."""
    page = bytearray(page)
    page[14:18] = serial.to_bytes(4, "little")
    page[22:26] = b"\0\0\0\0"
    page[22:26] = ogg_crc(bytes(page)).to_bytes(4, "little")
    return bytes(page)


def _page_length(data: bytes | bytearray) -> int | None:
    """Bytes of the Ogg page at the start of *data*, or None if its header is
    not all there yet."""
    if len(data) < 27 or len(data) < 27 + data[26]:
        return None
    if data[:4] != b"OggS":
        raise ValueError("not an Ogg page")
    return 27 + data[26] + sum(data[27:27 + data[26]])


def fix_ogg_serial(path: str | os.PathLike, serial: int = OGG_SERIAL) -> int:
    """Give every page of the Ogg file *path* the stream serial number *serial*
    (recomputing each page's CRC), page by page; return the number of pages."""
    pages = 0
    with open(path, "r+b") as f:
        at = 0
        while True:
            f.seek(at)
            head = f.read(27 + 255)
            n = _page_length(head)
            if n is None:
                break
            f.seek(at)
            page = f.read(n)
            f.seek(at)
            f.write(with_serial(page, serial))
            at += n
            pages += 1
    return pages


#: Bytes of a FLAC stream's start: "fLaC", a metadata block header, STREAMINFO.
FLAC_HEAD = 4 + 4 + 34


def flac_with_length(head: bytes, frames: int) -> bytes:
    """The first :data:`FLAC_HEAD` bytes of a FLAC stream with STREAMINFO's
    36-bit total-samples field set to *frames* (left 0, unknown, past 2**36)."""
    if head[:4] != b"fLaC" or head[4] & 0x7F != 0 or not 0 < frames < 2 ** 36:
        return head
    info = bytearray(head)
    # STREAMINFO bits 108-143: the low nibble of byte 13, then bytes 14-17 (from byte 8)
    at = 8 + 13
    info[at] = (info[at] & 0xF0) | (frames >> 32)
    info[at + 1:at + 5] = (frames & 0xFFFFFFFF).to_bytes(4, "big")
    return bytes(info)


class SinkIO:
    """A file object for libsndfile's virtual I/O, writing to *file*.

    *seekable*: whether *file* may seek (a regular file); a stream may not,
    and what libsndfile writes anywhere but at the end is dropped. *ogg*:
    give every Ogg page :data:`OGG_SERIAL`. After libsndfile fails,
    :attr:`error` holds the :class:`OSError` that made it fail.
    """

    def __init__(self, file, *, seekable: bool, ogg: bool = False,
                 flac_frames: int | None = None):
        self.file = file
        self.seekable = seekable
        self.ogg = ogg
        self.flac_frames = None if seekable else flac_frames
        self.error: OSError | None = None
        self._pos = 0          # where libsndfile thinks it is
        self._end = 0          # bytes written to the stream (streams only)
        self._pending = bytearray()

    # -- what soundfile's virtual I/O calls ----------------------------------
    def write(self, data: bytes) -> int:
        if self.error is None and requested():       # a signal noted: libsndfile gives up
            self.error = InterruptedError(errno.EINTR, "stopped by a signal")
        if self.error is not None:
            return 0
        try:
            if self.ogg:
                self._pending += data
                self._pages()
            elif self.flac_frames is not None and self._end == 0 and self._pos < FLAC_HEAD:
                # the head, held until STREAMINFO is whole (only the first time: what
                # libsndfile rewrites there at the end cannot go back into a stream)
                self._pending += data
                if len(self._pending) >= FLAC_HEAD:
                    self._flush_head()
            elif self.seekable or self._pos == self._end:
                self.file.write(data)
                self._end += len(data) if not self.seekable else 0
            self._pos += len(data)
        except Exception as e:         # kept, raised once libsndfile returns (never lost)
            self.error = e if isinstance(e, OSError) else OSError(0, f"{type(e).__name__}: {e}")
            return 0
        return len(data)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        try:
            if self.seekable:
                self._pos = self.file.seek(offset, whence)
            else:
                base = {os.SEEK_SET: 0, os.SEEK_CUR: self._pos, os.SEEK_END: self._end}[whence]
                self._pos = base + offset
        except Exception as e:
            self.error = e if isinstance(e, OSError) else OSError(0, f"{type(e).__name__}: {e}")
        return self._pos

    def tell(self) -> int:
        return self._pos

    def read(self, n: int = -1) -> bytes:
        return b""

    # -- Ogg pages -------------------------------------------------------------
    def _pages(self) -> None:
        while True:
            n = _page_length(self._pending)
            if n is None or len(self._pending) < n:
                return
            self.file.write(with_serial(self._pending[:n]))
            del self._pending[:n]

    def _flush_head(self) -> None:
        head = flac_with_length(bytes(self._pending[:FLAC_HEAD]), self.flac_frames)
        self.file.write(head + bytes(self._pending[FLAC_HEAD:]))
        self._end += len(self._pending)
        self._pending.clear()

    def close(self) -> None:
        """Write what is left (a partial page, if libsndfile stopped inside one)."""
        if self._pending and self.error is None:
            self.file.write(bytes(self._pending))
            self._pending.clear()


class SourceIO:
    """A file libsndfile reads through (soundfile's virtual I/O): *file*, named *name*.

    libsndfile calls :meth:`read`, :meth:`seek` and :meth:`tell` from C; an
    exception raised there would only be printed (``Exception ignored from
    cffi callback`` and a traceback) while libsndfile went on. Here the first
    one is kept instead, as words (:attr:`error`), and the call answers as a
    file that cannot go there would: a failed read reads nothing, a failed seek
    stays where it was. A forged RF64 header whose data size is 2⁶³ − 1 makes
    libsndfile seek there. :func:`read_failure` says it once. The object shows
    as its *name* (soundfile puts the file in its messages).
    """

    def __init__(self, file, name: str):
        self.file, self.name = file, name
        self.error: str | None = None

    def read(self, n: int = -1) -> bytes:
        try:
            return self.file.read(n)
        except Exception as e:
            self._keep(f"a read of {n:,} bytes", e)
            return b""

    def readinto(self, buffer) -> int:
        try:
            return self.file.readinto(buffer) or 0
        except Exception as e:
            self._keep(f"a read of {len(buffer):,} bytes", e)
            return 0

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        try:
            return self.file.seek(offset, whence)
        except Exception as e:
            self._keep(f"a seek to byte {offset:,}", e)
            return self.tell()

    def tell(self) -> int:
        try:
            return self.file.tell()
        except Exception as e:
            self._keep("asking the position", e)
            return 0

    def _keep(self, what: str, error: Exception) -> None:
        if self.error is None:
            words = getattr(error, "strerror", None) or str(error) or type(error).__name__
            self.error = f"{what}: {words[:1].lower() + words[1:]}"

    def __repr__(self) -> str:
        return repr(self.name)


def read_failure(error: BaseException | None, source: SourceIO) -> str | None:
    """Why libsndfile could not read *source*, in one phrase (None: it could):
    what its calls back met (:attr:`SourceIO.error`), else libsndfile's own
    words without soundfile's ``Error opening FILE:`` before them."""
    if source.error is not None:
        return source.error
    if error is None:
        return None
    words = (getattr(error, "error_string", None) or getattr(error, "strerror", None)
             or str(error) or type(error).__name__)
    return words.splitlines()[0].strip() or type(error).__name__
