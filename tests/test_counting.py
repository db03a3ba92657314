"""Learning a mines-left counter by watching it count (bot/vision/counting.py), from the strips
above the board that a real game showed while minebot learnt it: winemine on Xvfb, its pack hidden,
20 beginner games from nothing (fixtures/winemine/counter-strips/<mines left>-<n>.png). Its
seconds counter stands on the left, the mines counter on the right (cut by the board's right edge
at beginner, as reading.py's band is)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.learning.naming import Looks
from bot.vision import counting, load_image, load_packs, read
from bot.vision.counter import chosen_number, glyph_ink, label_value, picture_numbers, read_glyphs
from bot.vision.counting import CounterWatch, learn_digits, learn_text
from bot.vision.grid import find_grid
from bot.vision.labels import read_label
from bot.vision.pack import load_pack
from bot.vision.reading import board_state, read_counter
from bot.vision.writing import add_counter
from bot.vocabulary import COVERED, FLAG, MINE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
STRIPS = FIXTURES / "winemine" / "counter-strips"
XBOMB = FIXTURES / "xbomb" / "counter-strips"  # above/ and below/ the board, 10 beginner games
MINEGAULER = FIXTURES / "minegauler" / "counter-strips"  # above the board, 20 beginner games
# text labels that count the flags up, from 10 beginner games each: below the board (kmines "Mines:
# 3/10", sgt-mines "Marked: 3 / 10"), right of it (gnome-mines "3/10")
LABELS = [("kmines", "below"), ("sgt-mines", "below"), ("gnome-mines", "beside")]


def _strips(folder: Path = STRIPS) -> dict[int, list[np.ndarray]]:
    strips: dict[int, list[np.ndarray]] = {}
    for png in sorted(folder.glob("*.png")):
        strips.setdefault(int(png.stem.partition("-")[0]), []).append(load_image(png))
    return strips


def test_the_strips_hold_every_last_digit_and_a_timer_that_changes() -> None:
    strips = _strips()
    assert {count % 10 for count in strips} == set(range(10))
    assert any(not np.array_equal(kept[0], kept[1]) for kept in strips.values() if len(kept) == 2)


def test_a_counter_learnt_from_the_strips_reads_every_screenshot_as_the_shipped_pack() -> None:
    """The digits learnt at beginner read the counter of every winemine screenshot, at every size
    (99, 137, 81 and 50 mines among them: hundreds and digits in places never seen counting), as
    the shipped pack's own pictures do."""
    learnt = learn_digits(_strips())
    assert learnt is not None
    assert learnt.side == "right" and learnt.place == "above"
    # always "010", never "10": one with a digit covered is not read as 1 or 0
    assert learnt.shortest == 3
    # the timer beside it: with one covered, neither is read
    assert learnt.settings()["counters"] == 2
    assert sorted(learnt.digits) == list(range(10))
    assert len(_read_as_shipped(learnt, "winemine")) >= 8


def _read_as_shipped(learnt: counting.LearntCounter, game: str) -> set[int | None]:
    """The counts the shipped pack of ``game`` reads on its screenshots, each read the same by the
    digits ``learnt`` (asserted), none missing."""
    pack = load_packs([game])[0]
    taught = replace(
        pack,
        digits=dict(learnt.digits),
        counter=learnt.side,
        counter_shortest=learnt.shortest,
        counters=learnt.counters,
    )
    counts = []
    for png in sorted((FIXTURES / game).glob("*.png")):
        image = load_image(png)
        geometry = read(image, [pack]).geometry
        counts.append(read_counter(image, geometry, pack))
        assert read_counter(image, geometry, taught) == counts[-1], png.stem
    assert None not in counts
    return set(counts)


