"""The catalog (data/*.csv through stsa.catalog): products, leaders, setups, colours, R4–R9."""

import itertools
import shutil

import pytest

from stsa import catalog
from stsa.errors import TournamentError

LEGACY = ["Paul Atreides", "Duke Leto Atreides", "Baron Vladimir Harkonnen",
          'Glossu "The Beast" Rabban', "Earl Memnon Thorvald", "Countess Ariana Thorvald",
          "Count Ilban Richese", "Helena Richese"]  # fmt: skip
IX = ["Archduke Armand Ecaz", "Ilesa Ecaz", '"Princess" Yuna Moritani',
      "Viscount Hundro Moritani", "Prince Rhombur Vernius", "Tessia Vernius"]  # fmt: skip
UPRISING = ["Muad'Dib", "Lady Jessica", "Gurney Halleck", "Feyd-Rautha Harkonnen",
            "Princess Irulan", "Lady Margot Fenring", "Lady Amber Metulli",
            "Staban Tuek"]  # fmt: skip
SHADDAM = "Shaddam Corrino IV"
BLOODLINES = ["Chani", "Duncan Idaho", "Esmar Tuek", "Piter De Vries", "Steersman Y'rkoon",
              "Count Hasimir Fenring", "Gaius Helen Mohiam", "Liet Kynes", "Kota Odax"]  # fmt: skip


def deck_of(setup_id, battle_of_wills=False):
    frame = catalog.setups(battle_of_wills=battle_of_wills).set_index("setup_id")
    return frame.loc[setup_id, "leader_deck"]


# --- products and leaders ---------------------------------------------------------------------


def test_products_are_the_six_of_the_catalog():
    prods = catalog.products().set_index("name")
    assert list(prods.index) == ["DUNE: Imperium", "Uprising", "Rise of Ix", "Immortality",
                                 "Bloodlines", "Battle of Wills"]  # fmt: skip
    assert prods["product_id"].is_unique
    assert prods.loc["DUNE: Imperium", "base_game"] == "Legacy"
    assert prods.loc["Uprising", "base_game"] == "Uprising"
    kinds = prods["kind"].value_counts().to_dict()
    assert kinds == {"base game": 2, "expansion": 3, "mini-expansion": 1}


def test_R7_thirty_two_leaders_by_product():
    leads = catalog.leaders()
    assert len(leads) == 32 and leads["name"].is_unique
    assert leads.groupby("product").size().to_dict() == {
        "DUNE: Imperium": 8, "Rise of Ix": 6, "Uprising": 9, "Bloodlines": 9,
    }  # fmt: skip
    by_product = leads.groupby("product")["name"].agg(list).to_dict()
    assert by_product["DUNE: Imperium"] == LEGACY
    assert by_product["Rise of Ix"] == IX
    assert by_product["Uprising"] == [*UPRISING, SHADDAM]
    assert by_product["Bloodlines"] == BLOODLINES


def test_R7_only_shaddam_is_left_out_of_default_decks():
    leads = catalog.leaders().set_index("name")
    assert leads.index[~leads["default_deck"]].tolist() == [SHADDAM]
    assert "CHOAM" in leads.loc[SHADDAM, "note"]
    assert leads.loc[leads["product"] == "DUNE: Imperium", "base_game"].eq("Legacy").all()
    assert leads.loc[leads["product"] == "Bloodlines", "base_game"].eq("").all()


def test_uncertain_leader_facts_are_noted():
    notes = catalog.leaders().set_index("name")["note"]
    uncertain = notes[notes.str.startswith("Uncertain")].index.tolist()
    assert uncertain == ["Count Hasimir Fenring", "Gaius Helen Mohiam", "Liet Kynes", "Kota Odax"]


def test_R4_default_colours():
    assert catalog.colours() == ["red", "green", "blue", "yellow"]


# --- setups -----------------------------------------------------------------------------------


def test_R5_sixteen_default_setups_one_per_base_and_expansion_subset():
    frame = catalog.setups()
    assert len(frame) == 16 and frame["setup_id"].is_unique and frame["name"].is_unique
    assert frame["base_game"].value_counts().to_dict() == {"Legacy": 8, "Uprising": 8}
    combos = {(b, tuple(e)) for b, e in zip(frame["base_game"], frame["expansions"])}
    expected = {
        (base, combo)
        for base in ("Legacy", "Uprising")
        for r in range(4)
        for combo in itertools.combinations(["Rise of Ix", "Immortality", "Bloodlines"], r)
    }
    assert combos == expected
    assert not frame["battle_of_wills"].any()
    name = frame.set_index("setup_id").loc["uprising-ix-blood", "name"]
    assert name == "Uprising + Rise of Ix + Bloodlines"


def test_R5_setup_flags_match_expansions():
    frame = catalog.setups()
    for flag, name in catalog.EXPANSION_FLAGS.items():
        assert frame[flag].tolist() == [name in e for e in frame["expansions"]]


