"""Seeded bot races of Automobiles replay exactly as recorded: every prompt, action, event and view of the table.

The digests pin what the rules show (``prompt``, the events, ``view``), not how a state is held, so a rewrite of the
rules' insides that changes a single option, its order, an event or a cube's place fails here and one that changes
none passes. Recorded anew for issue 37 (the rules in one shape): the states became NamedTuples and the digests
left them for the view; the races themselves were checked step by step against the rules before the rewrite (every
prompt, action, event and view of 38 seeded races equal). Recorded anew for issue 35 point 6: a lone "To the buy
phase" or "Done" plays itself (``Phase.alone``); replayed decision by decision, the old races gave the same prompts,
events and views but for those prompts, each now one ``by_itself`` event. A race that runs past ``CAP`` actions
(random bots on the one-lane ``fixture_split_start`` can deadlock) is digested up to the cap.

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
    ('oval', 2, 'plain', 'greedy', 0): "0b16e41556c4d4b2617248e58b065e5906613bed7e619fa747f3980879c03253",
    ('oval', 3, 'plain', 'random', 1): "9d8415857a8a55de3c335383b828f9224f06f94073afce0a9ff7017530da25a5",
    ('oval', 3, 'season_pool', 'greedy', 7): "1124545e0e391ead6d8100a906ae7b85ae96f54e91111659a3b83b5733588560",
    ('oval', 4, 'season_pool', 'random', 8): "ab9889e82f310c98daf371f7486d8541c96dc99eec86d6cd755ab9e758d2baff",
    ('oval', 4, 'both_drivers', 'greedy', 14): "16723aff4462b4c8174588c5fecbbe74d9997b209a16115c2bbaa0aa091ab5a2",
    ('oval', 2, 'both_drivers', 'random', 15): "16885888e60db265a93e42730aa04ea8366ea16be741178cdcaefbedf2f298a0",
    ('oval', 2, 'all_drivers', 'greedy', 21): "3a11119fa7455c89e69bc7498952f31bd2810802ec900daf85a35f482513dcd1",
    ('oval', 3, 'all_drivers', 'random', 22): "c3ccc5e1e0eac57b120f4944044fc17189fa789f58011b32a0a40465fe94de8e",
    ('oval', 3, 'variants_on', 'greedy', 28): "46464d8a1c39cc63056c39089108be5de003ffcf6cb2b6313786009b99f5b674",
    ('oval', 4, 'variants_on', 'random', 29): "7308bbd65bb43705adc78edf1d44b380005d0ac0a3787b08be734d8d9adc05c1",
    ('oval', 4, 'no_wear_activation', 'greedy', 35): "0d9965b086fdb43e65a3cd2ceb4a96c7a3a2070d07b7c44f654222d0dfe78458",
    ('oval', 2, 'no_wear_activation', 'random', 36): "fbdcf49292dffc006651d28a75464b756ed7a0f0739863821b095fa8d278829f",
    ('oval', 2, 'card_set', 'greedy', 42): "4c595597999b0db26dca55a41ab7c59106f5681d541d7c39d4dd558647553789",
    ('oval', 3, 'card_set', 'random', 43): "c8ea58f278f2149c43fe12df9e3f2a7cf75faa893866b8e5b2b59df6232932d0",
    ('oval', 3, 'season', 'greedy', 49): "f2a2118fa95f96e2fb708dc3bde315db5559d13b5a333539805bb8222db34032",
    ('oval', 4, 'season', 'random', 50): "30fd723bac68b6a7585ea1e33554f0c296ff415530df6056d76ed2364968be20",
    ('split', 2, 'plain', 'greedy', 100): "67a58472519c432c950360ab9241fea277ddc0515436bc0c8b6f8f16f12da267",
    ('split', 2, 'season_pool', 'random', 101): "f27cdb229bf7dc13bfeaf71759c2388e294219716e738475347b9fb3cae99c28",
    ('split', 2, 'both_drivers', 'greedy', 102): "3683e81075bc3647bd2f5085a38a3b59026a5b7f8c765382642518119114595b",
    ('split', 2, 'plain', 'random', 103): "87549a64dea2ce9c35ef88a1db6a9b49a7daaae95dd2ba1d8026ea5a54fd6e08",
    ('split', 2, 'season_pool', 'greedy', 104): "ef3498dc762271a8cfb8bf7bd675f62e7085df1e3def444081c370f9c9ba77d6",
    ('split', 2, 'both_drivers', 'random', 105): "00238e3daee1226fc07bf46bc274233042169b3365aa728dbfc09a98400201b9",
    ('oval', 4, 'plain', 'greedy', 200): "52190086c976b4215550b66dccf341cccac01caa9dae0cba4847a8ba7a422238",
    ('oval', 4, 'plain', 'greedy', 201): "7cf05be26edca1bbf8d563dfd68e15390fef980113d85bc716fb1022f76dc92e",
    ('oval', 4, 'plain', 'greedy', 202): "3a247dea9f9ec13427dc10993aeeede28c27ceeb74daadb3273fcac398c6a496",
    ('oval', 4, 'plain', 'greedy', 203): "01d883efa84a8c7ebe4de3ce88db10357f574eaf8fedfd08b9192f4333b2b691",
    ('oval', 4, 'plain', 'greedy', 204): "f1bae9f8db68129d31a8da3be803a34e55daa59c48cf115e2b4a92c0f821a0d9",
    ('oval', 4, 'plain', 'greedy', 205): "cb08a4160a6aecf11e0f68198b87fdce00f40e7afb2e98e18341d32ab3b9bad2",
    ('oval', 4, 'plain', 'greedy', 206): "5686ad2b389e3bf2f0cba66ba91e7cbb980fae2386b61f2eb272c2e1d01554df",
    ('oval', 4, 'plain', 'greedy', 207): "a85da44c1a74eab0f36c7b938f3a30930eefca841acd0befac3e1448e2902eb4",
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
    # card pool BENCH_POOLS[seed % 3]) and its final view, recorded anew for issue 37 (the same actions as before) and
    # for issue 35 point 6 (the same actions and final view but for the lone choices now played by themselves)
    0: "3d17a434176b7589bc88fe2113b4cf555b3ca8f5a736d5c0f71f3cfd68cc61f2",
    1: "aa2d7ebba49ae5814fdf704d2b288f26f3a8b5b47469a467210effc79fb95601",
    2: "1e66483aecf107e045ec0355e2da9b4f7a704f3c5ffee35463f07ce8ee237a97",
    3: "b6b0046e96ee0c80687dbed3a9b4c735a9386dc73ae9d2eec3f6d5f3dc8a9591",
    4: "6da3f47246f23a49ba404070ea3a4f56912b722602e1019ddcf15c995982d35d",
    5: "f34ad71b3c1cd95911ca71c327c1470da7f2c1282028231bb7bfa073c1794650",
    6: "3bb76708724d9f6b2e24e7621091b48a18f5cd7bc0b316a1f2e23f3a5741a5c6",
    7: "83973c02197e079db9aabcbdd3a30c86e96ebbcfdcaac08bbe29e6fa40b8bf13",
    8: "c656b787ea4753cb2642ba900ef961ee36438b5291e7039bf56bb18f0671026d",
    9: "a1f4dd4b88ec7b027c481af0afcea7954dc28ac495ec99bd3cb0c48c4a18bfac",
    10: "1198230589d55bdea39a2e6c6c4280cb5f7958a16e5f0545585979570fb52df9",
    11: "58449e5bf35c045bb96b52a9d45c9fee2ed35d05354a6220ce2d656a149085ad",
    12: "e9278b63c68b47cd5cedad2b9b217449ad5323868b738bd70dc8c51633029571",
    13: "d5959d6fe73e803ba842d6f17bb49d9fc5a4da85ad5bb228f371b10dc963d20b",
    14: "e3f2acbed6a0fd60c7e17b46a95cea2839ea43bd7d819eccaa2cd108c0dcb766",
    15: "ee2d23eddf3928df875ce8b4c763ba7ba8ea9a4bf8d1eb4bdcb6d65e3e2bb8d5",
    16: "8f12823853c44f6b37ff8415b0654890c291567ebbc292f7d1d24530f4749ba1",
    17: "99272f096699607fa7d0ecb1b9ff9eb9c760058e1990601c837fd14409722b80",
    18: "0b424b44be65150f426dd5996b80737cf8c43ae4a3c052d307aadde89359ac1d",
    19: "e2eb85b830b939cdf957a383871dba6b0891980a41acc93dffb1b4e33a9ce5a2",
    20: "872a9907fdbcc4a4462cc4a96cec7c83eef271ef8e29f84badd86443fcce8fa3",
    21: "1cc595ca16e59afee5a141d8554ff83b531dd75f3d718de52a8f0d28cca58d93",
    22: "fdb3cd9b9363ad293aeaba850cbe48023b38da6bead996c910645f9fddeeb009",
    23: "87ecf3cab9e1a14eb9e8a244e1b52525bfeb157928a6d794458390423d52f6be",
    24: "4259949a6138d2bf4d34ac07718c0986ba67a2acf8e26b2e90ba6b355292c0da",
    25: "ce10f2a71339755f310eafe156a61cee045b632d6f8a39146e0590f7f698d811",
    26: "034b610077e8acceb031c9e5a5b50d79b5e7a91aaceabf51df56b54db325b45b",
    27: "71267b71701a71567bccf3eaf2a3a2ad7a146702439eb83c8e477c8dfe7cc368",
    28: "e153017208d87720af7072991909bf7de2df9656e0e50af4814f246af0eb7583",
    29: "8735774e77afde328d8f2ef18c4120e232137967afcc16d0376b84233f2ecc65",
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
