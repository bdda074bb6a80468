"""Publish results on the Data page (organizer only): once the final is in, one zip of the
finished tournament's pages, data and charts, named by the tournament; before that, why not
yet; judges and spectators never reach it (R20)."""

import io
import re
import zipfile

import pytest

from stsa import store
from tests.app.conftest import JUDGE, ORGANIZER
from tests.support.finished import SECRETS, finished, up_to_the_final

PAGE = "views/data.py"


def test_the_organizer_publishes_a_finished_tournament(open_page, engine, downloads):
    finished(engine)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert "data_archive_zip" not in downloads  # made only when asked for
    at.button(key="data_publish").click().run()
    assert not at.exception and not at.error
    name, content = downloads["data_archive_zip"]
    assert re.fullmatch(r"spring-open-co-results-\d{4}-\d\d-\d\d-\d{4}\.zip", name)
    bundle = zipfile.ZipFile(io.BytesIO(content))
    key = store.tournaments(engine)["key"].iloc[0]
    files = set(bundle.namelist())
    assert {f"{key}-results/index.html", f"{key}-results/standings.html",
            f"{key}-results/sittings/final-1.html"} <= files
    every = b"".join(bundle.read(f) for f in files)
    assert not [s for s in SECRETS if s.encode() in every]


def test_an_unfinished_tournament_says_why_it_cannot_be_published_yet(open_page, engine,
                                                                      downloads):
    up_to_the_final(engine)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert any("the final's result is not in yet" in i.value for i in at.info)
    assert "data_publish" not in [b.key for b in at.button]
    assert "data_archive_zip" not in downloads


def test_a_save_after_publishing_asks_for_a_new_zip(open_page, engine, downloads):
    finished(engine)
    at = open_page(PAGE, as_=ORGANIZER)
    at.button(key="data_publish").click().run()
    assert "data_archive_zip" in downloads
    downloads.clear()
    store.set_settings(engine, {"venue": "Sietch Tabr"}, actor=ORGANIZER)
    at.run()
    assert not at.exception and "data_archive_zip" not in downloads


@pytest.mark.parametrize("who", [None, JUDGE])
def test_judges_and_spectators_cannot_publish(open_page, engine, downloads, who):
    finished(engine)
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert any("The Data page is for the organizer only" in i.value for i in at.info)
    assert "data_publish" not in [b.key for b in at.button] and not downloads


def test_the_zip_folder_is_the_key_of_the_name_given_before_anything_was_public(
        open_page, engine, downloads):
    """Issue 33: `finished` renames the tournament before anything is public, so its key, and
    with it the zip's folder, is the new name's."""
    finished(engine)
    assert store.tournaments(engine)["key"].tolist() == ["spring-open-co"]
    at = open_page(PAGE, as_=ORGANIZER)
    at.button(key="data_publish").click().run()
    assert not at.exception and not at.error
    files = zipfile.ZipFile(io.BytesIO(downloads["data_archive_zip"][1])).namelist()
    assert "spring-open-co-results/index.html" in files
