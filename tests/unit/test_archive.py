"""Published results (README, "Publishing results"): the zip of a finished tournament holds
its pages, the data feed's own answers as JSON and CSV, and the charts; every link stays
inside it; nothing in it names a player but by nickname (R20, R22), and every typed text is
HTML-escaped on the pages."""

from __future__ import annotations

import io
import json
import posixpath
import re
import zipfile

import pytest

from stsa import store
from stsa.formats import archive as pages
from stsa.services import archive
from stsa.services import feed as shape
from stsa.ui import data, session
from tests.support import feed_routes
from tests.support.finished import (
    MARKUP,
    ORGANIZER,
    SECRETS,
    forget,
    publish_finished,
    up_to_the_final,
)

# each test reads one whole tournament, played and published (a few seconds, once per module)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """A finished tournament published once: (key, the Archive, its files by path inside
    the folder, the progress reported)."""
    with pytest.MonkeyPatch.context() as patch:
        try:
            key, made = publish_finished(tmp_path_factory.mktemp("published"), patch)
            told: list[tuple[float, str]] = []
            engine = session.installation()
            again = archive.publish(data.public(store.db.tournament_id(engine)), key,
                                    progress=lambda f, words: told.append((f, words)))
            assert again.files == made.files
            bundle = zipfile.ZipFile(io.BytesIO(made.content))
            files = {name.removeprefix(f"{made.folder}/"): bundle.read(name)
                     for name in bundle.namelist()}
            yield key, made, files, told
        finally:
            forget()


def _html(files: dict[str, bytes]) -> dict[str, str]:
    return {p: b.decode() for p, b in files.items() if p.endswith(".html")}


def test_the_zip_holds_the_pages_data_and_charts(published):
    key, made, files, told = published
    assert made.folder == f"{key}-results"
    refs = ["qualifier-1", "qualifier-2", "semifinal-1", "final-1"]
    expected = {"index.html", "standings.html", "finals.html", "charts.html",
                *(f"sittings/{r}.html" for r in refs),
                *(f"data/{f}" for f in ("tournament.json", "schedule.json", "sittings.json",
                                        "standings.json", "standings.csv", "finals.json")),
                *(f"data/sittings/{r}{f}" for r in refs
                  for f in (".json", "/results.json", "/results.csv")),
                *(f"charts/{c}.svg" for c in ("best-scores", "sittings", "leaders", "seats",
                                              "setups"))}
    assert set(files) == expected == set(made.files)
    assert all(f.startswith(f"{made.folder}/") for f in
               zipfile.ZipFile(io.BytesIO(made.content)).namelist())
    assert all(files[f].lstrip().startswith(b"<svg") for f in expected if f.endswith(".svg"))
    fractions = [f for f, _ in told]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(fractions) >= 4


def test_every_link_is_relative_and_found_in_the_zip(published):
    _, _, files, _ = published
    found = 0
    for path, page in _html(files).items():
        for target in re.findall(r'(?:href|src)="([^"]*)"', page):
            found += 1
            assert not re.match(r"^([a-z][a-z0-9+.-]*:|/)", target, re.I), (path, target)
            where, _, anchor = target.partition("#")
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), where))
            assert resolved in files, (path, target)
            if anchor:
                assert f'id="{anchor}"' in files[resolved].decode(), (path, target)
    assert found > 40


def test_the_pages_load_nothing_from_anywhere(published):
    """No scripts, style sheets, fonts or images from elsewhere: the style is inline."""
    _, _, files, _ = published
    for path, page in _html(files).items():
        assert not re.search(r"<script|<link|<iframe|@import|url\(|@font-face", page, re.I), path
        assert page.count("<style>") == 1, path


def test_nothing_in_it_names_a_player_but_by_nickname(published):
    """The roster's real names, clubs and e-mails differ from the nicknames: none of them is
    in any file of the zip."""
    _, _, files, _ = published
    every = b"\n".join(files.values())
    for secret in SECRETS:
        assert secret.encode() not in every, secret
    assert b"Nick B" in every and b"Nick L" in every


def test_typed_text_is_escaped_on_every_page(published):
    """A nickname `<b>x</b>` and a tournament called "Spring <Open> & Co" show as text."""
    _, _, files, _ = published
    shown = _html(files)
    for path, page in shown.items():
        assert MARKUP not in page and "<Open>" not in page, path
        assert "Spring &lt;Open&gt; &amp; Co" in page, path
    for path in ("standings.html", "sittings/qualifier-1.html", "sittings/qualifier-2.html"):
        assert "&lt;b&gt;x&lt;/b&gt;" in shown[path], path
    assert json.loads(files["data/tournament.json"])["name"] == "Spring <Open> & Co"


def _feed(path: str, **params) -> bytes:
    """The data feed's own answer at `path` (its route, in this process)."""
    answer = feed_routes.answer(path, **params)
    assert answer.status_code == 200, (path, answer.body)
    return bytes(answer.body)


