"""Text in: the notation read from any edition's text, its variant notes, and collation.

Three subsystems, a subpackage each: :mod:`guji.text.reading`, :mod:`guji.text.apparatus`,
:mod:`guji.text.collation`.

**Reading** — a text into patterns of ○ 鼙 and □ 鼓 split by 半:

* :mod:`~guji.text.reading.notation` — the values: drums, strokes, patterns, the glyph table;
* :mod:`~guji.text.reading.lexer` — text → tokens with their source locations;
* :mod:`~guji.text.reading.segments`, :mod:`~guji.text.reading.typos`, :mod:`~guji.text.reading.labels`
  — a whole text in pieces, typos between strokes, which label names which pattern;
* :mod:`~guji.text.reading.parser` (:func:`~guji.text.reading.parser.parse`: one pattern) and
  :mod:`~guji.text.reading.scan` (:func:`~guji.text.reading.scan.scan`: a whole text);
* :mod:`~guji.text.reading.encoding` — text files of unknown encoding;
* :mod:`~guji.text.reading.editions` — the shipped editions, ids, :func:`~guji.text.reading.editions.load`;
* :mod:`~guji.text.reading.names` — what patterns are called on screen, in tracks, on disk;
* :mod:`~guji.text.reading.bibl` — each witness's bibliographic description;
* :mod:`~guji.text.reading.hidden` — what a text hides, said: lost symbols, patterns in brackets;
* :mod:`~guji.text.reading.prefilter`, :mod:`~guji.text.reading.notespans`,
  :mod:`~guji.text.reading.bigfile`, :mod:`~guji.text.reading.library` — a whole library at the
  speed of the disk: the windows the scanner must read, big files, folders in parallel.

**The apparatus** — the editions' own variant notes (作, 少 無 闕 脫, 有 多 …):

* :mod:`~guji.text.apparatus.notes` (notes inside a pattern), :mod:`~guji.text.apparatus.edits`
  (replace, delete, insert), :mod:`~guji.text.apparatus.witnesses` (each witness's whole
  reading), :mod:`~guji.text.apparatus.numerals` (一, 十三, 廿 …),
  :mod:`~guji.text.apparatus.note_grammar` (one note's grammar: witness, verb, strokes).

**Collation and claims** — readings held against each other and against the commentary:

* :mod:`~guji.text.collation.align` (two readings, stroke by stroke), :mod:`~guji.text.collation.grid`
  (several on one grid of columns), :mod:`~guji.text.collation.agreement` (agreement groups),
  :mod:`~guji.text.collation.corpus` and :mod:`~guji.text.collation.collate` (every edition's reading);
* :mod:`~guji.text.collation.claim_words`, :mod:`~guji.text.collation.claims`, :mod:`~guji.text.collation.checked`
  — the stroke counts a commentary states, read from its prose and checked;
  :mod:`~guji.text.collation.speakers` (the commentator a claim stands in);
* :mod:`~guji.text.collation.hirschberg`, :mod:`~guji.text.collation.runs_split` — the
  alignments in linear memory; :mod:`~guji.text.collation.locus` — where a reading stands.

Nothing here knows about time: that is :mod:`guji.timing`.
"""
