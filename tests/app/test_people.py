"""Players across tournaments (R27): the Roster page's questions about players who look like
earlier tournaments' players, the organizer's Players page (the directory, merge, split) and
who may open it, and the public Player records page (nicknames only, the unofficial rating)."""

from __future__ import annotations

import pytest

from stsa import store
from stsa.services import people as service
from stsa.services import season
from tests.app.conftest import JUDGE, ORGANIZER, count_calls, shown
from tests.support.store_helpers import published_sitting, rows_for

REAL = ["Alice Realname", "Bob Realname", "Cora Realname", "Dan Realname"]
NICKS = ["Spice Baron", "Bolt", "Cobra", "Dune"]
EMAILS = ["alice@example.org", "bob@example.org", "", ""]


def _play(engine, ids):
    _, tables = published_sitting(engine, ids=ids)
    for table_id in tables["table_id"]:
        store.submit_table_result(engine, int(table_id), rows_for(engine, int(table_id)),
                                  expected_version=0, submission_id=None, actor=ORGANIZER)


@pytest.fixture
def two(engine, db_url):
    """Alpha Con (four players at one played qualifier table, all in the directory) and Beta
    Con (empty), each with real names, nicknames and e-mails unlike each other."""
    alpha = store.create_tournament(engine, "Alpha Con", starts_on="2026-03-01",
                                    actor=ORGANIZER)
    beta = store.create_tournament(engine, "Beta Con", starts_on="2026-06-01", actor=ORGANIZER)
    a, b = (store.connect(db_url, tournament=t.key) for t in (alpha, beta))
    for eng in (a, b):
        store.set_settings(eng, {"auto_backup": False}, actor=ORGANIZER)
    ids = store.import_players(a, [{"name": REAL[i], "nickname": NICKS[i], "email": EMAILS[i]}
                                   for i in range(4)], actor=ORGANIZER)["player_id"]
    _play(a, [int(i) for i in ids])
    by_id = {alpha.tournament_id: a, beta.tournament_id: b}

    def opened(tournament_id):  # the installation's own tournament (empty) is `engine`
        return by_id.get(tournament_id, engine)
    linked = service.link_new(a, opened, actor=ORGANIZER)
    person = dict(zip(NICKS, linked.set_index("player_id").loc[ids, "person_id"]))
    yield {"alpha": alpha, "beta": beta, "a": a, "b": b, "open": opened, "person": person}
    a.dispose()
    b.dispose()


def _button(at, label: str):
    return next(b for b in at.button if b.label == label)


def _text(at) -> str:
    return " ".join(shown(at.markdown) + shown(at.caption) + shown(at.subheader)
                    + [e.value for e in at.info] + [str(f.value.to_csv()) for f in at.dataframe]
                    + [str(s.options) for s in at.selectbox])


def test_the_roster_asks_about_earlier_players_and_saves_the_answers(open_page, two, engine):
    at = open_page("views/roster.py", as_=ORGANIZER, query={"t": two["beta"].key})
    assert not at.exception
    assert "Players from earlier tournaments" not in shown(at.subheader)  # no proposal yet
    at.text_area(key="roster_text").input("Spice Baron\nCobra\nNewcomer")
    at.button(key="roster_import").click().run()
    assert not at.exception
    assert "Players from earlier tournaments" in shown(at.subheader)
    questions = [r.label for r in at.radio]
    assert questions == ["Spice Baron: the same player as in Alpha Con?",
                         "Cobra: the same player as in Alpha Con?"]
    beta = two["beta"].tournament_id
    linked = store.directory(engine).loc[lambda d: d["tournament_id"] == beta]
    assert len(linked) == 1  # the newcomer, a new person at once
    at.radio[0].set_value("Yes")
    at.radio[1].set_value("No")
    _button(at, "Save answers").click().run()
    assert not at.exception
    assert "Saved 2 answers." in [s.value for s in at.success]
    assert "Players from earlier tournaments" not in shown(at.subheader)
    found = store.directory(engine)
    people = found.groupby("person_id")["tournament_id"].size()
    assert (people == 2).sum() == 1 and len(found) == 7  # Spice Baron alone is in both


def test_yes_to_all_links_every_proposal(open_page, two, engine):
    store.import_players(two["b"], [{"name": f"X {n}", "nickname": n} for n in ("Bolt", "Dune")],
                         actor=ORGANIZER)
    at = open_page("views/roster.py", as_=ORGANIZER, query={"t": two["beta"].key})
    assert len(at.radio) == 2
    _button(at, "Yes to all 2 questions").click().run()
    assert not at.exception
    found = store.directory(engine)
    assert len(found) == 6 and found["person_id"].nunique() == 4


