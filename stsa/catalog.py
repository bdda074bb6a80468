"""The game catalog: products, leaders, setups and colours, loaded from the CSV files in data/.

The facts live in data/*.csv, not in code, so an organizer or maintainer can correct them
without touching Python. Each file is read and checked once (cached); every public function
returns a fresh copy, so a caller that edits what it gets cannot change what the next caller sees.
Ruling numbers (R4, R5 …) refer to the project's RULINGS.md.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from stsa.domain import TournamentError, is_whole
from stsa.i18n import N_, _, ngettext

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

BASE_GAMES = ("Legacy", "Uprising")
PRODUCT_KINDS = ("base game", "expansion", "mini-expansion")
BATTLE_OF_WILLS = "Battle of Wills"
BOW_SUFFIX = "-bow"
MAX_TABLE_SIZE = 4

# Setup flag column -> the product it stands for (order = order of names in a setup's title).
EXPANSION_FLAGS = {
    "rise_of_ix": "Rise of Ix",
    "immortality": "Immortality",
    "bloodlines": "Bloodlines",
}

# The default colours' names (data/colours.csv) as people read them: pages translate a colour
# by its name (`ui.sittings.colour_word`); a colour the organizer named otherwise stays as typed.
COLOUR_WORDS = (N_("red"), N_("green"), N_("blue"), N_("yellow"))

_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


@dataclass(frozen=True)
class Catalog:
    """The checked CSV tables as read (no list columns). Treat as read-only."""

    products: pd.DataFrame
    leaders: pd.DataFrame
    setups: pd.DataFrame
    colours: tuple[str, ...]


# --- public API -------------------------------------------------------------------------------


def load(data_dir: str | Path | None = None) -> Catalog:
    """Read and check the catalog CSVs of `data_dir` (default: the project's data/), cached.

    Raises `TournamentError` naming the file, the line and the problem (an unknown product in a
    deck, a duplicate id, a deck too small for Hidden Picks …).
    """
    return _load(str(Path(data_dir or DATA_DIR).resolve()))


def products() -> pd.DataFrame:
    """The products: `product_id, name, full_name, kind, base_game` (empty for add-ons)."""
    return load().products.copy()


def leaders() -> pd.DataFrame:
    """All leaders, R7: `name, product, product_id, base_game, default_deck, note`.

    `product` is the product's name ("DUNE: Imperium", "Rise of Ix", "Uprising", "Bloodlines");
    `base_game` is "Legacy" or "Uprising" for a base game's leaders and empty for an expansion's
    (those play with either base). `default_deck` is False for Shaddam Corrino IV (only with the
    CHOAM module); `note` carries the uncertain facts an organizer may want to correct.
    """
    cat = load()
    info = cat.products.set_index("name")
    return cat.leaders.assign(
        product_id=lambda d: d["product"].map(info["product_id"]),
        base_game=lambda d: d["product"].map(info["base_game"]),
    )[["name", "product", "product_id", "base_game", "default_deck", "note"]]


def colours() -> list[str]:
    """R4: the default player colours (red, green, blue, yellow)."""
    return list(load().colours)


def setups(battle_of_wills: bool = False) -> pd.DataFrame:
    """R5, R7, R9: the default setup catalog, one row per setup.

    Columns: `setup_id, name, base_game, rise_of_ix, immortality, bloodlines, battle_of_wills,
    expansions` (list of expansion names), `hidden_picks`, `deck_products` (list of product
    names) and `leader_deck` (list of leader names, in catalog order). With
    `battle_of_wills=True` a "+ Battle of Wills" version of every setup follows the 16 plain
    ones (setup_id suffixed "-bow", same deck and hidden picks).
    """
    built = _setups(str(DATA_DIR.resolve()), bool(battle_of_wills))
    # Fresh lists on every call: a caller that edits a deck cannot change the next one's.
    return built.assign(**{column: [list(v) for v in built[column]] for column in _LIST_COLUMNS})


def with_battle_of_wills(setup_frame: pd.DataFrame) -> pd.DataFrame:
    """R5: the given setups followed by a "+ Battle of Wills" version of each (id + "-bow").

    Use it on the organizer's enabled setups: Battle of Wills adds a version of each *enabled*
    setup. Setups that already have their Battle of Wills version are not doubled.
    """
    have = set(setup_frame["setup_id"])
    plain = setup_frame.loc[
        ~setup_frame["battle_of_wills"].astype(bool)
        & ~(setup_frame["setup_id"] + BOW_SUFFIX).isin(have)
    ]
    bow = plain.assign(
        setup_id=plain["setup_id"] + BOW_SUFFIX,
        name=plain["name"] + " + " + BATTLE_OF_WILLS,
        battle_of_wills=True,
        expansions=[[*e, BATTLE_OF_WILLS] for e in plain["expansions"]],
        leader_deck=[list(d) for d in plain["leader_deck"]],
    )
    if "deck_products" in plain:
        bow = bow.assign(deck_products=[list(p) for p in plain["deck_products"]])
    return pd.concat([setup_frame, bow], ignore_index=True)


def by_name(leaders: Iterable[str]) -> list[str]:
    """Leaders in alphabetical order as a person looks them up: by their first letter, any
    case, not by a quote or an accent ("“Princess” Yuna Moritani" among the P's)."""
    def key(name: str) -> tuple[str, str]:
        letters = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode()
        return "".join(c for c in letters if c.isalnum() or c == " ").strip().casefold(), name
    return sorted(leaders, key=key)


def leader_deck(product_names: Iterable[str]) -> list[str]:
    """R7: the default leader deck of the given products (leaders flagged `default_deck`)."""
    names = list(product_names)
    cat = load()
    unknown = sorted(set(names) - set(cat.products["name"]))
    if unknown:
        raise TournamentError(_("Unknown product(s) {products}.").format(
            products=", ".join(map(repr, unknown))))
    return _deck(names, cat.leaders)


def validate_deck(
    deck: Iterable[str],
    hidden_picks: int,
    *,
    players: int = MAX_TABLE_SIZE,
    setup: str = N_("this setup"),
    known: Iterable[str] | None = None,
) -> list[str]:
    """R7: check an organizer-edited leader deck and return it cleaned (names stripped).

    Refuses blank or unknown leader names (`known` defaults to the catalog's leaders), a leader
    listed twice, and a deck that after removing `hidden_picks` leaders leaves fewer leaders than
    `players` (the largest table, 4 by default).
    """
    cleaned = [str(name).strip() for name in deck]
    setup = _(setup)
    if any(not name for name in cleaned):
        raise TournamentError(_("The leader deck of {setup} has a blank leader name.").format(
            setup=setup))
    known_names = set(known) if known is not None else set(load().leaders["name"])
    unknown = [name for name in cleaned if name not in known_names]
    if unknown:
        raise TournamentError(
            _("The leader deck of {setup} names unknown leader(s): {leaders}.").format(
                setup=setup, leaders=", ".join(map(repr, unknown)))
        )
    twice = sorted({name for name in cleaned if cleaned.count(name) > 1})
    if twice:
        raise TournamentError(
            _("The leader deck of {setup} lists {leaders} more than once.").format(
                setup=setup, leaders=", ".join(map(repr, twice)))
        )
    if not is_whole(hidden_picks) or hidden_picks < 0:
        raise TournamentError(
            _("Hidden picks for {setup} must be a whole number of at least 0, not "
              "{hidden_picks}.").format(setup=setup, hidden_picks=repr(hidden_picks))
        )
    left = len(cleaned) - hidden_picks
    if left < players:
        raise TournamentError(
            ngettext("The leader deck of {setup} has {count} leader: removing {hidden_picks} "
                     "(Hidden Picks) leaves {left}, fewer than the {players} players at a table. "
                     "Add leaders or lower the hidden picks.",
                     "The leader deck of {setup} has {count} leaders: removing {hidden_picks} "
                     "(Hidden Picks) leaves {left}, fewer than the {players} players at a table. "
                     "Add leaders or lower the hidden picks.", len(cleaned)).format(
                setup=setup, count=len(cleaned), hidden_picks=hidden_picks, left=max(left, 0),
                players=players)
        )
    return cleaned


def setup_steps(setup: str | Mapping | pd.Series, *, vote_off: int | None = None,
                wild_card: bool = False) -> list[str]:
    """R8: the table procedure for a setup, in order, for the table slip and the judge's view.
    Under Vote Off (`vote_off`: X, the leaders each player votes off) the votes replace the
    hidden picks, and with `wild_card` each player's keep-or-swap follows the reveal (R10).

    `setup` is a setup_id (Battle of Wills versions included) or a row of `setups()` (a Series or
    mapping with at least `name`, `hidden_picks` and `expansions` or `rise_of_ix`). The Imperium
    Row and, with Rise of Ix, the top Tech tiles are revealed before leaders are picked; the first
    Conflict card stays hidden until the game starts.
    """
    row = _setup_row(setup)
    with_ix = bool(row.get("rise_of_ix", False)) or "Rise of Ix" in list(row.get("expansions", []))
    picks = int(row["hidden_picks"])
    steps = [_("Set up {setup}.").format(setup=row["name"])]
    steps.append(_("Reveal the Imperium Row."))
    if with_ix:
        steps.append(_("Reveal the top Tech tile of each Tech stack (Rise of Ix)."))
    if vote_off:
        steps.append(ngettext(
            "Vote Off ({count}): each player secretly writes down {count} leader of the deck "
            "to vote off; the judge enters the votes, and the 2 leaders with the most votes "
            "are set aside, face down (STSA settles a tie).",
            "Vote Off ({count}): each player secretly writes down {count} leaders of the deck "
            "to vote off; the judge enters the votes, and the 2 leaders with the most votes "
            "are set aside, face down (STSA settles a tie).", vote_off).format(count=vote_off))
    elif picks:
        steps.append(_(
            "Hidden Picks ({picks}): set aside, face down, the {picks} leaders STSA removed "
            "from the leader deck.").format(picks=picks))
    steps += [
        _("The player in the last seat picks a leader secretly first; the leaders then pass "
          "counter-clockwise until every player has picked."),
        _("All players reveal their leaders together."),
    ]
    if wild_card:
        steps.append(_(
            "Wild Card choice: in play order, seat 1 first, each player keeps their leader or "
            "takes a random one of the set-aside leaders; the judge enters the choices and "
            "STSA draws the leaders."))
    steps += [
        _("Keep the first Conflict card hidden until the game starts."),
        _("Start the game: seat 1 takes the first turn; play goes clockwise."),
    ]
    return steps


# --- loading and checks -----------------------------------------------------------------------

_SETUP_COLUMNS = [
    "setup_id", "name", "base_game", *EXPANSION_FLAGS, "battle_of_wills", "expansions",
    "hidden_picks", "deck_products", "leader_deck",
]  # fmt: skip


_LIST_COLUMNS = ("expansions", "deck_products", "leader_deck")


@functools.lru_cache(maxsize=8)
def _setups(data_dir: str, battle_of_wills: bool) -> pd.DataFrame:
    """`setups` built once per catalog folder (the decks take a filter and a sort each)."""
    cat = _load(data_dir)
    frame = (
        cat.setups.assign(
            battle_of_wills=False,
            expansions=lambda d: _expansion_lists(d),
            deck_products=lambda d: [p.split(";") for p in d["deck_products"]],
        )
        .assign(leader_deck=lambda d: [_deck(ps, cat.leaders) for ps in d["deck_products"]])
        .loc[:, _SETUP_COLUMNS]
    )
    return with_battle_of_wills(frame) if battle_of_wills else frame


@functools.lru_cache(maxsize=8)
def _load(data_dir: str) -> Catalog:
    folder = Path(data_dir)
    prods = _check_products(_read(folder, "products.csv", _PRODUCT_COLUMNS))
    leads = _check_leaders(_read(folder, "leaders.csv", _LEADER_COLUMNS), prods)
    sets = _check_setups(_read(folder, "setups.csv", _SETUP_CSV_COLUMNS), prods, leads)
    cols = _read(folder, "colours.csv", ["colour"])
    _unique(cols, "colour", "colours.csv")
    if len(cols) < MAX_TABLE_SIZE:
        raise TournamentError(ngettext(
            "colours.csv lists {count} colour; a four-player table needs at least {least}.",
            "colours.csv lists {count} colours; a four-player table needs at least {least}.",
            len(cols)).format(count=len(cols), least=MAX_TABLE_SIZE))
    return Catalog(prods, leads, sets, tuple(cols["colour"]))


_PRODUCT_COLUMNS = ["product_id", "name", "full_name", "kind", "base_game"]
_LEADER_COLUMNS = ["name", "product", "default_deck", "note"]
_SETUP_CSV_COLUMNS = [
    "setup_id", "name", "base_game", *EXPANSION_FLAGS, "hidden_picks", "deck_products",
]  # fmt: skip
_MAY_BE_EMPTY = {"note", "base_game"}


def _read(folder: Path, file: str, columns: list[str]) -> pd.DataFrame:
    """Read a catalog CSV as stripped strings; every column in `columns` must be there."""
    try:
        raw = pd.read_csv(folder / file, dtype=str, keep_default_na=False, encoding="utf-8")
    except FileNotFoundError:
        raise TournamentError(_("The catalog file {file} is missing from the data "
                                "folder.").format(file=file)) from None
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise TournamentError(_("{file} cannot be read as UTF-8 CSV: {problem}").format(
            file=file, problem=exc)) from None
    missing = [c for c in columns if c not in raw.columns]
    if missing:
        raise TournamentError(_("{file} lacks the column(s) {columns}.").format(
            file=file, columns=", ".join(missing)))
    frame = raw[columns].transform(lambda col: col.str.strip())
    for column in columns:
        if column not in _MAY_BE_EMPTY:
            _refuse(frame, frame[column] == "", file,
                    _("{column} is empty").format(column=column))
    return frame


def _refuse(frame: pd.DataFrame, bad: pd.Series, file: str, problem: str, column=None) -> None:
    """Raise for the first row in `bad`, naming its CSV line (the header is line 1)."""
    if bad.any():
        first = int(bad.to_numpy().argmax())
        value = f" {frame[column].iat[first]!r}" if column else ""
        raise TournamentError(_("{file} line {line}:{value} {problem}.").format(
            file=file, line=first + 2, value=value, problem=problem))


def _unique(frame: pd.DataFrame, column: str, file: str) -> None:
    _refuse(frame, frame[column].duplicated(), file,
            _("is listed twice as {column}").format(column=column), column)


def _flag(frame: pd.DataFrame, column: str, file: str) -> pd.Series:
    low = frame[column].str.lower()
    _refuse(frame, ~low.isin(_TRUE | _FALSE), file,
            _("is not true or false ({column})").format(column=column), column)
    return low.isin(_TRUE)


def _check_products(frame: pd.DataFrame) -> pd.DataFrame:
    file = "products.csv"
    for column in ("product_id", "name"):
        _unique(frame, column, file)
    kinds = ", ".join(PRODUCT_KINDS)
    _refuse(frame, ~frame["kind"].isin(PRODUCT_KINDS), file,
            _("is not a kind ({kinds})").format(kinds=kinds), "kind")
    is_base = frame["kind"] == "base game"
    has_base = frame["base_game"] != ""
    wrong = (is_base & ~frame["base_game"].isin(BASE_GAMES)) | (~is_base & has_base)
    _refuse(frame, wrong, file,
            _("base_game must be Legacy or Uprising for a base game, else empty"))
    needed = {*EXPANSION_FLAGS.values(), BATTLE_OF_WILLS}
    absent = sorted(needed - set(frame["name"]))
    if absent or set(frame.loc[is_base, "base_game"]) != set(BASE_GAMES):
        products = ", ".join(sorted(needed))
        raise TournamentError(
            _("{file} must list both base games and {products}; missing {missing}.").format(
                file=file, products=products, missing=", ".join(absent)) if absent else
            _("{file} must list both base games and {products}.").format(
                file=file, products=products)
        )
    return frame


def _check_leaders(frame: pd.DataFrame, prods: pd.DataFrame) -> pd.DataFrame:
    file = "leaders.csv"
    _unique(frame, "name", file)
    known = ", ".join(prods["name"])
    unknown = ~frame["product"].isin(prods["name"])
    _refuse(frame, unknown, file,
            _("is not a product of products.csv ({products})").format(products=known), "product")
    return frame.assign(default_deck=_flag(frame, "default_deck", file))


def _check_setups(frame: pd.DataFrame, prods: pd.DataFrame, leads: pd.DataFrame) -> pd.DataFrame:
    file = "setups.csv"
    for column in ("setup_id", "name"):
        _unique(frame, column, file)
    ids = frame["setup_id"]
    bad_id = ~ids.str.fullmatch(_ID.pattern)
    _refuse(frame, bad_id, file, _("is not lower-case letters and digits joined by '-'"),
            "setup_id")
    # The Battle of Wills versions are made by suffixing the id (R5): keep the suffix free.
    bow_id = ids.str.endswith(BOW_SUFFIX)
    _refuse(frame, bow_id, file, _("ends in {suffix}, kept for Battle of Wills").format(
        suffix=repr(BOW_SUFFIX)), "setup_id")
    bad_base = ~frame["base_game"].isin(BASE_GAMES)
    _refuse(frame, bad_base, file, _("is not a base game (Legacy or Uprising)"), "base_game")
    picks = pd.to_numeric(frame["hidden_picks"], errors="coerce")
    bad_picks = picks.isna() | (picks < 0) | (picks % 1 != 0)
    _refuse(frame, bad_picks, file, _("is not a whole number of hidden picks"), "hidden_picks")
    decks = frame["deck_products"].str.split(";")
    known = set(prods["name"])
    strays = decks.map(lambda products: [p for p in products if p not in known])
    for setup_id, line, stray in zip(ids, range(2, len(ids) + 2), strays):
        if stray:
            raise TournamentError(
                _("{file} line {line}: the deck of {setup} names {strays}, not a product of "
                  "products.csv ({products}).").format(
                    file=file, line=line, setup=repr(setup_id), strays=", ".join(map(repr, stray)),
                    products=", ".join(sorted(known)))
            )
    checked = frame.assign(
        **{column: _flag(frame, column, file) for column in EXPANSION_FLAGS},
        hidden_picks=picks.astype("int64"),
    )
    for setup_id, products, hidden in zip(ids, decks, checked["hidden_picks"]):
        setup = _("setup {setup} ({file})").format(setup=repr(setup_id), file=file)
        validate_deck(_deck(products, leads), int(hidden), setup=setup, known=leads["name"])
    return checked


def _deck(product_names: list[str], leads: pd.DataFrame) -> list[str]:
    """The default-deck leaders of these products: by product as listed, then catalog order."""
    rank = {product: position for position, product in enumerate(product_names)}
    return (
        leads.loc[leads["product"].isin(product_names) & leads["default_deck"]]
        .assign(rank=lambda d: d["product"].map(rank))
        .sort_values("rank", kind="stable")["name"]
        .tolist()
    )


def _expansion_lists(frame: pd.DataFrame) -> list[list[str]]:
    flags = frame[list(EXPANSION_FLAGS)].to_numpy(dtype=bool)
    names = list(EXPANSION_FLAGS.values())
    return [[n for n, on in zip(names, row) if on] for row in flags]


def _setup_row(setup: str | Mapping | pd.Series) -> Mapping:
    """A setup's fields, looked up by id when given an id (or a row without the fields)."""
    setup_id: str | None
    if isinstance(setup, str):
        setup_id, given = setup, {}
    else:
        given = dict(setup)
        setup_id = given.get("setup_id")
    if {"name", "hidden_picks"} <= given.keys() and {"expansions", "rise_of_ix"} & given.keys():
        return given
    table = setups(battle_of_wills=True).set_index("setup_id")
    if setup_id not in table.index:
        raise TournamentError(_("Unknown setup {setup}.").format(setup=repr(setup_id)))
    return {**table.loc[setup_id].to_dict(), **given}