def test_the_data_is_what_the_feed_gives(published):
    """Each JSON file equals the feed's answer (its shaping and allow-list), each CSV the
    feed's CSV byte for byte."""
    key, _, files, _ = published
    t = f"{shape.PREFIX}/tournaments/{{key}}"
    s = f"{t}/sittings/{{ref}}"
    for name, route in (("tournament", t), ("schedule", f"{t}/schedule"),
                        ("sittings", f"{t}/sittings"), ("standings", f"{t}/standings"),
                        ("finals", f"{t}/finals")):
        given = json.loads(files[f"data/{name}.json"])
        assert given == json.loads(_feed(route, key=key)), name
        shape.check(name, given)
    assert files["data/standings.csv"] == _feed(f"{t}/standings.csv", key=key)
    refs = [r["sitting"] for r in json.loads(files["data/sittings.json"])["sittings"]]
    assert refs == ["qualifier-1", "qualifier-2", "semifinal-1", "final-1"]
    for ref in refs:
        assert json.loads(files[f"data/sittings/{ref}.json"]) == json.loads(
            _feed(s, key=key, ref=ref)), ref
        assert json.loads(files[f"data/sittings/{ref}/results.json"]) == json.loads(
            _feed(f"{s}/results", key=key, ref=ref)), ref
        assert files[f"data/sittings/{ref}/results.csv"] == _feed(f"{s}/results.csv",
                                                                  key=key, ref=ref), ref


def test_a_sitting_page_shows_its_tables_and_results(published):
    _, _, files, _ = published
    sitting = json.loads(files["data/sittings/qualifier-1.json"])
    page = files["sittings/qualifier-1.html"].decode()
    first = sitting["tables"][0]
    assert f"<h2>Table {first['table']}</h2>" in page and f"Setup: {first['setup']}" in page
    for seat in first["seats"]:
        assert pages.text(seat["player"]) in page and seat["colour"] in page
    assert page.count("<h2>Table ") == len(sitting["tables"])
    assert "<h2>Results</h2>" in page and "First player" in page


def test_the_standings_page_shows_final_then_qualifier_standings(published):
    _, _, files, _ = published
    page = files["standings.html"].decode()
    assert page.index("Final standings") < page.index("Qualifier standings")
    champion = json.loads(files["data/tournament.json"])["podium"][0]
    assert champion["place"] == "champion"
    assert f"<td>{pages.text(champion['player'])}</td><td>Champion</td>" in page


def test_an_unfinished_tournament_is_not_published(tmp_path, monkeypatch):
    monkeypatch.setenv("STSA_DATABASE_URL", f"sqlite:///{tmp_path / 'stsa.db'}")
    monkeypatch.setenv("STSA_BACKUP_DIR", str(tmp_path / "backups"))
    forget()
    try:
        engine = session.installation()
        up_to_the_final(engine)
        reads = data.public(store.db.tournament_id(engine))
        told: list = []
        with pytest.raises(archive.NotFinished, match="the final's result is not in yet"):
            archive.publish(reads, "x", progress=lambda f, w: told.append(f))
        assert told == []
    finally:
        forget()


def test_the_archive_speaks_the_tournaments_language(published):
    """A Swedish tournament's zip: its pages say lang="sv" and speak Swedish, its JSON is
    the feed's own (Swedish) answer with the same fields; what the organizer is told while
    it works stays in the page's language."""
    key, english, _, _ = published
    engine = session.installation()
    store.set_settings(engine, {"language": "sv"}, actor=ORGANIZER)
    try:
        told: list[str] = []
        made = archive.publish(data.public(store.db.tournament_id(engine)), key,
                               progress=lambda f, words: told.append(words))
        bundle = zipfile.ZipFile(io.BytesIO(made.content))
        files = {n.removeprefix(f"{made.folder}/"): bundle.read(n) for n in bundle.namelist()}
        assert made.files == english.files
        index, sitting = (files[p].decode() for p in ("index.html", "sittings/qualifier-1.html"))
        assert '<html lang="sv">' in index and "Kvalomgång 1" in index and "Översikt" in index
        assert "<th>Startspelare</th>" in sitting and "<h2>Resultat</h2>" in sitting
        assert "Qualifier 1" not in index and "Overview" not in index
        given = json.loads(files["data/tournament.json"])
        assert given == json.loads(_feed(f"{shape.PREFIX}/tournaments/{{key}}", key=key))
        assert told[-1] == "Done."
    finally:
        store.set_settings(engine, {"language": None}, actor=ORGANIZER)
