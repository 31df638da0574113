"""Practice: a recording of the drums heard and checked against the score.

:mod:`~guji.practice.onsets` finds when each hit starts (to a fraction of a
sample), :mod:`~guji.practice.drums` tells 鼙 (small) from 鼓 (big),
:mod:`~guji.practice.transcribe` reads a recording block by block into
hits, :mod:`~guji.practice.expected` lists what the performance plays on
which grid step, :mod:`~guji.practice.pairing` pairs hits with strokes
(on time, wrong drum, missing, extra) and :mod:`~guji.practice.report`
says how it went, per stroke and overall (``guji check``).
"""
