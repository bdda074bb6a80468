"""R27 the player directory: proposals by e-mail, else nickname (never a person already in that
tournament, never a guess between two), the organizer's question, new persons, merge and split,
and the public record; `match_players` is checked against a plain oracle on generated
directories."""

import unicodedata

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stsa import directory, domain, store
from stsa.domain import TournamentError
from stsa.store import roster

NAMES = {10: "GothCon 2026", 11: "LinCon 2026", 12: "SydCon 2026"}


def links_frame(rows):
    """(person_id, tournament_id, player_id, nickname, email) rows as the directory."""
    return pd.DataFrame(rows, columns=directory.LINK_COLUMNS).astype(
        {"person_id": "int64", "tournament_id": "int64", "player_id": "int64"})


def entries_frame(rows):
    """(tournament_id, player_id, nickname, email) rows as the players to match."""
    return pd.DataFrame(rows, columns=directory.ENTRY_COLUMNS).astype(
        {"tournament_id": "int64", "player_id": "int64"})


def proposal_of(entries, links):
    """Each entry's (person_id or None, matched_by, candidate_tournaments, reason)."""
    found = directory.match_players(entries_frame(entries), links_frame(links))
    return [(None if pd.isna(p) else int(p), m, tuple(c), r) for p, m, c, r in
            found[["person_id", "matched_by", "candidate_tournaments", "reason"]]
            .itertuples(index=False)]


BARON = [(1, 10, 1, "Spice Baron", "baron@arrakis.org"), (1, 11, 4, "Spice Baron", None)]
PAUL = [(2, 10, 2, "Paul", "")]


# --- where normalize_name lives ------------------------------------------------------------------

def test_normalize_name_lives_in_the_domain_and_the_store_keeps_the_name():
    assert store.normalize_name is roster.normalize_name is domain.normalize_name
    assert domain.normalize_name("  Ｓａｎｄ   WORM ") == "sand worm"


# --- match_players -------------------------------------------------------------------------------

def test_an_e_mail_match_beats_a_nickname_match():
    # The nickname is Paul's, the e-mail the Baron's (any case, any spaces around it).
    got = proposal_of([(12, 1, "Paul", "  BARON@Arrakis.org ")], BARON + PAUL)
    assert got == [(1, "e-mail", (10, 11), "")]


@pytest.mark.slow
@pytest.mark.parametrize("nickname", ["spice baron", "  SPICE   Baron ", "Ｓｐｉｃｅ Baron"])
def test_nicknames_match_ignoring_case_and_spaces(nickname):
    assert proposal_of([(12, 1, nickname, None)], BARON + PAUL) == [(1, "nickname", (10, 11), "")]


def test_a_person_who_already_played_that_tournament_is_never_proposed():
    by_nick = proposal_of([(11, 9, "Spice Baron", None)], BARON)
    by_email = proposal_of([(10, 9, "Someone", "baron@arrakis.org")], BARON)
    assert by_nick == by_email == [(None, "", (), "")]


def test_two_persons_with_one_nickname_are_ambiguous():
    other_paul = [(3, 11, 7, "paul", None)]
    assert proposal_of([(12, 1, "Paul", None)], PAUL + other_paul) == [(None, "", (), "ambiguous")]
    # Once one of them played that tournament, the other is the only candidate.
    assert proposal_of([(11, 1, "Paul", None)], PAUL + other_paul) == [(2, "nickname", (10,), "")]


def test_two_players_of_one_tournament_for_one_person_are_ambiguous_unless_one_has_the_e_mail():
    both_nick = proposal_of([(12, 1, "Spice Baron", None), (12, 2, "spice baron", None)], BARON)
    assert both_nick == [(None, "", (), "ambiguous")] * 2
    one_email = proposal_of([(12, 1, "Spice Baron", None), (12, 2, "B", "baron@arrakis.org")],
                            BARON)
    assert one_email == [(None, "", (), ""), (1, "e-mail", (10, 11), "")]


def test_a_different_e_mail_rules_a_nickname_match_out():
    # The Baron has an e-mail on record; another address under his nickname is someone else.
    assert proposal_of([(12, 1, "Spice Baron", "other@x.org")], BARON) == [(None, "", (), "")]
    # Paul has none, so his nickname still matches an entry that gives one.
    assert proposal_of([(12, 1, "Paul", "paul@x.org")], PAUL) == [(2, "nickname", (10,), "")]


def test_no_directory_yet_means_every_player_is_new():
    found = directory.match_players(entries_frame([(10, 1, "Paul", None)]), links_frame([]))
    assert found.columns.tolist() == directory.PROPOSAL_COLUMNS
    assert found["person_id"].isna().all() and str(found["person_id"].dtype) == "Int64"


