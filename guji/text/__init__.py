"""Text in: the notation read from any edition's text, its variant notes, and collation.

Three subsystems share this room (a split into subpackages is planned: issue 21):

**Reading** — a text into patterns of ○ 鼙 and □ 鼓 split by 半:

* :mod:`~guji.text.notation` — the values: drums, strokes, patterns, the glyph table;
* :mod:`~guji.text.lexer` — text → tokens with their source locations;
* :mod:`~guji.text.segments`, :mod:`~guji.text.typos`, :mod:`~guji.text.labels`
  — a whole text in pieces, typos between strokes, which label names which pattern;
* :mod:`~guji.text.parser` (:func:`~guji.text.parser.parse`: one pattern) and
  :mod:`~guji.text.scan` (:func:`~guji.text.scan.scan`: a whole text);
* :mod:`~guji.text.encoding` — text files of unknown encoding;
* :mod:`~guji.text.editions` — the shipped editions, ids, :func:`~guji.text.editions.load`;
* :mod:`~guji.text.names` — what patterns are called on screen, in tracks, on disk.

**The apparatus** — the editions' own variant notes (作, 少 無 闕 脫, 有 多 …):

* :mod:`~guji.text.notes` (notes inside a pattern), :mod:`~guji.text.edits`
  (replace, delete, insert), :mod:`~guji.text.witnesses` (each witness's whole
  reading), :mod:`~guji.text.numerals` (一, 十三, 廿 …).

**Collation and claims** — readings held against each other and against the commentary:

* :mod:`~guji.text.align` (two readings, stroke by stroke), :mod:`~guji.text.grid`
  (several on one grid of columns), :mod:`~guji.text.agreement` (agreement groups),
  :mod:`~guji.text.corpus` and :mod:`~guji.text.collate` (every edition's reading);
* :mod:`~guji.text.claim_words`, :mod:`~guji.text.claims`, :mod:`~guji.text.checked`
  — the stroke counts a commentary states, read from its prose and checked.

Nothing here knows about time: that is :mod:`guji.timing`.
"""
