"""R27: the organizer's player directory service: new players linked at import, the questions
for players who look like earlier tournaments' players (by e-mail, else by nickname), the
answers written as links, refusals that write nothing, and the directory listed by person with
merge and split."""

from __future__ import annotations

import pandas as pd
import pytest

from stsa import store
from stsa.domain import TournamentError
from stsa.services import people as service
from tests.support.store_helpers import JUDGE, ORGANIZER


@pytest.fixture
def two(tmp_path):
    """GothCon 2026 (Spice Baron with an e-mail, Ace, Bolt), all linked as new people, and
    LinCon 2026 with Spice Baron's e-mail under another nickname, an Ace, and a newcomer."""
    url = f"sqlite:///{tmp_path / 'stsa.db'}"
    inst = store.connect(url, backup_dir=tmp_path / "backups")
    made = [store.create_tournament(inst, name, actor=ORGANIZER)
            for name in ("GothCon 2026", "LinCon 2026")]
    goth, lin = (store.connect(url, tournament=t.key, backup_dir=tmp_path / "backups")
                 for t in made)
    by_id = {t.tournament_id: e for t, e in zip(made, (goth, lin))}

    def engines(tournament_id):  # the installation's own tournament (empty) is `inst`
        return by_id.get(tournament_id, inst)
    store.import_players(goth, [{"name": "Sam Real", "nickname": "Spice Baron",
                                 "email": "sam@example.org"},
                                {"name": "Ann Real", "nickname": "Ace"},
                                {"name": "Bo Real", "nickname": "Bolt"}], actor=ORGANIZER)
    first = service.link_new(goth, engines, actor=ORGANIZER)
    assert len(first) == 3  # an empty directory: nobody to ask about
    store.import_players(lin, [{"name": "Sam Real", "nickname": "The Baron",
                                "email": " SAM@example.org"},
                               {"name": "Ann Other", "nickname": "ace"},
                               {"name": "Cy Real", "nickname": "Cyan"}], actor=ORGANIZER)
    yield {"inst": inst, "goth": goth, "lin": lin, "open": engines,
           "ids": [t.tournament_id for t in made]}
    for e in (inst, goth, lin):
        e.dispose()


def _lin_player(two, nickname):
    found = store.players(two["lin"], actor=ORGANIZER)
    return int(found.loc[found["nickname"] == nickname, "player_id"].iloc[0])


@pytest.mark.slow
def test_new_players_without_a_proposal_become_new_people_and_the_others_are_asked(two):
    added = service.link_new(two["lin"], two["open"], actor=ORGANIZER)
    lin = two["ids"][1]
    assert added[["tournament_id", "player_id"]].values.tolist() == [[lin, _lin_player(two,
                                                                                       "Cyan")]]
    asked = service.proposals(two["lin"], two["open"], actor=ORGANIZER)
    assert asked.set_index("nickname")["matched_by"].to_dict() == {"The Baron": "e-mail",
                                                                   "ace": "nickname"}
    assert asked["question"].tolist() == [
        "The Baron: the same player as in GothCon 2026?",
        "ace: the same player as in GothCon 2026?"]
    assert not asked.columns.str.contains("email").any()


@pytest.mark.slow
def test_yes_joins_the_earlier_person_and_no_makes_a_new_one(two):
    service.link_new(two["lin"], two["open"], actor=ORGANIZER)
    asked = service.proposals(two["lin"], two["open"], actor=ORGANIZER)
    key = asked[["tournament_id", "player_id"]].itertuples(index=False, name=None)
    baron, ace = list(key)
    person = dict(zip([baron, ace], asked["person_id"].astype(int)))
    before = set(store.directory(two["inst"])["person_id"])
    written = service.answer(two["lin"], two["open"], {baron: person[baron]}, [ace],
                             actor=ORGANIZER)
    assert len(written) == 2
    found = store.directory(two["inst"]).set_index(["tournament_id", "player_id"])["person_id"]
    assert found[baron] == person[baron]
    assert found[ace] not in before  # a new person
    assert service.proposals(two["lin"], two["open"], actor=ORGANIZER).empty
    assert "directory.link" in set(store.events(two["inst"], actor=ORGANIZER)["action"])


@pytest.mark.slow
def test_a_changed_proposal_or_a_judge_is_refused_and_nothing_is_written(two):
    asked = service.proposals(two["lin"], two["open"], actor=ORGANIZER)
    baron = tuple(int(v) for v in asked[["tournament_id", "player_id"]].iloc[0])
    before = store.directory(two["inst"])
    with pytest.raises(TournamentError, match="changed meanwhile"):
        service.answer(two["lin"], two["open"], {baron: 999}, actor=ORGANIZER)
    with pytest.raises(TournamentError, match="changed meanwhile"):
        service.answer(two["lin"], two["open"], {}, [(two["ids"][1], 999)], actor=ORGANIZER)
    with pytest.raises(TournamentError):
        service.answer(two["lin"], two["open"], {baron: int(asked["person_id"].iloc[0])},
                       actor=JUDGE)
    pd.testing.assert_frame_equal(store.directory(two["inst"]), before)


@pytest.mark.slow
def test_the_directory_by_person_then_merge_and_split(two):
    service.link_new(two["lin"], two["open"], actor=ORGANIZER)
    asked = service.proposals(two["lin"], two["open"], actor=ORGANIZER)
    service.answer(two["lin"], two["open"], {}, list(
        asked[["tournament_id", "player_id"]].itertuples(index=False, name=None)),
        actor=ORGANIZER)
    found = service.members(two["inst"], two["open"], actor=ORGANIZER)
    assert len(found) == 6 and set(found["tournament"]) == {"GothCon 2026", "LinCon 2026"}
    assert "email" not in found and "name" not in found
    listed = service.people(found)
    assert listed["players"].tolist() == [1] * 6
    spice = int(found.loc[found["nickname"] == "Spice Baron", "person_id"].iloc[0])
    baron = int(found.loc[found["nickname"] == "The Baron", "person_id"].iloc[0])
    bolt = int(found.loc[found["nickname"] == "Bolt", "person_id"].iloc[0])
    assert service.merge(two["inst"], found, spice, baron, actor=ORGANIZER) == 1
    found = service.members(two["inst"], two["open"], actor=ORGANIZER)
    merged = service.people(found).set_index("person_id").loc[spice]
    assert merged["nicknames"] == "Spice Baron, The Baron"
    assert merged["tournaments"] == "GothCon 2026, LinCon 2026"
    with pytest.raises(TournamentError, match="Bolt and Spice Baron both played"):
        service.merge(two["inst"], found, bolt, spice, actor=ORGANIZER)
    lin, player = two["ids"][1], _lin_player(two, "The Baron")
    alone = service.split(two["inst"], lin, player, actor=ORGANIZER)
    assert alone not in set(found["person_id"])
    assert service.people(service.members(two["inst"], two["open"], actor=ORGANIZER))[
        "players"].tolist() == [1] * 6


@pytest.mark.slow
def test_every_tournament_s_players_join_the_directory_oldest_first(two):
    store.import_players(two["goth"], [{"name": "Di Real", "nickname": "Dune"}], actor=ORGANIZER)
    assert service.link_every_tournament(two["inst"], two["open"], actor=ORGANIZER) == 2
    # GothCon's Dune and LinCon's Cyan are new people; LinCon's two look-alikes wait.
    assert len(store.directory(two["inst"])) == 5
    assert len(service.proposals(two["lin"], two["open"], actor=ORGANIZER)) == 2
    assert service.link_every_tournament(two["inst"], two["open"], actor=ORGANIZER) == 0
