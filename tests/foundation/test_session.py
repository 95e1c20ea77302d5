"""The session is the only way in: rules check, the store keeps, replay rebuilds exactly what live play built."""

import random
from dataclasses import replace

import pytest

from companion.games import IllegalAction, get_game
from companion.session import NoGame, TableSession, names_of, replay, seated, summary_of
from companion.store import EventStore
from tests.powercut import killed_runs

PLAYERS = {"players": [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}]}


def play_randomly(session: TableSession, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if session.game.is_over(session.state):
            break
        prompt = session.prompt()
        option = dict(rng.choice(prompt.options))
        if "roll" in option:
            option["dice"] = [rng.choice(session.game.die_faces) for _ in range(option.pop("roll"))]
        session.act(option, actor=prompt.actor)
        if rng.random() < 0.15:
            session.undo(actor="table")


@pytest.mark.parametrize("seed", range(5))
def test_replay_of_the_log_equals_live_state(session, store, seed):
    record = session.new_game("dice-race", PLAYERS, seed=seed)
    play_randomly(session, random.Random(seed), actions=30)
    state, _ = replay(get_game("dice-race"), record, store.events(record.id))
    assert state == session.state


def test_a_restarted_session_resumes_the_unfinished_game_where_it_was(store):
    first = TableSession(store)
    first.new_game("dice-race", PLAYERS, seed=4)
    play_randomly(first, random.Random(4), actions=6)
    before = first.snapshot()

    second = TableSession(store)
    assert second.resume()
    assert second.snapshot() == before


def test_illegal_action_is_refused_with_its_rule_and_nothing_is_stored(session, store):
    record = session.new_game("dice-race", PLAYERS, seed=1)
    with pytest.raises(IllegalAction) as error:
        session.act({"type": "roll", "dice": ["7"]}, actor="Ada")
    assert error.value.rule == "DR-2"
    assert store.events(record.id) == []


def test_undo_is_itself_an_event_and_restores_the_state_before(session, store):
    record = session.new_game("dice-race", PLAYERS, seed=1)
    before = session.state
    session.act({"type": "roll", "dice": ["4"]}, actor="Ada")
    undo = session.undo(actor="Ada")
    assert session.state == before
    assert [e.type for e in store.events(record.id)] == ["roll", "undo"]
    assert undo.payload["undoes"] == 1


def test_undo_with_nothing_to_undo_is_refused(session):
    session.new_game("dice-race", PLAYERS, seed=1)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        session.undo(actor="Ada")


def test_actions_without_a_game_are_refused(session):
    with pytest.raises(NoGame):
        session.act({"type": "roll", "dice": ["1"]}, actor="Ada")


def test_a_finished_game_is_not_resumed(store):
    session = TableSession(store)
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    while not session.game.is_over(session.state):
        session.act({"type": "roll", "dice": ["6"]}, actor=session.prompt().actor)
    assert session.snapshot()["view"]["winner"] == "Ada"
    assert not TableSession(store).resume()


def test_confirm_applies_the_pending_camera_roll(session):
    session.new_game("dice-race", PLAYERS, seed=1)
    with pytest.raises(IllegalAction, match="no reading is waiting"):
        session.confirm(actor="Ada")
    session.offer_dice([{"label": "5", "confidence": 0.97}])
    event = session.confirm(actor="Ada", source="button")
    assert event.payload["action"] == {"type": "roll", "dice": ["5"]}
    assert event.payload["source"] == "button"
    assert session.snapshot()["pending"] is None


def test_every_change_is_published_with_the_full_state(session):
    inbox = session.broker.subscribe()
    session.new_game("dice-race", PLAYERS, seed=1)
    session.act({"type": "roll", "dice": ["2"]}, actor="Ada")
    kinds = [inbox.get_nowait()["kind"] for _ in range(2)]
    assert kinds == ["new_game", "event"]
    assert session.snapshot()["seq"] == 1


def test_a_low_confidence_die_blocks_confirmation_until_it_is_tapped(session, store):
    record = session.new_game("dice-race", PLAYERS, seed=1)
    session.offer_dice([{"label": "3", "confidence": 0.41}])
    assert session.snapshot()["pending"]["dice"][0]["low"] is True
    with pytest.raises(IllegalAction, match="low confidence"):
        session.confirm(actor="Ada")
    session.correct_die(0, "5", actor="Ada")
    session.confirm(actor="Ada", source="dashboard")
    stored = store.events(record.id)[0]
    assert stored.payload["action"]["dice"] == ["5"]
    die = stored.payload["reading"]["dice"][0]
    assert die["corrected"] is True and die["was"] == "3" and die["confidence"] == 0.41


def test_a_reading_with_the_wrong_number_of_dice_is_not_confirmed(session):
    session.new_game("dice-race", PLAYERS, seed=1)
    session.offer_dice([{"label": "3", "confidence": 0.99}, {"label": "4", "confidence": 0.99}])
    with pytest.raises(IllegalAction, match="2 dice were read but this roll needs 1"):
        session.confirm(actor="Ada")


def test_a_correction_must_be_a_face_of_the_game(session):
    session.new_game("dice-race", PLAYERS, seed=1)
    session.offer_dice([{"label": "3", "confidence": 0.99}])
    with pytest.raises(IllegalAction, match="not a face"):
        session.correct_die(0, "drive", actor="Ada")


def test_a_snapshot_keeps_the_dice_it_was_taken_with(session):
    """Snapshots are serialised outside the session's lock: a later correction must not change one already taken."""
    session.new_game("dice-race", PLAYERS, seed=1)
    session.offer_dice([{"label": "2", "confidence": 0.99}])
    before = session.snapshot()
    session.correct_die(0, "5", actor="table")
    assert before["pending"]["dice"][0]["label"] == "2"
    assert session.snapshot()["pending"]["dice"][0]["label"] == "5"


def test_a_game_an_undo_took_back_from_its_end_resumes_after_a_restart(store):
    session = TableSession(store)
    record = session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    while not session.game.is_over(session.state):
        session.act({"type": "roll", "dice": ["6"]}, actor=session.prompt().actor)
    session.undo(actor="table")
    assert not session.game.is_over(session.state)
    restarted = TableSession(store)
    assert restarted.resume()
    assert restarted.snapshot() == session.snapshot() and restarted.record.id == record.id


def test_a_game_ended_again_after_an_undo_is_not_resumed(store):
    session = TableSession(store)
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    while not session.game.is_over(session.state):
        session.act({"type": "roll", "dice": ["6"]}, actor=session.prompt().actor)
    session.undo(actor="table")
    session.act({"type": "roll", "dice": ["6"]}, actor=session.prompt().actor)
    assert session.game.is_over(session.state)
    assert not TableSession(store).resume()


KEEP_PLAYING = """
import random, sys
from companion.session import TableSession
from companion.store import EventStore
session = TableSession(EventStore(sys.argv[1]))
session.resume()
rng = random.Random(int(sys.argv[2]))
print("ready", flush=True)
while True:
    if session.game is None or (session.game.is_over(session.state) and rng.random() < 0.3):
        record = session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=rng.randrange(1000))
        print("game", record.id, 0, flush=True)
        continue
    if session.game.is_over(session.state) or (session.history()[2] and rng.random() < 0.2):
        stored = session.undo(actor="table")
    elif rng.random() < 0.1:
        stored = session.change_seat(rng.randrange(2), name=rng.choice("ABCDE") + str(rng.random())[:8], actor="table")
    else:
        stored = session.act({"type": "roll", "dice": [rng.choice("3456")]}, actor=session.prompt().actor)
    print(stored.type, stored.game_id, stored.seq, flush=True)
"""


def test_a_power_cut_during_play_loses_no_acknowledged_event_and_resumes_the_table_as_its_log_says(tmp_path):
    """SIGKILL at random moments of a process that plays, renames, undoes (also a race's last roll) and starts
    races: every event it was told was stored is there, every game's stored summary and names are the ones its log
    replays to, and a restart resumes the latest race exactly where its log is, unless that race is over."""
    path = tmp_path / "events.sqlite3"
    EventStore(path).close()
    for kill, lines in killed_runs(KEEP_PLAYING, path, random.Random(3), times=25, pause=(0.01, 0.3)):
        told = [line.split() for line in lines]
        store = EventStore(path)
        for kind, game, seq in told:
            if kind != "game":
                assert store.event(int(game), int(seq)).type == kind, f"kill {kill}: {kind} {game}/{seq} lost"
        if not store.games():  # killed before its first race was stored (its rules and texts load first): nothing told
            assert told == [], f"kill {kill}: {told} told, no game stored"
            store.close()
            continue
        for line in store.listing():
            game = get_game(line.record.game)
            events = store.events(line.record.id)
            record = replace(line.record, options=seated(line.record.options, events))
            state, _ = replay(game, record, events)
            assert line.summary == summary_of(game, record, state), f"kill {kill}: game {line.record.id}"
            assert line.names == names_of(game, state), f"kill {kill}: game {line.record.id}"
            assert (line.record.finished is not None) == game.is_over(state)
        latest = store.games()[-1]
        events = store.events(latest.id)
        state, _ = replay(get_game(latest.game), replace(latest, options=seated(latest.options, events)), events)
        session = TableSession(store)
        if get_game(latest.game).is_over(state):
            assert not session.resume(), f"kill {kill}: a race that is over was resumed"
        else:
            assert session.resume() and session.record.id == latest.id, f"kill {kill}: the race was not resumed"
            assert session.state == state
        store.close()