@pytest.mark.slow
def test_a_counter_below_the_board_with_no_leading_zeros_is_learnt_and_reads_every_screenshot() -> (
    None
):
    """xbomb writes the mines left below its board ("UXB :  8", right-aligned, no leading zero),
    and nothing that counts above it: the watch learns the counter below, taking lone digits, and
    its digits read each xbomb screenshot's counter as the mines less the flags on its board (beginner
    and expert)."""
    watch = CounterWatch(10)
    watch.samples = {"above": _strips(XBOMB / "above"), "below": _strips(XBOMB / "below")}
    learnt = watch.learn()
    assert learnt is not None and (learnt.side, learnt.place, learnt.shortest) == (
        "right",
        "below",
        1,
    )
    assert learn_digits(_strips(XBOMB / "above"), "above") is None
    pack = replace(load_packs(["winemine"])[0], digits=dict(learnt.digits), **learnt.settings())
    for board in sorted((FIXTURES / "xbomb").glob("*.board")):
        truth, image = read_label(board), load_image(board.with_suffix(".png"))
        flags = int((truth.board.cells == FLAG).sum())
        assert read_counter(image, find_grid(image), pack) == truth.board.mines - flags, board.stem
    assert read_counter(image, find_grid(image), replace(pack, counter_at="above")) is None


def test_a_counter_beside_a_timer_that_showed_the_same_second_twice_is_learnt_and_reads_every_screenshot() -> (
    None
):
    """minegauler's strips from a 20-game run that learnt no counter: the timer on the right showed
    the same second in both strips of some numbers (they come from different games), so a few of its
    pixels passed for the last digit's, and one box round them all took in the timer. The run of
    columns with the most such pixels is the last digit: its pictures read every minegauler
    screenshot's counter as the shipped pack does."""
    strips = _strips(MINEGAULER)
    timer_x = strips[0][0].shape[1] * 2 // 3  # the timer's half of the band
    assert any(
        np.array_equal(kept[0][:, timer_x:], kept[1][:, timer_x:]) for kept in strips.values()
    )
    learnt = learn_digits(strips)
    assert learnt is not None and (learnt.side, learnt.place, learnt.shortest, learnt.counters) == (
        "left",
        "above",
        3,
        2,
    )
    assert len(_read_as_shipped(learnt, "minegauler")) >= 5


@pytest.mark.slow
def test_a_counter_that_shows_lone_digits_is_not_read_from_them_unless_its_pack_says_so() -> None:
    """Two digits at least, as the shipped packs read counters (a lone digit is more often a stray
    match); the xbomb strips under 10 then read as nothing, so the learnt counter says 1."""
    learnt = learn_digits(_strips(XBOMB / "below"), "below")
    assert learnt is not None
    strips = _strips(XBOMB / "below")
    reads = {
        count: chosen_number(picture_numbers(strips[count][0], 1.0, dict(learnt.digits)), "right")
        for count in (3, 10)
    }
    assert reads == {3: None, 10: 10}


def test_no_counter_is_learnt_before_every_last_digit_showed() -> None:
    strips = {count: kept for count, kept in _strips().items() if count % 10 != 7}
    assert learn_digits(strips) is None


def test_a_number_that_is_not_the_mines_left_teaches_no_counter() -> None:
    """Strips taken for one more mine left than they show (a counter of something else, or a
    board read wrong) agree among themselves digit by digit, but their pictures do not read them
    back: nothing is learnt, rather than a counter that reads one off."""
    assert learn_digits({count + 1: kept for count, kept in _strips().items()}) is None


def test_a_counter_of_the_flags_placed_teaches_nothing() -> None:
    """A counter that counts the flags up (10 less the mines left, here): its last digits follow
    the mines left's one to one, but its pictures do not read its numbers back."""
    assert learn_digits({10 - count: kept for count, kept in _strips().items()}) is None


def test_the_watch_learns_only_once_it_saw_the_mine_count() -> None:
    """The counter must show the mine count with no flag placed: without that strip, nothing."""
    strips = _strips()
    watch = CounterWatch(10)
    watch.samples["above"] = {count: kept for count, kept in strips.items() if count != 10}
    assert watch.learn() is None and not watch.learnt
    watch.samples["above"][10] = strips[10]
    assert watch.learn() is not None and watch.learnt


def test_strips_of_another_size_teach_nothing() -> None:
    strips = _strips()
    strips[3] = [strips[3][0][:-1]]
    assert learn_digits(strips) is None


