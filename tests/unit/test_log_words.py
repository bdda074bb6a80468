"""The log in words (R19): every action the store logs has its sentence, naming sittings,
tables and players as people do and saying what changed; an unknown action gets a plain
sentence; no sentence shows an id or JSON."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pandas as pd
import pytest

from stsa import excel, store
from stsa.auth import Actor, Role
from stsa.domain import Action
from stsa.services import corrections, draws, log, picks

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)
ROOT = Path(__file__).resolve().parents[2]
RAW = re.compile(r"[{}\[\]\"]|#\d|(?<!, )\btable \d|\b(?:player|sitting) \d|_id\b")


def logged_actions() -> set[str]:
    """Every action named in an `audit.log(` call of the store."""
    found = set()
    for path in (ROOT / "stsa").rglob("*.py"):
        for call in re.findall(r"audit\.log\(conn, [^,]+, (.*?),\s*(?:f?\")", path.read_text(),
                               re.S):
            assert not re.search(r"\"[a-z_]+\.[a-z_]+\"", call), \
                f"{path.name}: a logged action is an `Action`, never a bare string: {call}"
            found |= {Action[name].value for name in re.findall(r"Action\.([A-Z_]+)", call)}
    return found


def test_every_action_the_store_logs_has_its_sentence():
    actions = logged_actions()
    assert len(actions) >= 24  # the scan finds them
    assert sorted(actions - set(log.ACTIONS)) == []
    assert set(log.ACTIONS) == set(Action), "every action has its words, and nothing else does"


def results_of(table: pd.Series, seats: pd.DataFrame, vps: list[int]) -> pd.DataFrame:
    seated = seats.loc[seats["table_id"] == table["table_id"]].sort_values("seat")
    return pd.DataFrame({"player_id": seated["player_id"].tolist(),
                         "leader": list(table["available_leaders"])[:len(seated)],
                         "vp": vps[:len(seated)], "spice": 0, "solari": 0, "troops": 0,
                         "water": 0})


@pytest.fixture
def tournament_log(sqlite_engine, tmp_path, monkeypatch):
    """A small tournament in which every logged action happens once at least; the events and
    the names to use."""
    engine = sqlite_engine
    pins = store.ensure_pins(engine)
    store.set_settings(engine, {"tournament_name": "Log Cup"}, actor=ORGANIZER)  # its key too
    store.set_settings(engine, {"pick_method": "vote_off", "wild_card": True,
                                "enabled_setups": ["uprising", "legacy-ix"]}, actor=ORGANIZER)
    ids = store.import_players(engine, [{"name": n} for n in (
        "Wellington Yueh", "Alia", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")],
        actor=ORGANIZER)["player_id"].tolist()
    late = store.add_player(engine, "Late Larry", club="Sietch", actor=ORGANIZER)
    store.add_player(engine, "Ida", nickname="Sandrider", actor=ORGANIZER)
    store.edit_player(engine, late["player_id"], name="Larry", actor=ORGANIZER)
    store.remove_player(engine, late["player_id"], actor=ORGANIZER)
    store.withdraw_player(engine, ids[7], actor=ORGANIZER)
    store.withdraw_player(engine, ids[7], withdrawn=False, actor=ORGANIZER)
    store.check_in(engine, ids, actor=ORGANIZER)
    store.clear_check_ins(engine, actor=ORGANIZER)
    store.import_bookings(engine, 9, [{"player_id": ids[0]}, {"player_id": ids[1]}],
                          actor=ORGANIZER)  # R25: a later qualifier's list, then again
    store.import_bookings(engine, 9, [{"player_id": ids[1]}, {"player_id": ids[2]}],
                          actor=ORGANIZER)
    store.replace_booking(engine, 9, ids[1], ids[3], actor=ORGANIZER)
    assert store.self_check_in(engine, ids[4], store.room_code(engine), client="10.0.0.1")
    store.undo_self_check_in(engine, ids[4], actor=ORGANIZER)
    first = draws.draw_qualifier(engine, ids, seed=1, actor=ORGANIZER)
    draws.discard(engine, int(first["sitting_id"]), actor=ORGANIZER)
    draws.draw_qualifier(engine, ids, seed=2, actor=ORGANIZER)
    sitting = draws.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)  # again
    sid = int(sitting["sitting_id"])
    draws.set_rule_change(engine, sid, "Spice must flow", "1 point a spice", actor=ORGANIZER)
    first_table = store.tables(engine, sid, actor=ORGANIZER).iloc[0]
    store.override_setup(engine, int(first_table["table_id"]), "legacy-ix"
                         if first_table["setup_id"] == "uprising" else "uprising",
                         reason="a missing box", actor=ORGANIZER)
    draws.publish(engine, sid, actor=ORGANIZER)
    store.clock_action(engine, sid, "start", actor=JUDGE)  # R26
    store.clock_action(engine, sid, "extend_table", minutes=5, table_no=1, reason="a spill",
                       actor=JUDGE)
    tables = store.tables(engine, sid, actor=ORGANIZER)
    seats = store.seats(engine, sid, actor=ORGANIZER)
    table = tables.iloc[0]
    seated = seats.loc[seats["table_id"] == table["table_id"]].sort_values("seat")
    deck = list(table["available_leaders"])
    picks.enter_votes(engine, int(table["table_id"]), pd.DataFrame(
        [{"player_id": int(p), "leader": deck[i]} for p in seated["player_id"] for i in (0, 1)]),
        actor=JUDGE)
    table = store.tables(engine, sid, actor=ORGANIZER).iloc[0]
    picked = dict(zip(seated["player_id"].astype(int), table["available_leaders"]))
    picks.draw_wild_cards(engine, int(table["table_id"]), picked,
                          {p: n == 0 for n, p in enumerate(picked)}, actor=JUDGE)
    for n, t in enumerate(store.tables(engine, sid, actor=ORGANIZER).itertuples()):
        store.submit_table_result(engine, int(t.table_id), results_of(
            pd.Series(t._asdict()), seats, [7, 9, 5, 3]), expected_version=0,
            submission_id=f"s{n}", actor=JUDGE)
    last = store.tables(engine, sid, actor=ORGANIZER).iloc[-1]
    store.submit_table_result(engine, int(last["table_id"]), results_of(
        last, seats, [8, 9, 5, 3]), expected_version=1, submission_id="fix", actor=JUDGE)
    store.check_in(engine, ids, actor=ORGANIZER)  # Qualifier 2: a no-show, a seat left empty,
    mistake = int(draws.draw_qualifier(engine, ids[:7], seed=4,  # then voided
                                          actor=ORGANIZER)["sitting_id"])
    draws.publish(engine, mistake, actor=ORGANIZER)
    at = int(store.tables(engine, mistake, actor=ORGANIZER)["table_id"].iloc[0])
    corrections.replace_no_show(engine, at, 1, ids[7], reason="late bus", actor=ORGANIZER)
    corrections.replace_no_show(engine, at, 2, None, actor=ORGANIZER)
    corrections.void(engine, mistake, reason="published too early", actor=ORGANIZER)
    store.mark_absent(engine, ids[1], actor=ORGANIZER)
    store.mark_absent(engine, ids[1], present=True, actor=ORGANIZER)
    store.set_pin(engine, Role.JUDGE, "24681357", actor=ORGANIZER,
                  current_pin=pins[Role.ORGANIZER])
    store.sign_everyone_out(engine, actor=ORGANIZER)
    invited, token = store.create_invitation(engine, "Jo Judge", hours=2, actor=ORGANIZER)
    store.join(engine, token)
    store.revoke_invitation(engine, invited, actor=ORGANIZER)
    overlay, _ = store.create_overlay(engine, "table", table_no=2, actor=ORGANIZER)
    store.revoke_overlay(engine, overlay, actor=ORGANIZER)
    store.lift_pause(engine, actor=ORGANIZER)
    store.make_console_code(engine)
    monkeypatch.setenv("TZ", "UTC")  # the schedule (R26): this laptop's zone, UTC here
    nine = dt.datetime(2026, 3, 7, 9, 0, tzinfo=dt.UTC)
    first_item = store.add_schedule_item(engine, sitting_kind="qualifier", sitting_number=3,
                                         starts_at=nine, actor=ORGANIZER)
    lunch = store.add_schedule_item(engine, title="Lunch", minutes=45, actor=ORGANIZER,
                                    starts_at=nine + dt.timedelta(hours=3))
    store.update_schedule_item(engine, lunch["item_id"], minutes=60, actor=ORGANIZER)
    store.shift_schedule(engine, 15, after_item=first_item["item_id"], actor=ORGANIZER)
    store.undo_shift(engine, actor=ORGANIZER)  # issue 33: the last move undone, then again
    store.shift_schedule(engine, 15, after_item=first_item["item_id"], actor=ORGANIZER)
    store.delete_schedule_item(engine, lunch["item_id"], actor=ORGANIZER)
    # several tournaments (R27): a second one in a season, the directory, archive, delete
    made = store.create_tournament(engine, "LinCon 2026", actor=ORGANIZER)
    season = store.create_season(engine, "Season 2026", actor=ORGANIZER)
    store.set_season(engine, made.tournament_id, season, actor=ORGANIZER)
    own = store.db.tournament_id(engine)
    lincon = store.open_tournament(engine, made.tournament_id)
    theirs = int(store.add_player(lincon, "Ida Again", actor=ORGANIZER)["player_id"])
    mine = int(store.players(engine)["player_id"].iloc[0])
    store.link_players(engine, [{"tournament_id": own, "player_id": mine, "person_id": None},
                                {"tournament_id": made.tournament_id, "player_id": theirs,
                                 "person_id": None}], actor=ORGANIZER)
    people = store.directory(engine).sort_values("tournament_id")["person_id"].astype(int)
    store.merge_people(engine, int(people.iloc[0]), int(people.iloc[1]), actor=ORGANIZER)
    store.split_player(engine, made.tournament_id, theirs, actor=ORGANIZER)
    store.archive_tournament(engine, actor=ORGANIZER)
    store.reopen_tournament(engine, actor=ORGANIZER)
    store.archive_tournament(lincon, actor=ORGANIZER)
    store.delete_tournament(lincon, actor=ORGANIZER, confirm="LinCon 2026")
    saved = store.backup(engine, tmp_path / "b")
    store.restore(engine, saved, actor=ORGANIZER)
    other = store.connect(f"sqlite:///{tmp_path / 'other.db'}", backup_dir=tmp_path / "o")
    try:
        excel.restore_workbook(other, excel.tournament_workbook(engine), actor=ORGANIZER)
        events = store.events(other, actor=ORGANIZER)
        players = store.players(other)[["player_id", "name"]]
        places = log.places_of(players, store.sittings(other, actor=ORGANIZER),
                               store.tables(other, actor=ORGANIZER), events)
    finally:
        other.dispose()
    return events.assign(words=log.event_sentences(events, places)), seated, last


@pytest.mark.slow
def test_every_logged_action_in_words(tournament_log):
    events, seated, last = tournament_log
    assert set(log.ACTIONS) <= set(events["action"])  # the tournament did everything
    raw = events.loc[events["words"].str.contains(RAW)]
    assert raw.empty, raw[["action", "words"]].to_string()
    words = events.set_index("action")["words"].groupby(level=0).last()
    first = events.set_index("action")["words"].groupby(level=0).first()  # Qualifier 1's
    assert words["players.add"] == "Added Ida (nickname Sandrider) to the roster."
    assert words["bookings.import"].startswith("Booking list for Qualifier 9: 2 players "
                                               "booked (added ")
    assert "booked seat given to" in words["booking.replace"]
    assert words["player.self_check_in"].endswith("checked in on My seat with the room's code.")
    assert "Added Late Larry (Sietch) to the roster." in events["words"].tolist()
    assert events.loc[events["action"] == "players.add", "words"].iloc[0].startswith(
        "Added 8 players to the roster: Wellington Yueh, Alia, Bo, ")
    assert words["player.edit"] == ("Edited Larry: name Late Larry → Larry; nickname Late Larry "
                                    "→ Larry.")  # the nickname followed the name (R22)
    assert words["player.remove"] == "Removed Larry from the roster."
    assert words["player.withdraw"] == "Withdrew Gus (results stay)."
    assert words["player.reinstate"] == "Reinstated Gus."
    assert words["players.check_in"].startswith("Checked in 8 players: Wellington Yueh, ")
    assert words["player.absent"] == "Marked Alia absent for the finals."
    assert words["player.present"] == "Marked Alia present again for the finals."
    assert words["sitting.discard"] == ("Discarded the unpublished draw of Qualifier 1 "
                                        "(seed 1).")
    assert "Drew Qualifier 1: 2 tables, 8 players, seed 2." in events["words"].tolist()
    assert words["sitting.draw"] == "Drew Qualifier 2: 2 tables, 7 players, seed 4."
    assert words["sitting.redraw"] == ("Drew Qualifier 1 again: 2 tables, 8 players, seed 3; "
                                       "the earlier draw had seed 2.")
    assert words["table.override_setup"].startswith("Changed the setup of Qualifier 1, table 1: ")
    assert words["table.override_setup"].endswith(" (reason: a missing box).")
    setups = words["table.override_setup"].split(": ", 1)[1].split(" (")[0].split(" → ")
    assert len(setups) == 2 and setups[0] != setups[1]
    assert first["sitting.rule_change"] == ("Set the rule change of Qualifier 1: Spice must "
                                            "flow: 1 point a spice.")
    assert first["sitting.publish"] == "Published Qualifier 1: everyone sees its tables now."
    assert words["sitting.complete"] == "Qualifier 1 is complete: every table has a result."
    assert words["sitting.void"] == (
        "Voided Qualifier 2 before any result: 2 tables, 6 players, seed 4; its number is free "
        "for the next draw (reason: published too early).")
    assert re.fullmatch(r"Gus took seat 1 at Qualifier 2, table 1 in place of \w[\w ]*, keeping "
                        r"its colour and pick order \(reason: late bus\)\.",
                        words["table.replace_player"])
    assert re.fullmatch(r"\w[\w ]* left Qualifier 2, table 1, which plays with 3 players now\.",
                        words["table.empty_seat"])
    assert words["picks.vote_off"].startswith("Entered the leader votes at Qualifier 1, table 1 "
                                              "(4 players voted): removed ")
    assert words["picks.wild_card"].startswith("Drew the wild cards at Qualifier 1, table 1: ")
    assert "took a random one" in words["picks.wild_card"]
    where = f"Qualifier 1, table {last['table_no']}"
    assert words["result.submit"].startswith(f"Entered the result of {where}: ")
    assert re.fullmatch(rf"Corrected the result of {where} \(version 2\): "
                        rf"VP 7 → 8 for \w[\w ]*\.", words["result.correct"])
    assert words["settings.change"] == (
        "Changed the settings: Setups played every setup → Uprising, Legacy + Rise of Ix; "
        "Leader pick method Hidden Picks → Vote Off; Wild Card No → Yes.")
    assert words["pin.set"] == ("Set the judge PIN (everyone signed in with the old one is "
                                "signed out).")
    assert words["session.revoke_all"].startswith("Signed everyone out (")
    assert words["invitation.create"] == ("Invited Jo Judge to sign in as a judge by QR code, "
                                          "valid for 2 hours.")
    assert words["invitation.use"] == ("Jo Judge signed in as a judge with their invitation "
                                       "(its QR code).")
    assert words["invitation.revoke"] == "Withdrew the invitation of Jo Judge (1 session ended)."
    assert words["overlay.create"] == "Made a stream overlay of the filmed table number 2."
    assert words["overlay.revoke"] == ("Withdrew the stream overlay of the filmed table number 2: "
                                       "its address shows nothing any more.")
    assert words["sign_in.unlock"] == ("Lifted the sign-in pause: forgot 0 wrong PINs (the PINs "
                                       "stay as they were).")
    assert words["tournament.key"] == ("The tournament's links now use “log-cup” (before: "
                                       "“dune-imperium-tournament”): it was renamed before "
                                       "anything of it was public.")
    assert words["sign_in.code"] == ("Made a one-time code at the console: with the organizer's "
                                     "PIN it signs in once through a sign-in pause, within 15 "
                                     "minutes.")
    assert words["schedule.add"] == "Planned Lunch: Saturday 12:00, 45 minutes."
    assert words["schedule.edit"] == "Changed Lunch on the schedule: length 45 min → 60 min."
    assert words["schedule.shift"] == ("Running late: moved 1 item from Saturday 12:00 on "
                                       "15 minutes later: Lunch.")
    assert words["schedule.undo"] == ("Undid running late: moved 1 item back 15 minutes "
                                      "earlier: Lunch.")
    assert words["schedule.remove"] == ("Took Lunch off the schedule (it was at Saturday "
                                        "12:15).")
    assert words["backup.restore"].startswith("Restored the backup stsa-")
    assert words["tournament.restore"].startswith("Restored the tournament from the workbook: "
                                                  "9 players, 1 sitting, 8 player results, ")


def test_an_unknown_action_gets_a_plain_sentence_never_json():
    places = log.Places(players={13: "Wellington Yueh"}, sittings={3: "Qualifier 2"},
                        tables={8: "Qualifier 2, table 4"})
    assert log.sentence("waiting.move", "sitting 3", {"position": 2}, {"position": 1},
                        places) == "Waiting move: Qualifier 2 (position 2 → 1)."
    nested = log.sentence("waiting.add", "table 8", None,
                          {"rows": [{"player_id": 13, "position": 1}]}, places)
    assert nested.startswith("Waiting add: Qualifier 2, table 4 (after: ")
    assert not re.search(r"[{}\[\]\"]", nested)
    assert log.sentence("rule.change", "player 13", None, None, places) == \
        "Rule change: Wellington Yueh."


def test_a_payload_of_another_shape_falls_back_to_the_plain_sentence():
    places = log.Places(tables={8: "Qualifier 2, table 4"})
    words = log.sentence("result.correct", "table 8", "odd", {"version": 2}, places)
    assert words.startswith("Result corrected: Qualifier 2, table 4 (")
    assert log.sentence("players.add", "players", None, None, places) == \
        "Players added: players."


def test_names_of_what_is_gone_come_from_the_log_itself():
    events = pd.DataFrame([
        {"action": "players.add", "subject": "player 5", "before": None,
         "after": [{"player_id": 5, "name": "Gone Gary", "club": ""}]},
        {"action": "sitting.draw", "subject": "sitting 9", "before": None,
         "after": '{"kind": "qualifier", "number": 4, "seed": 1, "tables": '
                  '[{"table_id": 31, "table_no": 2}], "seats": [], "sit_outs": []}'},
        {"action": "player.withdraw", "subject": "player 5", "before": {"status": "active"},
         "after": {"status": "withdrawn"}},
        {"action": "table.override_setup", "subject": "table 31",
         "before": {"setup_id": "uprising"}, "after": {"setup_id": "legacy-ix", "reason": ""}},
    ])
    empty = pd.DataFrame(columns=["player_id", "name"])
    places = log.places_of(empty, pd.DataFrame(columns=["sitting_id", "kind", "number"]),
                           pd.DataFrame(columns=["table_id", "sitting_id", "table_no"]), events)
    words = log.event_sentences(events, places).tolist()
    assert words[2] == "Withdrew Gone Gary (results stay)."
    assert words[3].startswith("Changed the setup of Qualifier 4, table 2: Uprising → ")


def test_signing_everyone_out_says_the_invitations_and_devices_it_ended_too():
    """Issue 33: the log says all a recovery step ended, not only the sessions."""
    words = log.sentence("session.revoke_all", "sessions", None,
                         {"ended": 3, "invitations": 2, "devices": 1}, log.Places())
    assert words == ("Signed everyone out (3 sessions ended; the organizer who did it stays "
                     "signed in). Withdrew 2 open invitations. Stopped trusting 1 phone or "
                     "computer that signed in before.")
    assert log.sentence("session.revoke_all", "sessions", None, {"ended": 1},
                        log.Places()).endswith("(1 session ended; the organizer who did it "
                                               "stays signed in).")
