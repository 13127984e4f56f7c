"""Rules engines: random playouts per second, moves per second, state sizes.

Prints one table row per registered game and option combination:
    python bench/bench_rules.py [GAMES_PER_ROW]
"""

from __future__ import annotations

import json
import random
import sys
import time
import tracemalloc

import rules


def playout(game: rules.Game, players: int, seed: int, options: dict) -> rules.State:
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed, options=options)
    while state.to_move() is not None:
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    return state


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    header = f"{'game':<20} {'options':<26} {'games/s':>8} {'moves/game':>10} {'moves/s':>8} " \
             f"{'ms/move':>8} {'json KiB':>8} {'peak KiB':>8}"
    print(header)
    print("-" * len(header))
    for game_id, game in rules.GAMES.items():
        for options in game.option_combinations():
            moves = 0
            sizes = []
            start = time.perf_counter()
            for seed in range(count):
                players = game.player_counts[seed % len(game.player_counts)]
                state = playout(game, players, seed, options)
                moves += len(state.history)
                sizes.append(len(json.dumps(state.to_json())))
            elapsed = time.perf_counter() - start
            tracemalloc.start()
            playout(game, game.player_counts[-1], 0, options)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            opts = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
            print(f"{game_id:<20} {opts:<26} {count / elapsed:>8.1f} {moves / count:>10.0f} "
                  f"{moves / elapsed:>8.0f} {1000 * elapsed / moves:>8.3f} "
                  f"{max(sizes) / 1024:>8.1f} {peak / 1024:>8.0f}")


if __name__ == "__main__":
    main()
