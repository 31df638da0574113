"""Words built inside data classes, said in the user's language (issue 23).

The playback report's summary (``guji: playback: …``), the compare schedule,
variant descriptions and the studio's refusals are built in frozen values; they
are put into words when shown, so a Chinese session reads them in Chinese while
the JSON and MEI stay the same bytes in every language.
"""

from __future__ import annotations

import runner

from guji.sound.report import PlayReport
from test_page_languages import speaking
from test_studio import ask, studio  # noqa: F401  (the fixture: a real studio on loopback)


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


def test_the_compare_schedule_in_chinese_its_data_in_english(tmp_path):
    argv = ["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "diff", "--rite", "she", "--repeat", "2"]
    runs = {lang: runner.guji(["--lang", lang, *argv, "-o", f"{lang}.mid"], tmp_path)
            for lang in ("en", "zh-Hant", "zh-Hans")}
    assert all(r.returncode == 0 for r in runs.values()), [r.stderr for r in runs.values()]
    han = runs["zh-Hant"].stdout.decode().splitlines()
    assert han[1] == ("   0.00 秒  A 魯鼓 1 liji-zhengyi（lu:1@liji-zhengyi），射禮 she，23 擊 × 2 遍，"
                      "B lu:1@wuli-tongkao 不同之處響鈴")
    assert han[2] == "標出之處（該擊上響鈴）："
    assert han[3] == "     1.80 秒  A 第 4 擊 ○ 鼙：B lu:1@wuli-tongkao 擊 □ 鼓（第 1 遍）"
    assert "击 □ 鼓（第 2 遍）" in runs["zh-Hans"].stdout.decode()
    assert "23 strokes × 2 passes, a bell where B lu:1@wuli-tongkao differs" in runs["en"].stdout.decode()
    # the bells' MIDI markers and the --json plan are data: the same bytes in every language
    assert len({(tmp_path / f"{lang}.mid").read_bytes() for lang in runs}) == 1
    plans = {runner.guji(["--lang", lang, *argv, "--json"], tmp_path).stdout for lang in runs}
    assert len(plans) == 1 and "strikes □ 鼓 (pass 1)" in plans.pop().decode()


def test_the_stereo_schedule_and_its_note_in_chinese(tmp_path):
    r = runner.guji(["--lang", "zh-Hant", "compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "stereo",
                     "--count-in", "2", "-o", "s.mid"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines()[1:] == [
        "   0.00 秒  預備拍，節拍聲 2 下（左）",
        "   1.20 秒  A 魯鼓 1 liji-zhengyi（lu:1@liji-zhengyi），投壺 touhu，12 擊，左",
        "   1.20 秒  B 魯鼓 1 wuli-tongkao（lu:1@wuli-tongkao），投壺 touhu，12 擊，右",
        "注意：各讀法只在「半」之前不同，投壺（touhu）不奏：用 --rite she 才聽得到其不同"]


def test_the_editions_place_and_the_variants_in_chinese(tmp_path):
    shown = runner.guji(["--lang", "zh-Hant", "show", "lu:1"], tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "  出處：禮記正義 卷第五十九之二，其數位文本（典藏 不詳）第3241行第3列" in shown.stdout.decode().splitlines()
    assert "其数字化文本（馆藏 不详）第3241行第3列" in runner.guji(["--lang", "zh-Hans", "show", "lu:1"],
                                                 tmp_path).stdout.decode()
    collated = runner.guji(["--lang", "zh-Hant", "collate"], tmp_path)
    lines = collated.stdout.decode().splitlines()
    assert ("  異文：liji-zhengyi 第 4 擊（「半」前）：○ liji-zhengyi, lijing-benyi；□ wuli-tongkao"
            in lines)
    assert "  不符 wuli-tongkao：全 鼙 數得 12，所言之數 13 — lijing-benyi 第1行第259列 鼙声十三" in lines
    assert "    2. wuli-tongkao (1): 「半」前：第 4 擊作 □（底本作 ○）" in lines
    assert "    2. wuli-tongkao (1): before 半: □ for ○ at stroke 4" in runner.guji(
        ["--lang", "en", "collate"], tmp_path).stdout.decode().splitlines()
    (tmp_path / "n.txt").write_text("魯鼓○□○○□(一本作○)□○□○○□半○□○□○○○□□○□○\n", encoding="utf-8")
    scanned = runner.guji(["--lang", "zh-Hant", "scan", "n.txt"], tmp_path)
    assert scanned.stdout.decode().splitlines()[-1].endswith("（異文注 (一本作○) 於 1:8）")
    english = runner.guji(["--lang", "en", "scan", "n.txt"], tmp_path).stdout.decode()
    assert english.splitlines()[-1].endswith("(note (一本作○) at 1:8)")
    # what tools read stays English and the same bytes: collate's JSON
    plans = {runner.guji(["--lang", lang, "collate", "--json"], tmp_path).stdout
             for lang in ("en", "zh-Hant")}
    assert len(plans) == 1


def test_the_studios_refusals_in_chinese(studio):
    with speaking("zh-Hant"):
        status, answer, _ = ask(studio, "GET", "/api/state", host="evil.example:1")
        assert status == 421
        assert answer["error"] == ("拒絕：此請求所指的主機是 'evil.example:1'，不是本工作室"
                                   f"（127.0.0.1:{studio.port}）")
        status, answer, _ = ask(studio, "GET", "/api/state", token=False)
        assert status == 403 and answer["error"].startswith("拒絕：此網址缺少工作室的工作階段權杖")
    with speaking("zh-Hans"):
        status, answer, _ = ask(studio, "GET", "/api/state", headers={"Origin": "http://evil.example"})
        assert (status, answer["error"]) == (403, "拒绝：来自其他网站（http://evil.example）的请求不得使用工作室")
    status, answer, _ = ask(studio, "GET", "/api/state", token=False)
    assert answer["error"].startswith("refused: this address lacks the studio's session token")


def test_guji_diff_in_chinese_its_json_the_same(tmp_path):
    argv = ["diff", "lu:1", "lu:1@wuli-tongkao"]
    han = runner.guji(["--lang", "zh-Hant", *argv], tmp_path).stdout.decode().splitlines()
    assert han[-2:] == ["異 1 處，衍 0 處，脫 0 處（以 A 為底本，編輯距離 1）",
                        "  異：A 第 4 擊 ○ 鼙（「半」前，1:6） → B 第 4 擊 □ 鼓（「半」前，1:5）"]
    same = runner.guji(["--lang", "zh-Hans", "diff", "lu:1", "lu:1@lijing-benyi"], tmp_path)
    assert same.stdout.decode().splitlines()[-1] == "相同：23 击，「半」在第 11 击之后"
    english = runner.guji(["--lang", "en", *argv], tmp_path).stdout.decode()
    assert "1 substitution, 0 insertions, 0 deletions (edit distance 1, from A to B)" in english
    assert len({runner.guji(["--lang", lang, *argv, "--json"], tmp_path).stdout
                for lang in ("en", "zh-Hant", "zh-Hans")}) == 1
