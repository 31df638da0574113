"""The critical edition (校本): the collation as MEI, its apparatus as a table, and back.

* :mod:`guji.edition.mei` — one MEI 4.0.1 document of the chosen patterns
  and witnesses: ``<sourceDesc>`` with a ``<source>`` per witness, the base
  reading as ``<lem>``, an ``<app>`` at every place of variation
  (:func:`to_mei`);
* :mod:`guji.edition.music` — one pattern's ``<mdiv>``: the percussion
  staff of ``guji sheet``, 鼙 and 鼓 named, 半, the variant notes and the
  count claims as ``<annot>``;
* :mod:`guji.edition.tei` — the textual apparatus as one TEI P5 document
  (:func:`~guji.edition.tei.to_tei`): ``<listWit>``, the passage in parallel
  segmentation at the MEI's places and ids, the notes and claims as ``<note>``;
* :mod:`guji.edition.header` — what an editor signs: title, editor, licence,
  date (``--editor`` …, ``guji-edition.toml``), the normalisation stated;
* :mod:`guji.edition.ids` — the ``xml:id`` of each witness;
* :mod:`guji.edition.xml` — MEI's namespace, ``xml:lang``, safe text;
* :mod:`guji.edition.table` — the apparatus as CSV or TSV, one row per place
  of variation;
* :mod:`guji.edition.read` — a witness's reading of a pattern read back from
  an MEI edition (``lu:1@edition.mei~wuli-tongkao``), so every command plays it.
"""

from .mei import to_mei

__all__ = ["to_mei"]