def test_a_player_already_linked_or_listed_twice_is_refused():
    with pytest.raises(TournamentError, match=r"Spice Baron \(player 1\) is already in"):
        directory.match_players(entries_frame([(10, 1, "Spice Baron", None)]), links_frame(BARON))
    with pytest.raises(TournamentError, match="listed twice"):
        directory.match_players(entries_frame([(12, 1, "A", None), (12, 1, "A", None)]),
                                links_frame(BARON))


# --- the organizer's question --------------------------------------------------------------------

def test_the_question_names_the_tournaments_in_plain_words():
    one, two = directory.match_players(
        entries_frame([(12, 1, "spice baron", None), (12, 2, "Paul", None)]),
        links_frame([(1, 10, 1, "Spice Baron", None), (2, 10, 2, "Paul", None),
                     (2, 11, 2, "Paul", None)])).to_dict("records")
    assert (directory.confirm_question(one, NAMES)
            == "spice baron: the same player as in GothCon 2026?")
    assert (directory.confirm_question(two, NAMES)
            == "Paul: the same player as in GothCon 2026 and LinCon 2026?")


def test_three_tournaments_a_missing_name_and_no_proposal():
    row = {"nickname": "Paul", "person_id": 2, "candidate_tournaments": (10, 11, 13)}
    assert (directory.confirm_question(row, NAMES)
            == "Paul: the same player as in GothCon 2026, LinCon 2026 and tournament 13?")
    new = {"nickname": "Paul", "person_id": pd.NA, "candidate_tournaments": ()}
    assert directory.confirm_question(new, NAMES) == ""


# --- assign_people -------------------------------------------------------------------------------

def test_confirmed_players_join_their_person_and_the_rest_are_new_people():
    entries = entries_frame([(12, 1, "spice baron", None), (12, 2, "Paul", None),
                             (12, 3, "Feyd", "feyd@x.org")])
    links = links_frame(BARON + PAUL)
    # The Baron's proposal is confirmed, Paul's is not; Feyd has none (accepting it is no-op).
    rows = directory.assign_people(entries, links, {(12, 1), (12, 3)})
    assert rows.columns.tolist() == directory.LINK_COLUMNS
    assert rows[["person_id", "player_id", "nickname"]].values.tolist() == [
        [1, 1, "spice baron"], [3, 2, "Paul"], [4, 3, "Feyd"]]
    assert rows["email"].tolist()[2] == "feyd@x.org"
    whole = pd.concat([links, rows], ignore_index=True)
    assert not whole.duplicated(["person_id", "tournament_id"]).any()


def test_new_people_in_an_empty_directory_start_at_one():
    rows = directory.assign_people(entries_frame([(10, 1, "A", None), (10, 2, "B", None)]),
                                   links_frame([]), set())
    assert rows["person_id"].tolist() == [1, 2]


# --- merge and split -----------------------------------------------------------------------------

def test_merging_two_people_who_share_a_tournament_is_refused_in_plain_words():
    links = links_frame(BARON + PAUL)
    with pytest.raises(TournamentError) as refused:
        directory.merge_people(links, 1, 2)
    message = str(refused.value)
    assert "tournament 10" in message and "Spice Baron" in message and "Paul" in message
    assert "cannot be merged" in message and "baron@" not in message
    assert [p.where for p in refused.value.problems] == ["tournament 10"]


def test_merging_moves_every_player_of_the_other_person():
    links = links_frame(BARON + [(2, 12, 5, "Baron S.", None), (3, 10, 2, "Paul", None)])
    merged = directory.merge_people(links, 1, 2)
    assert merged["person_id"].tolist() == [1, 1, 1, 3]
    with pytest.raises(TournamentError, match="no person 9"):
        directory.merge_people(links, 1, 9)
    with pytest.raises(TournamentError, match="itself"):
        directory.merge_people(links, 1, 1)


def test_a_split_player_becomes_a_person_of_their_own():
    links = links_frame(BARON + PAUL)
    split = directory.split_player(links, 11, 4)
    assert split["person_id"].tolist() == [1, 3, 2]
    assert directory.split_player(links, 10, 2)["person_id"].tolist() == [1, 1, 2]  # already alone
    with pytest.raises(TournamentError, match="Player 9 of tournament 10 is not in"):
        directory.split_player(links, 10, 9)


# --- the public record ---------------------------------------------------------------------------