def test_R9_hidden_picks_six_for_legacy_three_for_uprising():
    frame = catalog.setups()
    assert frame.groupby("base_game")["hidden_picks"].unique().map(list).to_dict() == {
        "Legacy": [6], "Uprising": [3],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("setup_id", "expected"),
    [
        ("legacy", LEGACY + IX),
        ("legacy-ix", LEGACY + IX),
        ("legacy-imm", LEGACY + IX),
        ("legacy-blood", LEGACY + IX + BLOODLINES),
        ("legacy-ix-imm-blood", LEGACY + IX + BLOODLINES),
        ("uprising", UPRISING),
        ("uprising-imm", UPRISING),
        ("uprising-ix", UPRISING + IX),
        ("uprising-blood", UPRISING + BLOODLINES),
        ("uprising-ix-imm-blood", UPRISING + IX + BLOODLINES),
    ],
)
def test_R7_leader_decks(setup_id, expected):
    assert deck_of(setup_id) == expected


def test_R7_legacy_deck_always_has_rise_of_ix_and_fourteen_leaders():
    frame = catalog.setups()
    legacy = frame[frame["base_game"] == "Legacy"]
    assert all(set(IX) <= set(deck) for deck in legacy["leader_deck"])
    assert len(deck_of("legacy")) == 14
    assert len(deck_of("uprising")) == 8


def test_R7_immortality_adds_no_leaders():
    frame = catalog.setups().set_index("setup_id")
    for setup_id in frame.index[frame["immortality"]]:
        without = "-".join(part for part in setup_id.split("-") if part != "imm")
        assert frame.loc[setup_id, "leader_deck"] == frame.loc[without, "leader_deck"]


def test_R7_every_default_deck_leaves_a_choice_for_four_players():
    frame = catalog.setups()
    assert (frame["leader_deck"].str.len() - frame["hidden_picks"] >= 4).all()
    assert not any(SHADDAM in deck for deck in frame["leader_deck"])


def test_R5_battle_of_wills_adds_a_version_of_each_setup():
    plain = catalog.setups()
    both = catalog.setups(battle_of_wills=True)
    assert len(both) == 32 and both["setup_id"].is_unique
    bow = both[both["battle_of_wills"]].reset_index(drop=True)
    assert bow["setup_id"].tolist() == [s + "-bow" for s in plain["setup_id"]]
    assert bow["name"].tolist() == [n + " + Battle of Wills" for n in plain["name"]]
    assert bow["leader_deck"].tolist() == plain["leader_deck"].tolist()
    assert bow["hidden_picks"].tolist() == plain["hidden_picks"].tolist()
    assert all(e[-1] == "Battle of Wills" for e in bow["expansions"])
    assert both.iloc[:16]["setup_id"].tolist() == plain["setup_id"].tolist()


def test_R5_battle_of_wills_versions_of_enabled_setups_only():
    enabled = catalog.setups().query("base_game == 'Uprising'").head(3)
    frame = catalog.with_battle_of_wills(enabled)
    assert frame["setup_id"].tolist() == [*enabled["setup_id"], *(enabled["setup_id"] + "-bow")]
    assert len(catalog.with_battle_of_wills(frame)) == 6  # not doubled again


def test_catalog_returns_copies_the_cache_cannot_be_corrupted():
    frame = catalog.setups()
    frame.loc[0, "hidden_picks"] = 99
    frame["leader_deck"].iat[1].append("Nobody")
    leads = catalog.leaders()
    leads.loc[0, "name"] = "x"
    catalog.colours().append("purple")
    fresh = catalog.setups()
    assert fresh.loc[0, "hidden_picks"] == 6
    assert "Nobody" not in fresh["leader_deck"].iat[1]
    assert catalog.leaders()["name"].iat[0] == "Paul Atreides"
    assert catalog.colours() == ["red", "green", "blue", "yellow"]


def test_leader_deck_of_products():
    assert catalog.leader_deck(["Uprising", "Bloodlines"]) == UPRISING + BLOODLINES
    with pytest.raises(TournamentError, match="Unknown product.*'Dune 2'"):
        catalog.leader_deck(["Dune 2"])


# --- R8 table procedure -----------------------------------------------------------------------


def test_R8_reveals_before_picks_and_conflict_hidden_until_start():
    steps = catalog.setup_steps("legacy-ix-imm")
    text = [s.lower() for s in steps]

    def where(word):
        return next(i for i, s in enumerate(text) if word in s)

    assert where("imperium row") < where("tech tile") < where("hidden picks")
    assert where("hidden picks") < where("picks a leader")
    assert where("picks a leader") < where("reveal their leaders") < where("conflict card")
    assert where("conflict card") < where("start the game") == len(steps) - 1
    assert "Legacy + Rise of Ix + Immortality" in steps[0]
    assert "(6)" in steps[where("hidden picks")]


def test_R8_no_tech_tiles_without_rise_of_ix():
    steps = catalog.setup_steps("uprising-blood")
    assert not any("Tech" in s for s in steps)
    assert any("Hidden Picks (3)" in s for s in steps)


