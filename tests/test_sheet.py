"""Sheet music: built from a performance on the MIDI file's bar lines, and
read back by music21 (an independent MusicXML reader).

The engravers (MuseScore 3, LilyPond, verovio) are in test_sheet_engraving.py.
"""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
import zipfile

import music21
import pytest

from guji.cli.main import main
from guji.errors import UsageError
from guji.midi import PAD_SECONDS, build_midi
from guji.midi.gm import DEFAULT_VELOCITIES
from guji.sheet import (Instruments, Measure, Note, Sheet, Staff, sheet_of, to_lilypond,
                        to_musicxml, to_mxl, write_sheet)
from guji.sheet.fold import Run, runs
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.bars import bars
from guji.timing.layout import lay_out
from guji.timing.performance import Part, Performance, Timing, Voice
from guji.timing.score import Score

GLYPH_VOICE = {"○": Voice.SMALL, "□": Voice.BIG}


def layout(ids, rite=Rite.SHE, repeat=1, count_in=0, stacked=False, interval=0.6):
    return lay_out([load(i) for i in ids], Timing(rite, interval, repeat, count_in),
                   stacked=stacked)


#: Layouts every structural test runs on: one pattern, a sequence, passes
#: that line up when stacked, passes that do not.
LAYOUTS = {
    "lu-touhu-x4": lambda: layout(["lu"], Rite.TOUHU, repeat=4, count_in=2),
    "lu-xue-she-x3": lambda: layout(["lu", "xue"], Rite.SHE, repeat=3, count_in=4),
    "variants-stacked": lambda: layout(["lu:1", "lu:1@wuli-tongkao"], Rite.SHE, repeat=2,
                                       stacked=True),
    "lu-xue-stacked-touhu": lambda: layout(["lu", "xue"], Rite.TOUHU, repeat=6, stacked=True),
    "xue2-minus-gu": lambda: layout(["xue:2"], Rite.SHE, repeat=2).muting("鼓"),
}


def sounding(part: Part):
    """What a part plays, step by step from grid step 0: {step: voice}."""
    return {part.step + i: part.voice_at(i) for i in range(len(part.score))}


# --- the metre: the MIDI file's bar lines -------------------------------------------------

