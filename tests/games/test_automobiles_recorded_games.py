"""Seeded bot races of Automobiles replay exactly as recorded: every prompt, action, event and table state.

The digests below were recorded with the rules as they were before the speed work of issue 17 (commit bb3c24e) and
are asserted unchanged after it, so an optimisation that changes a single option, its order, an event or a cube's
place fails here. A race that runs past ``CAP`` actions (random bots on the one-lane ``fixture_split_start`` can
deadlock) is digested up to the cap.

To record again after a deliberate rules change: ``PYTHONPATH=. python tests/games/test_automobiles_recorded_games.py``
prints the table of digests.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from typing import Any

import pytest

from companion.games.automobiles.rules import GAME, rate
from companion.games.automobiles.state import State
from companion.games.bots import GreedyBot, RandomBot, play_game, roll

CAP = 1500
"""Actions digested per race at most."""

TRACKS = {"oval": "reference_oval", "split": "fixture_split_start"}
VARIANTS: dict[str, dict[str, Any]] = {
    "plain": {},
    "season_pool": {"card_pool": "racing_season"},
    "both_drivers": {"card_pool": "both", "drivers": True},
    "all_drivers": {"card_pool": "both", "drivers": True, "driver_pool": "all"},
    "variants_on": {"card_pool": "both", "weaving": True, "accelerated": True, "open_bags": True},
    "no_wear_activation": {"wear_activation": "none"},
    "card_set": {"card_set": "bunte_mischung", "laps": "2"},
    "season": {"season": ["reference_oval", "reference_oval", "reference_oval"], "laps": "1"},
}

RECORDED: dict[tuple[str, int, str, str, int], str] = {
    # (track, players, variant, bot, seed): sha256 over the race
    ('oval', 2, 'plain', 'greedy', 0): "7de182a6780cc980b10e035dffcbfc852771b1120489dacf8c2af00af3ed5496",
    ('oval', 3, 'plain', 'random', 1): "0b535bdb1259ab75d8fca0a8c4ee780548ab2013dbc1ac0339882335894d4891",
    ('oval', 3, 'season_pool', 'greedy', 7): "7ff0a53b8af013db1972cde0e0d05645017d9bb6bfffa79f5e67aefaa8bf6ee3",
    ('oval', 4, 'season_pool', 'random', 8): "8895cd4bc70bda0c465d095b0db03d8feff058b14e44297abe4f0d136af4c209",
    ('oval', 4, 'both_drivers', 'greedy', 14): "0eb46d9b252c859ffa15d0c219b757f6cbb1f26aeb0a75e715545c9d66a59088",
    ('oval', 2, 'both_drivers', 'random', 15): "a459d790077d62c58819fcc572a3a830b46f71892cee3699497e2008be09eba1",
    ('oval', 2, 'all_drivers', 'greedy', 21): "64a472d52c27baba09775d855e013026a1adb948fc6adfce95caf8f52bad831f",
    ('oval', 3, 'all_drivers', 'random', 22): "693e5fbae8a3c9a22a85ffb053fc04a63124386df336c9f175a4977dbc1e4202",
    ('oval', 3, 'variants_on', 'greedy', 28): "c4864f386e926f01922eba9c5be17a5469c3c8d412fdcad9917f27e693b1bb1f",
    ('oval', 4, 'variants_on', 'random', 29): "af27f3d75eef491d715b9eb64dd3eca8fc64bfe6b7a79adf159912a1202d82ee",
    ('oval', 4, 'no_wear_activation', 'greedy', 35): "c4653d84511d56c9e39e219220434cdb4bda1233648202319580f11ae985e9ad",
    ('oval', 2, 'no_wear_activation', 'random', 36): "204c08f9e45d41db7e5db76cd168f57ab1bbe25acd3084e0875153187d6481c6",
    ('oval', 2, 'card_set', 'greedy', 42): "18c22a41d35a7e4321473c2fa2892d910c5149f7961d168b750f15a69588f865",
    ('oval', 3, 'card_set', 'random', 43): "3653865a99db371504f0e2064cbe60ddafe6a8c1100c30488a97da931943fcce",
    ('oval', 3, 'season', 'greedy', 49): "0b7923492e050176ce6b48a7f5e86649e0a6458243222d35edd00e9e6b097ba0",
    ('oval', 4, 'season', 'random', 50): "fcd932748e9096aba896fcc05f0f0c7c7ac9400d0e5744a934ce06d7a428c45c",
    ('split', 2, 'plain', 'greedy', 100): "043105a679294528f01dab75bdbbee2443fa061347fd74e1e32602f67af549a8",
    ('split', 2, 'season_pool', 'random', 101): "3ecf942adeb0ea0563d2c9402179729af591afab72b3c741098ca9bb536455f8",
    ('split', 2, 'both_drivers', 'greedy', 102): "04ff286ea17fa8c0201bb9c9fc827adf5d65601beec10e559d8a2e5c0514f042",
    ('split', 2, 'plain', 'random', 103): "6819a712c0d07e90e85c783f8dd2ba3c7f24c291cfb20908a664f7da9bdeec26",
    ('split', 2, 'season_pool', 'greedy', 104): "453d2cca3c32a7407416afbc2e8d0f5ff2693ca4bf651ba9dde73d2620db11db",
    ('split', 2, 'both_drivers', 'random', 105): "5644cb4ea9991bfc65bc8ed294f4dd45573f650192859ec45eaabcd1a6ff19e4",
    ('oval', 4, 'plain', 'greedy', 200): "f3ca69b934c3f2d577818cf42f1c28e7dcf677c91f831b762564ab2d510fc450",
    ('oval', 4, 'plain', 'greedy', 201): "dc4cba6262d4f722f413e59c51c38c945ac10b06b02416688f6c4a288f60e40c",
    ('oval', 4, 'plain', 'greedy', 202): "fda497570d41cc6cb34c79620c8a1fa1c37b7daf20eab6e15f5f736ec25dbe54",
    ('oval', 4, 'plain', 'greedy', 203): "1d590a8878e96ab1bc5de0ba2462e05e968d1ba69af18df4235ee971378e4a9d",
    ('oval', 4, 'plain', 'greedy', 204): "1433db9c211b86bdddf2c56e629364bf5ab52b1031372d3c53760fbdae798052",
    ('oval', 4, 'plain', 'greedy', 205): "e5e4bb35a70f18b43cf6740608dff946bffb83039fbb5691ba737bcce890e08f",
    ('oval', 4, 'plain', 'greedy', 206): "0374ceddb0e081fe2ebefc9a82fab27219dc02c2fa256e61dcaaf149bcdab901",
    ('oval', 4, 'plain', 'greedy', 207): "2d7be3284544ec9ff786d0fcb158549d9b6ba9554484cf01aa971fb3aee88a67",
}


def canonical(value: Any) -> Any:
    """A state as plain JSON-able values; sets are sorted so the digest does not depend on string hashing."""
    if isinstance(value, State):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value) if f.name != "table"} | {
            "track": value.table.track.id, "order": list(value.table.order)}
    if dataclasses.is_dataclass(value):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return sorted(canonical(v) for v in value)
    if isinstance(value, tuple | list):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    return value


def race_digest(track: str, players: int, variant: str, bot: str, seed: int) -> str:
    """The sha256 of every step of one seeded race: the prompt, the action taken, its events and the table after."""
    options = {"players": [{"name": f"P{n}"} for n in range(players)], "track": TRACKS[track], **VARIANTS[variant]}
    player = GreedyBot() if bot == "greedy" else RandomBot()
    rng = random.Random(seed)
    state = GAME.setup(options, rng)
    digest = hashlib.sha256(json.dumps(canonical(state), sort_keys=True).encode())
    for _ in range(CAP):
        if GAME.is_over(state):
            break
        prompt = GAME.prompt(state)
        action = roll(GAME, player.choose(GAME, state, prompt, rng), rng, state)
        state, events = GAME.apply(state, action)
        step = [canonical(dataclasses.asdict(prompt)), action, events, canonical(state)]
        digest.update(json.dumps(step, sort_keys=True).encode())
    return digest.hexdigest()


def races() -> list[tuple[str, int, str, str, int]]:
    """30 races: both tracks, 2-4 players, every variant above, random and greedy bots."""
    found = []
    for k, variant in enumerate(VARIANTS):
        for bot in ("greedy", "random"):
            seed = 7 * k + (bot == "random")
            players = 2 + (seed % 3)
            found.append(("oval", players, variant, bot, seed))
    for seed in range(6):
        found.append(("split", 2, list(VARIANTS)[seed % 3], "greedy" if seed % 2 == 0 else "random", 100 + seed))
    for seed in range(8):
        found.append(("oval", 4, "plain", "greedy", 200 + seed))
    return found


@pytest.mark.parametrize("race", races(), ids=lambda r: "-".join(map(str, r)))
def test_seeded_bot_race_replays_the_recorded_prompts_actions_events_and_states(race):
    assert race_digest(*race) == RECORDED[race]


BENCH_POOLS = ("base", "racing_season", "both")
BENCH_RACES: dict[int, str] = {
    # seed: sha256 over the actions of the race bench/rules_automobiles.py times (4 greedy bots, the reference oval,
    # card pool BENCH_POOLS[seed % 3]) and its final table, recorded at commit ce643cf
    0: "c27da58b378e94f7b5c0d601000d2220c0f7ff19f99f76d45100363c8129925b",
    1: "19897ae6bff3def519379e23bd05b4949c3dfcc6f13d811186a2c197d108ce9e",
    2: "9743ccc98dfad3fa5a7990a87967b17a4fe55d672575f577ce17ce869993778e",
    3: "0b7a2219629db573133273b6f296782656a7647bb971a1a8d9384fed5b2957e2",
    4: "5619f9fd0ae916545108828ec8bac5cf9e18f974224ae8985286948e3c1035e3",
    5: "ec0d5434985153f9f2348a26baf8c3555aef1064328f794fff55d6bc9f045bf7",
    6: "77ef08a82faf84ce7e12f0c564452091ce9f687b700fb50066a50eb12298f0b7",
    7: "00fea91412f0927e11c1eae9fb1e4f7f084a56909557fbfbaa9aad3e6ff91f1f",
    8: "367cd67b7b997bb0bc8c2a858130b80daf6d79a654dcf3d29c4a0ea6520b6c13",
    9: "8afa9bb144859b8830e000fd7d5fa2f97b12957389f838859d2184e5a504e0da",
    10: "f026910f9c9524d0f795f950f3ea67c3b9f31379bcc6974e05432d835a5bbb5e",
    11: "0cc3118c3385d215a6c556e0d4c40ab0fae6c25f6f0c38b7f249aff8c30addd4",
    12: "d96b28ce976ec9767ed046efd3cfd62609e37243379f465c9073d59678288512",
    13: "13913c8406b37902afe15d10bc4ef339f7ce2d282815e8269b07b52f5e777247",
    14: "3674e709de409948b1c3c108fa322e71e2b0975ff16eaaa19ee1320a93ebe936",
    15: "cb795f792c644a792042626c0d067b725de4c3c8cfd6588b73bc2c60d385f7b1",
    16: "b9d4746821cbe6307eaa0ffaf13928373aeee5b0326f5f99eaecce9af418b15b",
    17: "0ea5635d237a78dff040f9f1daa8d40c66ca719bd83c60c66d7061cb3a0e8fcf",
    18: "3a8a5216a8200b98816439f763dfb70743ee50da50f2b359136e703afebfcaa0",
    19: "e1d7cd4a5aa9ba1179f18ea64d37ba39cf66acc8774f9695f0f2cef19dc6cd14",
    20: "e607a34dae431406558e27f1637efbb02328dc85f8afeab29b1c380d8a3a1369",
    21: "a93ba281b81e4d2cef05192404a34ec43fd31f277a1af3d95a745b7dd8721069",
    22: "708067e031e971b47f55f5a50a84a99a9145252a54b3dd3e7c58ac437eefacd4",
    23: "3c281a0242918f37172c1f34e2d2a1fb530b50f46a98bb5a04aa56d6be801a45",
    24: "6171f88387dcd22cc7e5c521fb9d58d44e4ecf25a035add0552c34458487d915",
    25: "fd74a0356f7656055b125b0f824327909bea33e10a05b0a1bf32c3eebe934ca8",
    26: "fb81367857aeaa5aa4cc2faf96238f4eb3bad262d66dbc253f0dde1f5c65553e",
    27: "635c7a901cdee9eda1b9dabd4d7b570c99a6fce0c181d4d964d905a44e0d1303",
    28: "61ee2a87fb007f2e02541cd624cf03eb7ad4c2aa971843ac60c851dc6be75e67",
    29: "b01f2d6d29f8a09329cbaec1b83dfcc36664df89ab202788b1bb3741c17397e5",
}


def bench_digest(seed: int) -> str:
    """The sha256 of one headline race of the bench: every action played (dice included) and the final table."""
    options = {"players": [{"name": c.title(), "colour": c} for c in ("red", "blue", "yellow", "green")],
               "card_pool": BENCH_POOLS[seed % len(BENCH_POOLS)]}
    final, actions = play_game(GAME, options, seed, GreedyBot())
    return hashlib.sha256(json.dumps([actions, canonical(final)], sort_keys=True).encode()).hexdigest()


def test_the_bench_greedy_races_play_the_recorded_actions():
    """The 30 races ``bench/rules_automobiles.py`` times, recorded before issue 17's second speed pass: a faster
    run of the bench must be the very same races (the per-step digests above pin events and states)."""
    assert {seed: bench_digest(seed) for seed in range(30)} == BENCH_RACES


@pytest.mark.parametrize("seed", range(8))
def test_rate_gives_the_score_of_the_option_played_out(seed):
    """``rate`` skips playing out options that change nothing ``score`` looks at; it must give the very number that
    playing them out gives (with the same draw), so a greedy bot that rates options chooses as one that plays them
    out."""
    variant = list(VARIANTS)[seed % len(VARIANTS)]
    options = {"players": [{"name": f"P{n}"} for n in range(2 + seed % 4)], **VARIANTS[variant]}
    rng = random.Random(seed)
    state = GAME.setup(options, rng)
    bot = GreedyBot() if seed % 2 else RandomBot()
    for _ in range(400):
        if GAME.is_over(state):
            break
        prompt = GAME.prompt(state)
        for k, option in enumerate(prompt.options):
            rated = rate(state, option, prompt.actor)
            if "roll" in option:  # a draw is played out by the bot with its own sample draw
                assert rated is None
                continue
            played, _ = GAME.apply(state, roll(GAME, option, random.Random(k), state))
            assert rated == GAME.score(played, prompt.actor), option
        state, _ = GAME.apply(state, roll(GAME, bot.choose(GAME, state, prompt, rng), rng, state))


if __name__ == "__main__":
    for race in races():
        print(f"    {race!r}: \"{race_digest(*race)}\",")
    for seed in range(30):
        print(f"    {seed}: \"{bench_digest(seed)}\",")