def test_the_player_record_is_newest_first_with_nicknames_only():
    links = links_frame(BARON + PAUL + [(1, 12, 8, "Baron", "baron@arrakis.org")])
    standings = pd.DataFrame({"tournament_id": [10, 10, 11, 12], "player_id": [1, 2, 4, 8],
                              "rank": [3, 1, 1, 5], "best_score": [9.5, 11.0, 12.0, 7.0]})
    finals = pd.DataFrame({"tournament_id": [11], "player_id": [4], "final_rank": [2]})
    tournaments = pd.DataFrame({"tournament_id": [10, 11, 12], "name": list(NAMES.values()),
                                "starts_on": pd.to_datetime(["2026-03-01", "2026-05-01",
                                                             "2026-04-01"]).date})
    record = directory.player_record(links, standings, finals, tournaments, person_id=1)
    assert record.columns.tolist() == directory.RECORD_COLUMNS
    assert record[["tournament", "nickname", "rank", "best_score"]].values.tolist() == [
        ["LinCon 2026", "Spice Baron", 1, 12.0], ["SydCon 2026", "Baron", 5, 7.0],
        ["GothCon 2026", "Spice Baron", 3, 9.5]]
    assert record["final_rank"].tolist()[0] == 2 and record["final_rank"].isna().sum() == 2
    assert "baron@arrakis.org" not in record.astype(str).to_numpy()
    with pytest.raises(TournamentError, match="one person"):
        directory.player_record(links, standings, finals, tournaments)


# --- match_players against a plain oracle --------------------------------------------------------

def _nick(text):
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def _mail(text):
    return (text or "").strip().casefold()


def oracle(entries, links):
    """The rules of `stsa.directory`, written out plainly, one entry at a time."""
    people = {}
    for person, tournament, _, nickname, email in links:
        p = people.setdefault(person, {"tours": set(), "nicks": set(), "mails": set()})
        p["tours"].add(tournament)
        p["nicks"].add(_nick(nickname))
        if _mail(email):
            p["mails"].add(_mail(email))
    single, ambiguous = {}, set()
    for i, (tournament, _, nickname, email) in enumerate(entries):
        free = {k: p for k, p in people.items() if tournament not in p["tours"]}
        mail, nick = _mail(email), _nick(nickname)
        found = [(k, 0) for k, p in free.items() if mail and mail in p["mails"]]
        if not found:
            found = [(k, 1) for k, p in free.items()
                     if nick and nick in p["nicks"] and not (mail and p["mails"])]
        if len(found) == 1:
            single[i] = found[0]
        elif len(found) > 1:
            ambiguous.add(i)
    kept = {}
    for i, (person, level) in single.items():
        rivals = [j for j, (q, lv) in single.items() if q == person
                  and entries[j][0] == entries[i][0]]
        best = min(single[j][1] for j in rivals)
        at_best = [j for j in rivals if single[j][1] == best]
        if level == best and len(at_best) == 1:
            kept[i] = (person, level)
        elif level == best:
            ambiguous.add(i)
    out = []
    for i, (tournament, player, nickname, _) in enumerate(entries):
        person, level = kept.get(i, (None, None))
        tours = tuple(sorted(people[person]["tours"])) if person is not None else ()
        out.append((tournament, player, nickname, person,
                    {0: "e-mail", 1: "nickname"}.get(level, ""), tours,
                    "ambiguous" if i in ambiguous else ""))
    return out


NICKS = ["Spice Baron", "spice  baron", "SPICE BARON", "Paul", " paul", "Ｐａｕｌ", "Feyd", ""]
MAILS = [None, "", "a@x.org", " A@X.org ", "b@x.org", "B@x.org"]


@st.composite
def directories(draw):
    """A directory (each person plays a tournament at most once) and unlinked entries of the
    same and new tournaments, from small pools so that matches, clashes and ties happen."""
    links = []
    for tournament in (1, 2, 3):
        persons = draw(st.lists(st.integers(1, 5), unique=True, max_size=4))
        links += [(person, tournament, n + 1, draw(st.sampled_from(NICKS)),
                   draw(st.sampled_from(MAILS))) for n, person in enumerate(persons)]
    entries = []
    for tournament in (1, 2, 3, 4):
        count = draw(st.integers(0, 3))
        entries += [(tournament, 100 + n, draw(st.sampled_from(NICKS)),
                     draw(st.sampled_from(MAILS))) for n in range(count)]
    return entries, links


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(directories())
def test_R27_match_players_matches_the_oracle(case):
    entries, links = case
    found = directory.match_players(entries_frame(entries), links_frame(links))
    got = [(t, p, n, None if pd.isna(q) else int(q), m, tuple(c), r)
           for t, p, n, q, m, c, r in found[directory.PROPOSAL_COLUMNS].itertuples(index=False)]
    assert got == oracle(entries, links)
    # Confirming every proposal keeps one player per person and tournament.
    rows = directory.assign_people(entries_frame(entries), links_frame(links),
                                   set(zip(found["tournament_id"], found["player_id"])))
    whole = pd.concat([links_frame(links), rows], ignore_index=True)
    assert not whole.duplicated(["person_id", "tournament_id"]).any()