def midi_bars(performance: Performance) -> list[int]:
    """The bar lengths (beats) the MIDI file of *performance* states, ring bar included."""
    midi = build_midi(performance)
    tick, changes = 0, []
    for msg in midi.tracks[0]:
        tick += msg.time
        if msg.type == "time_signature":
            assert msg.denominator == 4
            changes.append((tick, msg.numerator))
    end = tick
    out = []
    for (t0, n), (t1, _) in zip(changes, changes[1:] + [(end, 0)]):
        span = t1 - t0
        assert span % (n * midi.ticks_per_beat) == 0, "a time signature where no bar line is"
        out += [n] * (span // (n * midi.ticks_per_beat))
    return out


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_sheet_has_the_bar_lines_of_the_midi_file(name):
    perf = LAYOUTS[name]()
    sheet = sheet_of(perf)
    played = [m.beats for m in sheet.played()]
    assert played == [b.beats for b in bars(perf)]
    in_midi = midi_bars(perf)
    # the MIDI file adds one bar of rest for the ring, the shortest of whole
    # grid steps that lasts PAD_SECONDS
    ring = -(-PAD_SECONDS // perf.interval)
    assert in_midi == played + [ring]


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_step_of_every_part_is_one_note_as_it_sounds(name):
    perf = LAYOUTS[name]()
    sheet = sheet_of(perf)
    for k in range(len(sheet.staves)):
        notes = list(sheet.notes(k, played=True))
        assert len(notes) == perf.end_step
    # each part's steps are on one staff, exactly its voices; a muted drum is a rest
    for part in perf.parts:
        want = sounding(part)
        staves = [k for k in range(len(sheet.staves))
                  if all(list(sheet.notes(k, played=True))[s].voice == v for s, v in want.items())]
        assert staves, part.name


def test_a_pass_is_written_once_between_repeat_signs():
    perf = layout(["lu"], Rite.SHE, repeat=3, count_in=4)
    measures = sheet_of(perf).measures
    assert [m.beats for m in measures] == [4, 11, 12]
    count_in, before, half = measures
    assert [n.voice for n in count_in.notes[0]] == [Voice.CLICK] * 4
    assert (before.left, before.right) == ("repeat-start", "double")
    assert (half.rehearsal, half.right, half.repeat_times) == ("半", "repeat-end", 3)
    touhu = sheet_of(layout(["lu"], Rite.TOUHU, repeat=5)).measures
    assert len(touhu) == 1
    assert (touhu[0].left, touhu[0].right, touhu[0].repeat_times) == ("repeat-start",
                                                                      "repeat-end", 5)
    once = sheet_of(layout(["lu"], Rite.SHE)).measures
    assert [(m.left, m.right, m.rehearsal) for m in once] == [("regular", "double", None),
                                                             ("regular", "final", "半")]


def test_stacked_passes_that_line_up_fold_and_those_that_do_not_are_said():
    aligned = sheet_of(LAYOUTS["variants-stacked"]())
    assert not aligned.notices
    assert [m.repeat_times for m in aligned.measures] == [None, 2]
    loose = sheet_of(LAYOUTS["lu-xue-stacked-touhu"]())
    assert len(loose.notices) == 2 and "do not line up" in loose.notices[0]
    # 12 against 8 strokes: the bars repeat where both do (every 24 steps)
    assert [m.beats for m in loose.measures[:4]] == [8, 4, 4, 8]
    assert loose.measures[3].repeat_times == 2


def test_patterns_in_turn_share_a_staff_and_stacked_ones_get_their_own():
    seq = sheet_of(layout(["lu", "xue:2"], Rite.TOUHU, count_in=2))
    assert seq.staves == (Staff("鼙 鼓", "Drums (pi 鼙, gu 鼓)"),)
    words = [m.words[0] for m in seq.measures]
    assert words == [None, "魯鼓 1 liji-zhengyi", None, "薛鼓 2 liji-zhengyi"]
    assert seq.measures[2].rests(0)                     # the gap between them
    stacked = sheet_of(layout(["lu", "xue:2"], Rite.TOUHU, stacked=True))
    assert [s.name_latin for s in stacked.staves] == ["Lu gu 魯鼓 1 liji-zhengyi",
                                                      "Xue gu 薛鼓 2 liji-zhengyi"]
    assert stacked.staves[0].lines == ("魯鼓 1", "liji-zhengyi")
    assert all(w is None for m in stacked.measures for w in m.words)


def test_each_stroke_carries_its_source_glyph():
    pattern = load("lu:1@wuli-tongkao")          # the square written 囗
    sheet = sheet_of(layout(["lu:1@wuli-tongkao"], Rite.SHE))
    assert [n.glyph for n in sheet.notes(0)] == [s.raw for s in pattern.strokes]
    assert "囗" in {s.raw for s in pattern.strokes}


@pytest.mark.parametrize("ghost", [False, True])
def test_a_muted_drum_is_left_out_of_the_sheet(ghost):
    pattern = load("lu")
    sheet = sheet_of(layout(["lu"], Rite.SHE).muting("鼓", ghost=ghost))
    notes = list(sheet.notes(0))
    strokes = pattern.strokes
    assert [n.voice for n in notes if n.voice is Voice.SMALL] == \
        [Voice.SMALL] * sum(s.glyph == "○" for s in strokes)
    assert not any(n.voice is Voice.BIG for n in notes)
    other = Voice.CLICK if ghost else None
    assert [n.voice for n, s in zip(notes, strokes) if s.glyph == "□"] == \
        [other] * sum(s.glyph == "□" for s in strokes)
    assert "鼓 (gu) " + ("as clicks" if ghost else "left out") in sheet.subtitle


def test_title_subtitle_and_credits_say_what_and_where_from():
    sheet = sheet_of(layout(["lu:2@lijing-benyi"], Rite.SHE, repeat=2, count_in=3))
    assert sheet.title == "魯鼓 · 後圖 (diagram 2) · 礼经本义"
    assert sheet.subtitle == "射禮 she: the whole pattern · 2 passes · count-in 3"
    assert "lu:2@lijing-benyi" in sheet.credits[0] and "Lijing benyi" in sheet.credits[0]
    assert "礼经本义 第 38 页/共 40 页" in sheet.credits[0]
    assert sheet.credits[1].startswith("strokes from line 3 column ")
    assert sheet.credits[1].endswith("of its digitised text")
    assert not any("000_a32c6902e9fda003" in c for c in sheet.credits)   # titles, not our files
    assert sheet.tempo_bpm == pytest.approx(100) and sheet.tempo_text == "間若一"
    assert sheet_of(layout(["lu"]), title="貍首").title == "貍首"


@pytest.mark.parametrize("ids", [["lu"], ["lu", "xue"]])
def test_every_sheet_has_the_drum_key_printed(ids):
    """One pattern or several, the page says which glyph and which note is
    which drum: in MusicXML's printed credit and in LilyPond's text."""
    sheet = sheet_of(layout(ids))
    key = "Key: ○ 鼙 (pi, small drum), the upper note; □ 鼓 (gu, big drum), the lower note"
    assert key in sheet.credits
    printed = ET.fromstring(to_musicxml(sheet).split("\n", 2)[2])
    assert any(key in (w.text or "") for w in printed.iter("credit-words"))
    assert f'"{key}"' in to_lilypond(sheet)


def test_the_sheet_credits_guji_once_as_the_mei_does():
    """guji is credited once on the page, ``guji VERSION`` as the MEI
    edition's ``<respStmt>`` names it (no LilyPond tagline besides)."""
    from guji import __version__
    sheet = sheet_of(layout(["lu"]))
    maker = f"guji {__version__}"
    assert sum(line.count("guji") for line in sheet.credits) == 1
    assert sheet.credits[-1].endswith(maker)
    ly = to_lilypond(sheet)
    printed = [line for line in ly.splitlines() if '"' in line and "guji" in line]
    assert len(printed) == 1 and maker in printed[0] and "tagline = ##f" in ly
    credit = ET.fromstring(to_musicxml(sheet).split("\n", 2)[2])
    assert sum((w.text or "").count("guji") for w in credit.iter("credit-words")) == 1


def test_a_long_title_is_set_in_lines_that_fit_and_kept_whole_in_the_metadata():
    """Four patterns' names run past the page in one line (42.5 ems at 20 pt,
    24 fit): the printed title is in lines of at most 24 ems, the full title
    in MusicXML's ``<work-title>`` and LilyPond's ``pdftitle``."""
    from guji.sheet.layout import TITLE_EMS, ems
    sheet = sheet_of(layout(["lu:1", "xue:1", "lu:2@lijing-benyi", "xue:2@wuli-tongkao"]))
    assert ems(sheet.title) > 1.5 * TITLE_EMS
    root = ET.fromstring(to_musicxml(sheet).split("\n", 2)[2])
    (title,) = [c.find("credit-words").text for c in root.iter("credit")
                if c.findtext("credit-type") == "title"]
    lines = title.split("\n")
    assert len(lines) > 1 and all(ems(line) <= TITLE_EMS for line in lines)
    assert " · ".join(lines) == sheet.title == root.findtext("work/work-title")
    ly = to_lilypond(sheet)
    assert f'pdftitle = "{sheet.title}"' in ly
    assert "\\center-column { " + " ".join(f'"{line}"' for line in lines) + " }" in ly


def test_sheets_are_refused_where_there_is_no_grid():
    lu = load("lu")
    with pytest.raises(UsageError, match="one grid"):
        sheet_of(Performance((Part(Score(lu, interval=0.5), "a"),
                              Part(Score(lu, interval=0.4, start=0.1), "b"))))


@pytest.mark.parametrize("make", [
    lambda: Note(Voice.CUE),
    lambda: Note(Voice.CLICK, "○"),
    lambda: Measure(2, ((Note(),),)),
    lambda: Measure(1, ((Note(),),), right="repeat-end"),
    lambda: Measure(1, ((Note(),),), right="repeat-end", repeat_times=1),
    lambda: Measure(1, ((Note(),),), left="sideways"),
    lambda: Sheet("t", (Staff("a", "a"),),
                  (Measure(1, ((Note(),),), right="repeat-end", repeat_times=2),)),
    lambda: Sheet("t", (Staff("a", "a"), Staff("b", "b")), (Measure(1, ((Note(),),)),)),
    lambda: Instruments(small=41),
])
def test_impossible_sheets_are_refused(make):
    with pytest.raises(ValueError):
        make()


def test_runs():
    assert runs("CAAAB", [False] * 5) == [Run(1, 1, 3)]
    assert runs("ABABAB", [False] * 6) == [Run(0, 2, 3)]
    assert runs("AAAA", [False] * 4) == [Run(0, 1, 4)]       # the shortest group wins a tie
    assert runs("AAB", [False, True, False]) == []            # a new pattern begins
    assert runs("ABCD", [False] * 4) == []


# --- MusicXML, read by music21 ------------------------------------------------------------

def parse(xml: str) -> music21.stream.Score:
    return music21.converter.parseData(xml, format="musicxml")


def strokes_of(performance: Performance, part: Part) -> list[Voice | None]:
    return [v for v in (part.voice_at(i) for i in range(len(part.score))) if v is not None]


@pytest.mark.parametrize("name", LAYOUTS)
def test_music21_reads_every_stroke_in_order_unpitched_without_tuplets(name):
    perf = LAYOUTS[name]()
    sheet = sheet_of(perf)
    score = parse(to_musicxml(sheet))
    assert len(score.parts) == len(sheet.staves)
    places = {("C", 5): Voice.SMALL, ("F", 4): Voice.BIG, ("G", 5): Voice.CLICK}
    for k, m21 in enumerate(score.parts):
        notes = list(m21.recurse().notes)
        assert all(isinstance(n, music21.note.Unpitched) for n in notes)
        assert all(n.duration.quarterLength == 1 and not n.duration.tuplets for n in notes)
        assert not any(n.tie for n in notes)
        written = [n for n in sheet.notes(k) if not n.is_rest]
        assert [places[(n.displayStep, n.displayOctave)] for n in notes] == \
            [n.voice for n in written]
        assert [n.lyric or "" for n in notes] == [n.glyph for n in written]
        # each note as loud as guji midi plays it: 鼓 112, 鼙 80, the click 72
        assert [n.volume.velocity for n in notes] == \
            [DEFAULT_VELOCITIES[n.voice] for n in written]
        # the repeats played out: what every part on this staff plays, in order
        out = [places[(n.displayStep, n.displayOctave)]
               for n in m21.expandRepeats().recurse().notes]
        assert out == [n.voice for n in sheet.notes(k, played=True) if not n.is_rest]
        assert [m.barDuration.quarterLength
                for m in m21.expandRepeats().getElementsByClass(music21.stream.Measure)] == \
            [b.beats for b in bars(perf)]


def test_music21_per_pattern_the_notes_are_the_strokes():
    """lu then xue on one staff: each pattern's notes, from the measure its name
    stands over, are its strokes in order, pass after pass."""
    perf = layout(["lu", "xue"], Rite.SHE, repeat=2, count_in=4)
    m21 = parse(to_musicxml(sheet_of(perf))).parts[0].expandRepeats()
    names = {p.name: p for p in perf.parts}
    found = {}
    current = None
    places = {("C", 5): "○", ("F", 4): "□", ("G", 5): "click"}
    for measure in m21.getElementsByClass(music21.stream.Measure):
        for text in measure.recurse().getElementsByClass(music21.expressions.TextExpression):
            if text.content in names:
                current = text.content
        for n in measure.recurse().notes:
            found.setdefault(current, []).append(places[(n.displayStep, n.displayOctave)])
    assert found.pop(None) == ["click"] * 4
    for name, part in names.items():
        assert found[name] == [s.glyph for s in part.score.played] * 2


def test_music21_sees_the_marks_the_tempo_and_the_titles():
    sheet = sheet_of(layout(["lu"], Rite.SHE, repeat=3, count_in=4, interval=0.65))
    score = parse(to_musicxml(sheet))
    m1, m2, m3 = score.parts[0].getElementsByClass(music21.stream.Measure)
    assert [ts.ratioString for ts in score.recurse().getElementsByClass(music21.meter.TimeSignature)] \
        == ["4/4", "11/4", "12/4"]
    assert isinstance(m2.leftBarline, music21.bar.Repeat) and m2.leftBarline.direction == "start"
    assert m2.rightBarline.type == "double"
    assert isinstance(m3.rightBarline, music21.bar.Repeat) and m3.rightBarline.times == 3
    assert [r.content for r in m3.recurse().getElementsByClass(
        music21.expressions.RehearsalMark)] == ["半"]
    texts = [t.content for t in score.recurse().getElementsByClass(
        music21.expressions.TextExpression)]
    assert "間若一" in texts and "×3" in texts
    mark = list(score.recurse().getElementsByClass(music21.tempo.MetronomeMark))[0]
    assert mark.number == pytest.approx(92.3) and mark.referent.quarterLength == 1
    assert score.metadata.title == sheet.title
    assert score.parts[0].partName == "Drums (pi 鼙, gu 鼓)" or \
        score.parts[0].partName.startswith("Lu gu")


def test_musicxml_instruments_are_those_of_guji_midi():
    sheet = sheet_of(layout(["lu"], count_in=1), instruments=Instruments(small=45))
    root = ET.fromstring(to_musicxml(sheet).split("\n", 2)[2])
    assert root.get("version") == "4.0"
    keys = {mi.get("id"): (mi.findtext("midi-channel"), mi.findtext("midi-unpitched"))
            for mi in root.iter("midi-instrument")}
    assert keys == {"P1-I1": ("10", "46"), "P1-I2": ("10", "42"), "P1-I3": ("10", "77")}
    assert root.findtext(".//clef/sign") == "percussion"
    assert [c.findtext("credit-words").split("\n")[0] for c in root.iter("credit")][0] == \
        sheet.title
    assert "liji-zhengyi" in root.findtext("identification/source")


def test_the_same_sheet_gives_the_same_bytes():
    sheet = sheet_of(layout(["lu", "xue"], repeat=2))
    assert to_musicxml(sheet) == to_musicxml(sheet_of(layout(["lu", "xue"], repeat=2)))
    assert to_mxl(sheet) == to_mxl(sheet)


def test_mxl_is_a_container_music21_reads(tmp_path):
    sheet = sheet_of(layout(["lu"], Rite.SHE, repeat=3, count_in=4))
    data = to_mxl(sheet)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.namelist()[0] == "mimetype"
        assert z.getinfo("mimetype").compress_type == zipfile.ZIP_STORED
        assert z.read("mimetype") == b"application/vnd.recordare.musicxml"
        rootfile = ET.fromstring(z.read("META-INF/container.xml")).find("rootfiles/rootfile")
        assert rootfile.get("full-path") == "score.musicxml"
    path = tmp_path / "lu.mxl"
    path.write_bytes(data)
    notes = music21.converter.parse(path).parts[0].expandRepeats().recurse().notes
    assert len(list(notes)) == 4 + 3 * 23


def test_lilypond_source_holds_the_score():
    sheet = sheet_of(layout(["lu"], Rite.SHE, repeat=3, count_in=4))
    ly = to_lilypond(sheet)
    pattern = load("lu")
    assert "\\repeat volta 3 {" in ly and '\\textEndMark "×3"' in ly
    assert '\\bar "||"' in ly and '\\mark \\markup \\box \\medium "半"' in ly
    assert '\\tempo \\markup \\medium "間若一" 4 = 100' in ly
    assert [t for t in ("\\time 4/4", "\\time 11/4", "\\time 12/4") if t in ly] == \
        ["\\time 4/4", "\\time 11/4", "\\time 12/4"]
    assert ly.count("mutehiconga4") == sum(s.glyph == "○" for s in pattern.strokes)
    # 鼓 accented, louder than 鼙 (guji midi: 112 against 80)
    assert ly.count("lowfloortom4->") == sum(s.glyph == "□" for s in pattern.strokes)
    assert "mutehiconga4->" not in ly and "hiwoodblock4->" not in ly
    assert ly.count("hiwoodblock4") == 4
    assert ly.count("{") == ly.count("}")
    with pytest.raises(UsageError, match="35–81"):
        to_lilypond(sheet_of(layout(["lu"]), instruments=Instruments(small=20)))


# --- the command line ---------------------------------------------------------------------

def run(argv):
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("suffix", [".musicxml", ".mxl", ".ly"])
def test_guji_sheet_writes_each_format(tmp_path, capsys, suffix):
    out = tmp_path / f"lu-xue{suffix}"
    assert run(["sheet", "lu", "xue", "--rite", "she", "--repeat", "2", "--count-in", "4",
                "-o", str(out)]) == 0
    said = capsys.readouterr().err
    assert said.startswith(f"wrote {out}: ") and "; 51 strokes written; 1 staff" in said
    score = music21.converter.parse(out) if suffix != ".ly" else None
    if score is not None:
        assert len(list(score.parts[0].expandRepeats().recurse().notes)) == 4 + 2 * 51
    else:
        assert out.read_text(encoding="utf-8").startswith('\\version "2.24.0"')


def test_guji_sheet_mute_and_map_reach_the_file(tmp_path):
    out = tmp_path / "lu.musicxml"
    assert run(["sheet", "lu", "--solo", "○", "--map", "鼙=45", "-o", str(out)]) == 0
    notes = list(music21.converter.parse(out).recurse().notes)
    assert len(notes) == sum(s.glyph == "○" for s in load("lu").half)
    assert 'midi-unpitched>46<' in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv,message", [
    (["sheet", "lu", "-o", "x.doc"], "unknown sheet music format '.doc'"),
    (["sheet", "lu", "-o", "-"], "give a file name"),
    (["sheet", "lu", "-o", "nowhere/x.musicxml"], "no such directory"),
    (["sheet", "lu", "--ghost", "click", "-o", "x.ly"], "give --mute or --solo too"),
    (["sheet", "lu", "--mute", "cue", "-o", "x.ly"], "only a drum can be muted"),
    (["sheet", "lu", "--map", "鼙=41", "-o", "x.ly"], "three different keys"),
])
def test_guji_sheet_errors_are_one_line(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_missing_engraver_is_one_line_of_advice(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "verovio", None)      # import verovio fails
    assert run(["sheet", "lu", "-o", str(tmp_path / "lu.svg")]) == 2
    err = capsys.readouterr().err
    assert err == ("guji: SVG sheet music needs verovio: pip install verovio (or "
                   "'guji[sheet]'); .musicxml, .mxl and .ly need nothing\n")
    monkeypatch.setenv("PATH", str(tmp_path))                # no lilypond on it
    assert run(["sheet", "lu", "-o", str(tmp_path / "lu.pdf")]) == 2
    assert "PDF sheet music needs LilyPond: apt-get install lilypond" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_names_from_a_users_file_cannot_break_the_xml(tmp_path):
    text = tmp_path / "notes\x1b[2J.txt"
    text.write_text("魯鼓 ○□○半○□○", encoding="utf-8")
    perf = lay_out([load(f"lu@{text}")])
    out = write_sheet(tmp_path / "n.musicxml", perf)
    assert "U+001B" in out.read_text(encoding="utf-8")
    assert len(list(music21.converter.parse(out).recurse().notes)) == 3


def test_help_documents_every_option(capsys):
    for command in ("sheet", "midi", "render", "play"):
        assert run([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        for option in ("--mute", "--solo", "--ghost", "--stack", "--gap", "--repeat",
                       "--count-in", "--rite"):
            assert option in text, (command, option)
    assert run(["sheet", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for word in ("--glyphs", "--title", "--map", ".musicxml", ".mxl", ".ly", ".svg", ".pdf",
                 "verovio", "LilyPond", "間若一", "半"):
        assert word in text, word
