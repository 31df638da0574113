"""The studio: the scores in the browser (``guji studio [FILE…]``).

A small web app served on the loopback interface only, for the people guji
is for who do not live at a terminal: open or paste a text, see its patterns
(魯鼓 / 薛鼓) marked in place with their ids, its errors at their line and
column, its variant notes (一本作…) and their witnesses; choose two or more
readings, see them as the sources write them and on the aligned timeline,
hear them on one audio clock and switch between them (A/B) while they play;
take away exactly what is on screen, with the same bytes as the commands.

* :mod:`guji.studio.guard` — who may ask: the Host, the Origin, the
  session's token, the size of a request (checked before any work);
* :mod:`guji.studio.documents` — what may be read: the files the user named
  or opened, the shipped editions, and what each text holds;
* :mod:`guji.studio.views` — the readings chosen: drawings, alignment,
  what sounds when, and guji's own audio of each;
* :mod:`guji.studio.exports` — the files the commands write, by running them;
* :mod:`guji.studio.server` — the HTTP server (the standard library's
  :class:`http.server.ThreadingHTTPServer`) and its routes;
* ``assets/`` — the page, its style, its script and the script's backend (the one
  interface through which it asks guji anything; no library, no
  network), shipped in the wheel.
"""
