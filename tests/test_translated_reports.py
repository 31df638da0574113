"""Words built inside data classes, said in the user's language (issue 23).

The playback report's summary (``guji: playback: …``), the compare schedule,
variant descriptions and the studio's refusals are built in frozen values; they
are put into words when shown, so a Chinese session reads them in Chinese while
the JSON and MEI stay the same bytes in every language.
"""

from __future__ import annotations

import contextlib

from guji import i18n
from guji.sound.report import PlayReport


@contextlib.contextmanager
def speaking(lang: str):
    before = i18n.language()
    i18n.use(lang)
    try:
        yield
    finally:
        i18n.use(before)


def test_the_playback_summary_in_each_language():
    bad = PlayReport(latency=0.2, underflows=2, jumps=1, jumped=0.25, starved=1,
                     starved_frames=2400,
                     alsa_messages=("pcm.c:8570 snd_pcm_recover: underrun occurred",) * 2)
    with speaking("zh-Hant"):
        assert PlayReport(latency=0.2).summary() == "延遲 200 毫秒：無斷音"
        said = bad.summary()
        null = PlayReport(latency=0.2, clockless=True, alsa_messages=("x: underrun occurred",))
        assert null.summary() == ("延遲 200 毫秒（裝置沒有時鐘，比實際時間快：未核對時間）："
                                  "ALSA 報告 underrun occurred ×1")
    assert said == ("延遲 200 毫秒：斷音（緩衝不足）2 次，下游空隙 1 處（250 毫秒），"
                    "遲到的音塊 1 個（靜音 2400 幀），ALSA 報告 underrun occurred ×2；"
                    "加大 --latency 或可改善")
    with speaking("zh-Hans"):
        assert bad.summary().startswith("延迟 200 毫秒：断音（缓冲不足）2 次")
    with speaking("en"):     # the English words are the msgids themselves
        assert bad.summary().startswith("latency 200 ms: 2 underruns, 1 gap downstream (250 ms)")