def test_the_watch_keeps_two_strips_a_second_apart_per_number_once_it_held_a_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    monkeypatch.setattr(counting.time, "monotonic", lambda: now[0])
    watch = CounterWatch(10)
    band = np.zeros((4, 4, 3), dtype=np.uint8)
    grabs = []

    def bands(shade: int) -> Callable[[], dict[str, np.ndarray]]:
        def grab() -> dict[str, np.ndarray]:
            grabs.append(shade)
            return {"above": band + shade, "below": band + shade + 1}

        return grab

    watch.see(bands(1), 7)  # the first reading with 7 left: the counter may not show it yet
    # kept at 0 and 1.1 s; the rest is too soon, or one too many
    for step in (
        0,
        0.5,
        1.1,
        2.5,
        4.0,
    ):
        now[0] = 100 + step
        watch.see(bands(int(10 * step)), 7)
    assert [int(b[0, 0, 0]) for b in watch.samples["above"][7]] == [0, 11]
    assert [int(b[0, 0, 0]) for b in watch.samples["below"][7]] == [1, 12]
    # the strips grabbed only when kept
    assert grabs == [0, 11] and not watch.wants(7) and watch.wants(6)
    # two strips of numbers ending in 7 kept: no more flags one by one
    assert not watch.eager(17) and watch.eager(6)
    watch.see(bands(0), 6)
    assert 6 not in watch.samples["above"]
    for count in range(17, 100, 10):  # numbers ending in 7: SAMPLES_PER_DIGIT of them at most
        watch.see(bands(0), count)
        watch.see(bands(0), count)
    assert (
        sum(len(kept) for count, kept in watch.samples["above"].items() if count % 10 == 7)
        == counting.SAMPLES_PER_DIGIT
    )
    assert not watch.wants(27) and not watch.wants(97)
    watch.learnt = True
    assert not watch.wants(8)
    watch.see(bands(0), 8)
    watch.see(bands(0), 8)
    assert 8 not in watch.samples["above"] and watch.learn() is None


def test_mines_left_are_told_only_for_a_board_in_play_whose_every_look_is_named() -> None:
    looks = Looks(hidden={0: COVERED, 1: FLAG}, possible={2: frozenset({1}), 3: frozenset({1, 2})})
    board = np.array([[0, 1, 2], [0, 0, 1]])
    assert looks.mines_left(board, 10) == 8
    # a look not named yet (it may be a flag)
    assert looks.mines_left(np.array([[0, 3]]), 10) is None
    assert looks.mines_left(np.array([[1, 2]]), 10) is None  # no cell covered: over (flagged whole)
    looks.ends[4] = MINE
    assert looks.mines_left(np.array([[0, 4]]), 10) is None  # a mine shows: over


