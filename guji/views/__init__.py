"""Views: what a person looks at — the SVG pictures and the shared page.

* :mod:`guji.views.draw` — the pictures ``guji draw`` writes (source,
  timeline, both) as SVG documents and files;
* :mod:`guji.views.source` — the patterns as the sources write them;
* :mod:`guji.views.timeline` — the piano roll on one aligned grid;
* :mod:`guji.views.legend` — what the pictures call patterns and strokes;
* :mod:`guji.views.svg` — the SVG vocabulary (:class:`~guji.views.svg.Drawing`,
  text, shapes, colours);
* :mod:`guji.views.png` — PNG through a headless Chromium;
* :mod:`guji.views.page` — the HTML page to share, with its audio
  (:mod:`guji.views.page_markup`: its style, its languages marked).

The grid walker every display of an alignment shares
(:meth:`Grid.walk <guji.text.collation.grid.Grid.walk>`,
:meth:`~guji.text.collation.grid.Grid.walk_with_halves`) lives in the text stage,
:mod:`guji.text.collation.grid`, not here: the collation (:mod:`guji.text.collation.collate`) walks
the grid too, and text may not import views. The timeline, the source
columns' shading, the page's alignment table, ``guji diff``'s text table and
``guji compare --mode diff`` all take it from there.
"""