def test_R8_steps_from_a_row_or_an_id_agree():
    frame = catalog.setups(battle_of_wills=True)
    row = frame.set_index("setup_id", drop=False).loc["uprising-ix-bow"]
    assert catalog.setup_steps(row) == catalog.setup_steps("uprising-ix-bow")
    assert catalog.setup_steps(row.to_dict()) == catalog.setup_steps("uprising-ix-bow")
    assert catalog.setup_steps({"setup_id": "legacy"}) == catalog.setup_steps("legacy")
    with pytest.raises(TournamentError, match="Unknown setup 'nope'"):
        catalog.setup_steps("nope")


# --- R7 organizer-edited decks ----------------------------------------------------------------


def test_R7_validate_deck_accepts_and_cleans():
    assert catalog.validate_deck([" Chani", *UPRISING[:6]], 3) == ["Chani", *UPRISING[:6]]


def test_R7_deck_too_small_after_hidden_picks_is_refused():
    message = r"setup 'x'.*8 leaders.*removing 6.*leaves 2.*4 players"
    with pytest.raises(TournamentError, match=message):
        catalog.validate_deck(LEGACY, 6, setup="setup 'x'")
    assert catalog.validate_deck(LEGACY, 6, players=2) == LEGACY


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ([*LEGACY, "Chani", "Chani"], "'Chani' more than once"),
        ([*LEGACY, "Paul Muaddib"], "unknown leader.*'Paul Muaddib'"),
        ([*LEGACY, " "], "blank"),
    ],
)
def test_R7_bad_decks_are_refused(deck, message):
    with pytest.raises(TournamentError, match=message):
        catalog.validate_deck(deck, 0)


# --- CSV checks -------------------------------------------------------------------------------


@pytest.fixture
def data_copy(tmp_path):
    for path in catalog.DATA_DIR.glob("*.csv"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def edit(folder, file, old, new):
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_catalog_copy_loads(data_copy):
    cat = catalog.load(data_copy)
    assert len(cat.setups) == 16 and len(cat.leaders) == 32


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("setups.csv", "Uprising;Bloodlines\n", "Uprising;Bloodlinez\n",
         r"setups.csv line 13: the deck of 'uprising-blood' names 'Bloodlinez', not a product"),
        ("setups.csv", "legacy-ix,", "legacy,",
         r"setups.csv line 3: 'legacy' is listed twice as setup_id"),
        ("setups.csv", "Uprising,false,false,false,3,Uprising\n",
         "Uprising,false,false,false,6,Uprising\n", r"'uprising'.*8 leaders.*removing 6"),
        ("setups.csv", "Legacy,true,false,false", "Legacy,maybe,false,false",
         r"line 3: 'maybe' is not true or false \(rise_of_ix\)"),
        ("setups.csv", ",Legacy,false,false,false,6", ",Legasy,false,false,false,6",
         "line 2: 'Legasy' is not a base game"),
        ("setups.csv", "legacy-ix,", "Legacy IX,", "line 3: 'Legacy IX' is not lower-case"),
        ("setups.csv", "legacy-ix,", "legacy-bow,", "line 3: 'legacy-bow' ends in '-bow'"),
        ("setups.csv", "Legacy,true,false,false,6", "Legacy,true,false,false,six",
         "line 3: 'six' is not a whole number of hidden picks"),
        ("setups.csv", "legacy-ix,Legacy + Rise of Ix", "legacy-ix,", "line 3: name is empty"),
        ("leaders.csv", "Chani,Bloodlines", "Chani,Bloodline",
         r"leaders.csv line 25: 'Bloodline' is not a product of products.csv"),
        ("leaders.csv", "Duncan Idaho,", "Chani,",
         r"leaders.csv line 26: 'Chani' is listed twice as name"),
        ("leaders.csv", "Chani,Bloodlines,true", "Chani,Bloodlines,sure",
         "line 25: 'sure' is not true"),
        ("products.csv", "ix,Rise of Ix", "legacy,Rise of Ix",
         "'legacy' is listed twice as product_id"),
        ("products.csv", "bow,Battle of Wills,Battle of Wills,mini-expansion",
         "bow,Battle of Willz,Battle of Wills,mini-expansion", "missing Battle of Wills"),
        ("products.csv", "expansion,\nimmortality", "addon,\nimmortality", "'addon' is not a kind"),
        ("colours.csv", "yellow\n", "red\n", "'red' is listed twice as colour"),
        ("colours.csv", "yellow\n", "", "at least 4"),
        ("leaders.csv", "name,product", "leader,product", "lacks the column"),
    ],
)
def test_catalog_files_are_checked_on_load(data_copy, file, old, new, message):
    edit(data_copy, file, old, new)
    with pytest.raises(TournamentError, match=message):
        catalog.load(data_copy)


def test_missing_catalog_file_is_named(data_copy):
    (data_copy / "leaders.csv").unlink()
    with pytest.raises(TournamentError, match="leaders.csv is missing"):
        catalog.load(data_copy)