def test_skins_lists_a_learnt_pack_with_its_counter_and_removes_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`minebot skins`: each pack, shipped or learnt, with where its mines counter is; --remove
    takes a learnt pack away and refuses a shipped one."""
    from bot.cli import main
    from bot.userdata import learnt_skins
    from bot.vision.writing import start_learnt_pack

    learnt = learn_digits(_strips(XBOMB / "below"), "below")
    assert learnt is not None
    folder = learnt_skins() / "learnt-xbomb"
    folder.mkdir(parents=True)
    start_learnt_pack(folder, 50, (50.0, 50.0), "safe", 100, 16.0)
    cv2.imwrite(str(folder / "covered.png"), np.zeros((50, 50, 3), np.uint8))
    add_counter(folder, learnt.digits, learnt.settings())
    assert main("skins") == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert "learnt" in lines["learnt-xbomb"] and "at any size" in lines["learnt-xbomb"]
    assert "mines counter: the right one below the board" in lines["learnt-xbomb"]
    assert "mines counter: the right one above the board" in lines["winemine"]
    assert "mines counter: the flags/mines label right of the board" in lines["gnome-mines"]
    assert main("skins", "--remove", "learnt-xbomb") == 0 and not folder.exists()
    assert main("skins", "--remove", "winemine") != 0
    assert "shipped with minebot" in capsys.readouterr().err


def test_a_learnt_counter_is_added_to_a_pack_once(tmp_path: Path) -> None:
    learnt = learn_digits(_strips())
    assert learnt is not None
    folder = tmp_path / "learnt-x"
    folder.mkdir()
    (folder / "pack.json").write_text(
        '{"cell_px": 16, "pitch": [16, 16], "scales": "any", "learnt": true}\n'
    )
    cv2.imwrite(str(folder / "covered.png"), np.zeros((16, 16, 3), np.uint8))
    assert len(add_counter(folder, learnt.digits, learnt.settings())) == 10
    pack = load_pack("learnt-x", tmp_path)
    assert pack.has_counter and (
        pack.counter,
        pack.counter_at,
        pack.counter_shortest,
        pack.counters,
    ) == ("right", "above", 3, 2)
    shrunk = {d: p[:, :-1] for d, p in learnt.digits.items()}
    assert add_counter(folder, shrunk, {"counter": "left"}) == []  # never overwritten
    assert load_pack("learnt-x", tmp_path).counter == "right"


def test_the_watch_keeps_the_mine_count_after_other_numbers_ending_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """learn needs a strip of the mine count: four strips of numbers ending in 0 do not crowd it out
    (a CI run of ace-minesweeper kept 40 strips, none of 200, and learnt no counter)."""
    now = [100.0]
    monkeypatch.setattr(counting.time, "monotonic", lambda: now[0])
    watch = CounterWatch(200)
    for left in (190, 180, 170, 160, 150, 200):
        for _ in range(2):  # the second reading of a number is kept
            now[0] += 2.0
            watch.see(lambda: {"above": np.zeros((4, 4, 3), np.uint8)}, left)
    assert sorted(watch.samples["above"]) == [160, 170, 180, 190, 200]


def test_a_run_that_learns_no_counter_says_what_it_saw() -> None:
    """A learning run whose counter was not learnt says why on its last line: the last digits it
    never saw, or that it saw them all and no digits read every strip back (a CI run once learnt no
    counter in 12 intermediate games of winemine, and nothing said which)."""
    watch = CounterWatch(40)
    for left in (40, 39, 38, 35):
        watch.see(lambda: {"above": np.zeros((4, 4, 3), np.uint8)}, left)
        # the second reading of a number is kept
        watch.see(lambda: {"above": np.zeros((4, 4, 3), np.uint8)}, left)
    assert (
        watch.account() == "4 strips of 4 numbers (40 to 35); no number ending in 1, 2, 3, 4, 6, 7"
    )
    once = CounterWatch(10)
    for _ in range(2):
        once.see(lambda: {"above": np.zeros((4, 4, 3), np.uint8)}, 10)
    assert once.account().startswith("1 strip of 1 number (10); no number ending in 1, 2,")
    unseen = CounterWatch(10)
    assert (
        unseen.account()
        == "0 strips of 0 numbers; no number ending in 0, 1, 2, 3, 4, 5, 6, 7, 8, 9; not the mine count, 10"
    )


@pytest.mark.slow
@pytest.mark.parametrize("game, place", LABELS)
def test_a_label_counting_the_flags_up_is_learnt_and_reads_every_screenshot(
    game: str, place: str
) -> None:
    """Text shifts as its numbers widen, and its anti-aliasing with where it falls: no pixel of a
    digit is the same in every strip, so no digits are learnt as pictures. As text, the glyphs of
    the strips spell each one's "flags/10" one way only, and the digits learnt read the counter of
    every screenshot of the game (other sizes, lost and won games) as it shows: the mine count less
    the flags, nothing where no counter shows (sgt-mines writes "DEAD!" or "COMPLETED!" there;
    gnome-mines' screenshots cut off left of the label)."""
    strips = _strips(FIXTURES / game / "counter-strips")
    assert learn_digits(strips, place) is None
    learnt = learn_text(strips, 10, place)
    assert (
        learnt is not None
        and (learnt.side, learnt.place) == ("label", place)
        and learnt.text is not None
    )
    assert set(learnt.digits) == {*range(10), "/"}
    pack = replace(
        load_packs(["gnome-mines"])[0],
        digits=dict(learnt.digits),
        counter="label",
        counter_at=place,
        counter_text=learnt.text,
    )
    shipped = load_packs([game])[0] if game == "gnome-mines" else None
    counts = []
    for board in sorted((FIXTURES / game).glob("*.board")):
        truth, image = read_label(board), load_image(board.with_suffix(".png"))
        if shipped is not None:
            shown = read(image, [shipped]).counter
        elif game == "sgt-mines" and board_state(truth.board) != "playing":
            shown = None
        else:
            shown = (truth.board.mines or 0) - int(np.isin(truth.board.cells, (FLAG,)).sum())
        counts.append(read_counter(image, find_grid(image), pack))
        assert counts[-1] == shown, board.stem
    assert len([count for count in counts if count is not None]) >= 3


def test_strips_that_contradict_their_numbers_teach_no_label() -> None:
    """The strips of 0 and of 10 mines left swapped: "0/10" cannot be spelt where "10/10" shows,
    whatever glyph stands for which digit, so nothing is learnt."""
    strips = _strips(FIXTURES / "kmines" / "counter-strips")
    strips[0], strips[10] = strips[10], strips[0]
    assert learn_text(strips, 10, "below") is None


def test_a_label_is_read_as_a_word_of_its_own() -> None:
    """flags/mines with a space either side of the "/" or none, between spaces or the line's
    ends: not a number run into another glyph (a letter, an unread digit)."""
    assert label_value(["? 3/10 ???"]) == 7
    assert label_value(["??????? 3 / 10"]) == 7
    assert (
        label_value(["?3/10"]) is None
        and label_value(["3/10?"]) is None
        and label_value(["3/"]) is None
    )


def test_glyphs_of_one_character_drawn_a_fraction_of_a_pixel_apart_read_alike() -> None:
    """kmines' strips: the '0' of "/10" falls on another sub-pixel position as the flags before it
    widen, and its ink spreads over one more column; read against the digits learnt it is the same
    character wherever it falls."""
    strips = _strips(FIXTURES / "kmines" / "counter-strips")
    learnt = learn_text(strips, 10, "below")
    assert learnt is not None and learnt.text is not None
    glyphs = {d: glyph_ink(picture, learnt.text) for d, picture in learnt.digits.items()}
    shown = {left: read_glyphs(kept[0], learnt.text, glyphs) for left, kept in strips.items()}
    assert all(any(f"{10 - left}/10" in text for text in lines) for left, lines in shown.items()), (
        shown
    )


def test_the_watch_tries_again_only_with_strips_it_had_not_tried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Learning as text takes half a second: a run that learns no counter does not pay it after
    every game, only when new strips were kept."""
    tries = []
    monkeypatch.setattr(counting, "learn_text", lambda *args: tries.append(args) or None)
    watch = CounterWatch(10)
    watch.samples["below"] = _strips(FIXTURES / "kmines" / "counter-strips")
    assert watch.learn() is None and len(tries) == 3  # above, below, beside
    assert watch.learn() is None and len(tries) == 3
    watch.see(lambda: {"below": np.zeros((4, 4, 3), np.uint8)}, 5)
    watch.see(lambda: {"below": np.zeros((4, 4, 3), np.uint8)}, 5)
    assert watch.learn() is None and len(tries) == 6


def test_learning_a_counter_stops_at_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Learning a web game's "🚩: N" kept minebot at full CPU for ten minutes, every stack sample in
    CounterWatch.learn, tried again each time a strip was kept. Past LEARN_BUDGET seconds of tries
    in a run, learn tries no more and the learner goes on without a counter."""
    calls: list[int] = []

    def slow(samples: dict[int, list[np.ndarray]], mines: int, place: str = "below") -> None:
        calls.append(1)
        time.sleep(0.05)

    monkeypatch.setattr(counting, "learn_text", slow)
    monkeypatch.setattr(counting, "LEARN_BUDGET", 0.2)
    watch = CounterWatch(10)
    strip = np.zeros((10, 40, 3), np.uint8)
    for n in range(40):
        watch.samples["below"][n] = [strip]  # a new strip kept before each try
        assert watch.learn() is None
    assert watch.over_budget and watch.spent < 0.2 + 0.2 * len(counting.PLACES)
    assert len(calls) <= 2 * len(counting.PLACES)  # the tries stopped once the budget was spent
