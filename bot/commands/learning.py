"""A run that learns a look by playing it (bot/learning/learn.py): from nothing, from a
learnt pack, or on from a game a shipped pack read only while it was new."""

from __future__ import annotations

import dataclasses
import json
import sys
import time

import numpy as np

from bot.commands.options import PlayOptions, mines_told
from bot.commands.report import describe, print_profile, print_summary, save_final, say_interrupted
from bot.devices.actuator import Mouse
from bot.devices.capture import Screen
from bot.errors import (
    FirstClickIgnored,
    MinebotError,
    UsageError,
)
from bot.learning.learn import Learner
from bot.learning.unsure import Unsure
from bot.play import GameResult, Spent
from bot.userdata import (
    check_writable,
    learnt_skins,
)
from bot.vision.geometry import Geometry
from bot.vision.pack import SkinPack
from bot.vocabulary import CHAR_OF, STANDARD_MINES


def learn_by_playing(
    options: PlayOptions,
    screen: Screen,
    mouse: Mouse,
    geometry: Geometry,
    name: str | None,
    new_game_key: str | None,
    known: SkinPack | None = None,
    fresh: np.ndarray | None = None,
    counted: int | None = None,
) -> int:
    """Play ``options.games`` games learning the look (bot/learning/learn.py), from nothing or from a learnt pack;
    ``fresh``: a grab of the screen on the new board of the game in play, whose first click was played;
    ``counted``: the mine count as the learnt pack's counter gave it."""
    if options.dry_run:
        raise UsageError(
            "learning a look needs clicks: leave out --dry-run (or give the skin with --skin)"
        )
    check_writable(learnt_skins(), "the look it learns")  # before a game is played for it
    rows, cols = geometry.rows, geometry.cols
    told = mines_told(options, "", rows, cols, counted)
    remembered = known.mines.get((rows, cols)) if known is not None else None
    # nothing tells it: played without it until a won game shows it
    mines = told if told is not None else remembered or STANDARD_MINES.get((rows, cols))
    learner = Learner(screen, mouse, geometry, mines, name=name, flags=options.flags)
    learner.mines_told = told is not None
    if known is not None:
        learner.seed(known)
    if fresh is not None:
        learner.prime(fresh)
    count = (
        f"{mines} mines"
        if mines is not None
        else "mine count unknown: learnt from the first game won"
    )
    print(
        f"{'learning a new look' if known is None else f'playing with learnt pack {known.name}, learning on'}: "
        f"{geometry.cols}x{geometry.rows} board ({count}) at "
        f"({geometry.origin[0]:.0f},{geometry.origin[1]:.0f}), {geometry.pitch[0]:g} px cells",
        file=sys.stderr,
    )
    results: list[GameResult] = []
    profiles: list[dict[str, float]] = []
    unsure: dict[int, Unsure] = {}  # games counted won on a guess whose look is not named yet
    start = time.perf_counter()
    for index in range(options.games):
        where = f"before game {index + 1} of {options.games}"
        try:
            if index > 0 or (fresh is None and learner.over()):
                learner.new_game(new_game_key)
            where = f"in game {index + 1} of {options.games}"
            learner.sight.spent = Spent()
            try:
                result = learner.play_game()
            except FirstClickIgnored:
                if index > 0 or fresh is not None:
                    raise
                # a run started on a finished game: a new one, as between games, then play
                print(
                    "minebot: the first click changed nothing: the game on screen may be over; "
                    "starting a new game",
                    file=sys.stderr,
                )
                learner.new_game(new_game_key)
                result = learner.play_game()
        except KeyboardInterrupt:
            say_interrupted(options, results, where)
            raise
        except MinebotError:
            won = sum(r.won for r in results)
            print(
                f"minebot: stopped {where}; {len(results)} finished before it ({won} won)",
                file=sys.stderr,
            )
            raise
        results.append(result)
        profiles.append(learner.sight.spent.of(result.seconds))
        if result.won and learner.judge.unsure is not None:
            unsure[index] = learner.judge.unsure
        # a last guess lost, told once the looks or faces say so
        for told in learner.judge.told(unsure, learner.faces):
            results[told] = dataclasses.replace(results[told], state="lost")
            print(
                json.dumps({"game": told + 1, "state": "lost", "retold": True})
                if options.json
                else f"game {told + 1}/{options.games}: lost, not won: the looks named since, or its face, say its last guess "
                "hit a mine",
                flush=True,
            )
        named = learner.looks.names()
        line = {
            "game": index + 1,
            "state": result.state,
            "seconds": round(result.seconds, 3),
            "guesses": result.guesses,
            "clicks": result.clicks,
            "lost_on_certain": result.lost_on_certain,
            "guessed": result.guessed,
            "looks_named": "".join(sorted(CHAR_OF[c] for c in set(named.values()))),
            "seconds_learning": round(time.perf_counter() - start, 1),
            "clicks_learning": sum(r.clicks for r in results),
            "ms": profiles[-1],
        }
        if options.json:
            print(json.dumps(line, default=int), flush=True)
        else:
            wins = sum(r.won for r in results)
            print(
                f"game {index + 1}/{options.games}: {describe(result)} ({wins} won so far); looks named: "
                f"{line['looks_named']}",
                flush=True,
            )
        if options.save_final:
            save_final(options.save_final, learner.final_screen(), index + 1)
    # counted won, but nothing learnt since tells: said so, never passed off as sure
    for game in sorted(unsure):
        print(
            json.dumps({"game": game + 1, "state": "won", "unsure": True, "retold": True})
            if options.json
            else f"game {game + 1}/{options.games}: won or lost, not sure: its last guess showed a look no game named "
            "since (the mine hit, a number first seen), or the game drew over it, and its face told neither",
            flush=True,
        )
    print(f"learnt pack {learner.pack_name()!r} saved in {learnt_skins()}", file=sys.stderr)
    if learner.mines is None:
        print(
            "minebot: the mine count is still unknown (no game won, no counter learnt): "
            "the games were played without it; give it with --mines where you know it",
            file=sys.stderr,
        )
    elif not learner.sight.counter.learnt:
        print(
            f"minebot: no mines counter learnt (seen: {learner.sight.counter.account()})",
            file=sys.stderr,
        )
    if options.profile:
        print_profile(results, profiles, sys.stderr if options.json else sys.stdout)
    if not options.json:
        print_summary(results)
    return 1 if any(r.lost_on_certain for r in results) else 0
