"""Seeded bot races of Automobiles replay exactly as recorded: every prompt, action, event and view of the table.

The digests pin what the rules show (``prompt``, the events, ``view``), not how a state is held, so a rewrite of the
rules' insides that changes a single option, its order, an event or a cube's place fails here and one that changes
none passes. Recorded anew for issue 37 (the rules in one shape): the states became NamedTuples and the digests
left them for the view; the races themselves were checked step by step against the rules before the rewrite (every
prompt, action, event and view of 38 seeded races equal). A race that runs past ``CAP`` actions (random bots on the
one-lane ``fixture_split_start`` can deadlock) is digested up to the cap.

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

from companion.games.automobiles import GAME
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
    ('oval', 2, 'plain', 'greedy', 0): "ddc1c2c932f7061e703a290ff29213509e07379d60c22676d4c0bce98efcd2cb",
    ('oval', 3, 'plain', 'random', 1): "e70b8f4bc3513c460c94ebf6745a481308b794966136f2a0cd1c57f30f2a6163",
    ('oval', 3, 'season_pool', 'greedy', 7): "368e6974609181c945c5bedd0ca0586d2c2dadfcc841a5288eccadc2ee6870b3",
    ('oval', 4, 'season_pool', 'random', 8): "6e2bef192ef01ee4513de314fdf884b8320fcf91ab3a26cf8baeb401a88478d6",
    ('oval', 4, 'both_drivers', 'greedy', 14): "8bf8a64e227fcaa05ff4b9ebe52dbbbf2c3cf11f60044932277ac7982e8a1e29",
    ('oval', 2, 'both_drivers', 'random', 15): "e100f248fd7345dc333b31f31ea5024dd3da88476ce8fd828333b7c4d5b59384",
    ('oval', 2, 'all_drivers', 'greedy', 21): "21c25e08391bba49289a2044339d89fef0569b5c43ab923f3ea096efa5877d21",
    ('oval', 3, 'all_drivers', 'random', 22): "978c261eff2fcb98f08e062b4490b2f0b8efc18108fdbea9813891999b6642bb",
    ('oval', 3, 'variants_on', 'greedy', 28): "1fe8b9cff7dc22e5593dd540032e9c56d7128e6ea890c461071ea5e60da5f07a",
    ('oval', 4, 'variants_on', 'random', 29): "b478334c2dc831361b195391439da358be91995f01018a4e9daf94a58bdddec4",
    ('oval', 4, 'no_wear_activation', 'greedy', 35): "1fd534fbfea88813d15e884dcbec472b9692a680d6d19589a0a23952973d9444",
    ('oval', 2, 'no_wear_activation', 'random', 36): "346e87911a480e0fc1d5d006f452556e4340d00f96708260f2439c232dea6255",
    ('oval', 2, 'card_set', 'greedy', 42): "d467d438cd041fca1cb48420cc4a79988a4cc115ce848f00d86e1bf703c3f6ed",
    ('oval', 3, 'card_set', 'random', 43): "55462b2b0831a247b50d1080f7ba81d9af5dce81f4b5b99f44f8c2ecf374fa4c",
    ('oval', 3, 'season', 'greedy', 49): "80c729af546346b01051f8355a25609fa138fecf676fbcacf7329cbbedf19234",
    ('oval', 4, 'season', 'random', 50): "f9cce9d8802384ce0c4566e6c9a5cf9b5cd5f3ffdffe6c3b0e9c7d355449794e",
    ('split', 2, 'plain', 'greedy', 100): "523e9553ac88b56a4db40719ca341e541f21288122e043bdef51cc27ad974567",
    ('split', 2, 'season_pool', 'random', 101): "0993d4ff5c539b29f196d4cd987c935eeaef86891f293c2e1cfb7b14aaea4425",
    ('split', 2, 'both_drivers', 'greedy', 102): "767921aab0003ff97e518e5beed738e887b948ba6479c7b7224dcd6e7fbee782",
    ('split', 2, 'plain', 'random', 103): "73920d018b0485def6931decfdc828dec24752d5ec69fd2c8e447890a7031245",
    ('split', 2, 'season_pool', 'greedy', 104): "57a70e013690d428c568c28843923a9ae9cffef07e35a8fc6d19eb9dbf3124e6",
    ('split', 2, 'both_drivers', 'random', 105): "3ed3a2511588fbc2cdfd6a9f20e9116d217afe35a8d0901419da1784f3a5e88c",
    ('oval', 4, 'plain', 'greedy', 200): "e6111bede2a8b6059ec09b254b7a64062a1b1a85d1d8e03dce392cc7237ee33e",
    ('oval', 4, 'plain', 'greedy', 201): "25aa141748d5a98dd1903dc4044a54457d6250f18e084b08888c4bf570c287e4",
    ('oval', 4, 'plain', 'greedy', 202): "6d4badbb4f93603e89329dbeab59cfb8f87ec88dc2de39882160790603026074",
    ('oval', 4, 'plain', 'greedy', 203): "e4245b4ff18f13d46c48d0ec9cd290749a7e9d3203404f6dc452d67dd1af3237",
    ('oval', 4, 'plain', 'greedy', 204): "e1958fa5ee4dd2993a7a06fbff3148e6d1d836bcc9c3b31aafea4c08b2d96a57",
    ('oval', 4, 'plain', 'greedy', 205): "cc172d62a7b0942d130ac93e5a9f691c09897666e5227ea330552a1018b7637c",
    ('oval', 4, 'plain', 'greedy', 206): "eb4d5159f71aaefb558194def7753eb38adac945276e6b73b4f0369606793df2",
    ('oval', 4, 'plain', 'greedy', 207): "95b1b425990c4e56108950f42ad54a59bff133e4f048e114dac9195db208abf6",
}


def race_digest(track: str, players: int, variant: str, bot: str, seed: int) -> str:
    """The sha256 of every step of one seeded race: the prompt, the action taken, its events and the table after."""
    options = {"players": [{"name": f"P{n}"} for n in range(players)], "track": TRACKS[track], **VARIANTS[variant]}
    player = GreedyBot() if bot == "greedy" else RandomBot()
    rng = random.Random(seed)
    state = GAME.setup(options, rng)
    digest = hashlib.sha256(json.dumps(GAME.view(state), sort_keys=True).encode())
    for _ in range(CAP):
        if GAME.is_over(state):
            break
        prompt = GAME.prompt(state)
        action = roll(GAME, player.choose(GAME, state, prompt, rng), rng, state)
        state, events = GAME.apply(state, action)
        step = [dataclasses.asdict(prompt), action, events, GAME.view(state)]
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
    # card pool BENCH_POOLS[seed % 3]) and its final view, recorded anew for issue 37 (the same actions as before)
    0: "9abad3b7444abccdf426fde1f318df128220407044c6eb55d0e81a3125b9b920",
    1: "2ec9cd73d7dded6b37ac2ea87b8f0de1d115dd546c2de7245af2c9cdd1f862fe",
    2: "85482f20ce7fc95bd749ab74240c39e45fd8593389c7db92b2fabde3ea755deb",
    3: "bad3aad779627ecbcc6cc5ee316a84aa3f49cd5f5d1fe5db2ceb5787cbe7ed35",
    4: "7717672930dac577c66795b7bd311137a08ad36173cc461affa1e55738d4c6a9",
    5: "95d9243f28401a2efe6019f8f08620d0ffc1b279efa0ed08249c2a121c441a23",
    6: "4c95a6ea3f09e41d95a8351f1bd64191b65287b99fd8def26f62ab7b5554e068",
    7: "a24f3162bcfeb5eb00fac25e77a57882d4665f8207a8a64b0167fb505b53e5b4",
    8: "b960aa6fab49bbeed2fd98ac913d817a008f96bca1f2364f851e593638e5bebe",
    9: "322e9062fd8b075814644e2a1f7443f279c3d5415a4fdfdd947af8bd937b11e6",
    10: "7224f1e985a91fbeceb34a59b1c54d34ee68bf693228bea4791e4604a9636bfe",
    11: "d602b6281d5d614af2816e2ea6b707ef5d0fb42b7eed12fb453bd2de3b333832",
    12: "34451e2c823ab1b065e8da047d2508b5bb12494b4247ff056afbcc2091f97304",
    13: "2af236bcc7ae3a67f70e79461c3a927ce8e9085e1a4051208ee95dc77557c7c3",
    14: "22e39d6b30d769e18dc9c692b5825fba71b9928902836df35fe2b449900113e6",
    15: "c2b33fef3f3a84fac47bd59802d2e1000949019473b8d235d471b10d84f4ad1f",
    16: "1611fb4a5182d63f0ec2a3e91b881ce8d9a6a7dda49ce2f16aa217c3bd73b7f5",
    17: "878de02aab2cf1cbdd25235efbe24f5240392a0b7ab77c3be5746f66398f2eb2",
    18: "9abe6244a8fade2b6d0ad0ad038ec1303843fb061a36f4090428a5e713b18678",
    19: "bb60a6cc90257c3d5b25e1d020a9a563a179b1fb868cd524722f68a6e50d1102",
    20: "a5769a9d08bea276e8e5a16b816479f1888c24571faae1a20d6bfe96853dd355",
    21: "763feb3a61d9b6b67f0188ffe6d4ce4aaef9c24e9a9c5749209298acc6feda4e",
    22: "d49d7a04a0cef7eb17d20dd94b1e9b4cb77f0eb107cd2d485f22e95758cede6a",
    23: "fcdf7921bcbd475857ed888579757e66941124f92c8fa7efeace860fed5145e2",
    24: "2fdb2c4f1c1d284fb2276afa7075cfb4db003c52889d2ae6991b887da6edc502",
    25: "d85baba9648c81d36f1ac51fa3727c338808262f6f5aa3c690d1ccaf8bd8ff49",
    26: "88d4aa6c68bec40de5e9c1cc2800ca4196f05bf8a89b74b2afe17afc2d2bed8e",
    27: "92b0bbc41d6915740a96516ec917cc5e9f8f591b5e7f554b8e9628e8dcca3fee",
    28: "db6f4bb361d0cb71bafb068e887ebfe365f824019f88762c5643738ca1e1ff75",
    29: "71e3413ff14ba9e926a517864c9d6a09f829266a012541662923ffad3e05285b",
}


def bench_digest(seed: int) -> str:
    """The sha256 of one headline race of the bench: every action played (dice included) and the final table."""
    options = {"players": [{"name": c.title(), "colour": c} for c in ("red", "blue", "yellow", "green")],
               "card_pool": BENCH_POOLS[seed % len(BENCH_POOLS)]}
    final, actions = play_game(GAME, options, seed, GreedyBot())
    return hashlib.sha256(json.dumps([actions, GAME.view(final)], sort_keys=True).encode()).hexdigest()


def test_the_bench_greedy_races_play_the_recorded_actions():
    """The 30 races ``bench/rules_automobiles.py`` times, recorded before issue 17's second speed pass: a faster
    run of the bench must be the very same races (the per-step digests above pin events and states)."""
    assert {seed: bench_digest(seed) for seed in range(30)} == BENCH_RACES


if __name__ == "__main__":
    for race in races():
        print(f"    {race!r}: \"{race_digest(*race)}\",")
    for seed in range(30):
        print(f"    {seed}: \"{bench_digest(seed)}\",")