def test_the_players_page_lists_merges_and_splits_with_a_confirmation(open_page, two, engine):
    store.import_players(two["b"], [{"name": "Bob Realname", "nickname": "Bolt II"}],
                         actor=ORGANIZER)
    service.link_new(two["b"], two["open"], actor=ORGANIZER)  # no proposal: a new person
    at = open_page("views/people.py", as_=ORGANIZER)
    assert not at.exception
    table = at.dataframe[0].value
    assert len(table) == 5 and "Bolt II" in set(table["Nicknames"])
    found = store.directory(engine)
    bolt2 = int(found.loc[found["tournament_id"] == two["beta"].tournament_id,
                          "person_id"].iloc[0])
    bolt = int(table.loc[table["Nicknames"] == "Bolt", "Person"].iloc[0])
    at.selectbox(key="merge_keep").select(bolt).run()
    at.selectbox(key="merge_other").select(bolt2).run()
    at.button(key="merge_people").click().run()
    assert any("Tick" in w.value for w in at.warning)
    assert store.directory(engine)["person_id"].nunique() == 5  # nothing merged
    at.checkbox(key="merge_sure").check().run()
    at.button(key="merge_people").click().run()
    assert not at.exception
    assert store.directory(engine)["person_id"].nunique() == 4
    table = at.dataframe[0].value
    assert table.loc[table["Person"] == bolt, "Nicknames"].iloc[0] == "Bolt, Bolt II"
    assert "directory.merge" in set(store.events(engine, actor=ORGANIZER)["action"])

    key = (two["beta"].tournament_id, int(found.loc[found["person_id"] == bolt2,
                                                     "player_id"].iloc[0]))
    at.selectbox(key="split_player").select(key).run()
    at.checkbox(key="split_sure").check().run()
    at.button(key="split_out").click().run()
    assert not at.exception
    assert store.directory(engine)["person_id"].nunique() == 5
    assert "directory.split" in set(store.events(engine, actor=ORGANIZER)["action"])


def test_a_refused_merge_is_a_plain_message(open_page, two, engine):
    at = open_page("views/people.py", as_=ORGANIZER)
    table = at.dataframe[0].value
    first, second = (int(p) for p in table["Person"].iloc[:2])
    at.selectbox(key="merge_keep").select(first).run()
    at.selectbox(key="merge_other").select(second).run()
    at.checkbox(key="merge_sure").check().run()
    at.button(key="merge_people").click().run()
    assert not at.exception
    assert any("both played in tournament" in e.value for e in at.error)
    assert store.directory(engine)["person_id"].nunique() == 4


@pytest.mark.parametrize("who", [None, JUDGE])
def test_only_the_organizer_opens_the_players_page(open_page, two, who):
    at = open_page("views/people.py", as_=who)
    assert not at.exception
    assert shown(at.info)[0].startswith("The Players page is for the organizer only.")
    assert not at.dataframe


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_the_player_record_shows_nicknames_scores_and_the_unofficial_rating(open_page, two,
                                                                            who):
    at = open_page("views/player_record.py", as_=who)
    assert not at.exception
    at.text_input(key="record_search").input("baron").run()
    options = at.selectbox(key="record_player").options
    assert options == ["Spice Baron (last played: Alpha Con)"]
    at.selectbox(key="record_player").select(two["person"]["Spice Baron"]).run()
    assert not at.exception
    record = at.dataframe[0].value
    assert record["Tournament"].tolist() == ["Alpha Con"]
    assert record["Nickname there"].tolist() == ["Spice Baron"]
    assert record["Best qualifier score"].notna().all()
    assert "Unofficial rating" in shown(at.subheader)
    assert [m.label for m in at.metric] == ["Skill", "Uncertainty", "Conservative rating"]
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    text = _text(at)
    assert not any(real in text for real in REAL)
    assert not any(mail and mail in text for mail in EMAILS)
    assert "R27" not in text


def test_the_record_page_reads_are_shared(open_page, two, monkeypatch):
    """Every viewer's record comes from reads made once per data version, not per viewer."""
    played = count_calls(monkeypatch, season, "played")
    rated = count_calls(monkeypatch, season, "rating_table")
    for who in (None, JUDGE, None):
        at = open_page("views/player_record.py", as_=who)
        at.selectbox(key="record_player").select(two["person"]["Bolt"]).run()
        assert not at.exception
        assert at.metric
    assert len(rated) == 1 and len(played) == 1  # the rating is computed from the same read


def test_the_players_page_adds_tournaments_players_not_in_the_directory(open_page, two,
                                                                         engine):
    store.import_players(two["b"], [{"name": "Cy Real", "nickname": "Cyan"},
                                    {"name": "Di Other", "nickname": "dune"}], actor=ORGANIZER)
    at = open_page("views/people.py", as_=ORGANIZER)
    at.button(key="directory_add_all").click().run()
    assert not at.exception
    assert "Added 1 player to the directory." in [s.value for s in at.success]
    assert len(at.dataframe[0].value) == 5  # Cyan; "dune" waits for the Roster's question
