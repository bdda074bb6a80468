"""The published results opened from disk in Chromium (README, "Publishing results"): the
zip unpacked to a folder, index.html opened as a file, a sitting page and the standings
reached by their links, the charts drawn; no request leaves the file system."""

from __future__ import annotations

import io
import zipfile

import pytest

from tests.e2e.conftest import DESKTOP, new_page
from tests.support.finished import forget, publish_finished


@pytest.fixture
def unpacked(tmp_path):
    """The finished tournament's published zip, unpacked: its index.html."""
    with pytest.MonkeyPatch.context() as patch:
        try:
            _, made = publish_finished(tmp_path, patch)
        finally:
            forget()
    zipfile.ZipFile(io.BytesIO(made.content)).extractall(tmp_path / "site")
    return tmp_path / "site" / made.folder / "index.html"


def test_the_archive_opens_from_disk_with_no_request_leaving_it(browser, unpacked):
    page = new_page(browser, DESKTOP)
    asked: list[str] = []
    failed: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("requestfailed", lambda request: failed.append(request.url))
    try:
        page.goto(unpacked.as_uri())
        page.get_by_role("heading", name="Spring <Open> & Co").wait_for()
        page.get_by_role("link", name="Qualifier 2").click()
        page.wait_for_url("**/sittings/qualifier-2.html")
        page.get_by_role("heading", name="Table 1").wait_for()
        # the nickname `<b>x</b>` is text in its seat and its result, never markup
        assert page.get_by_role("cell", name="<b>x</b>", exact=True).count() == 2
        assert page.locator("main b").count() == 0
        page.get_by_role("link", name="Standings").first.click()
        page.wait_for_url("**/standings.html")
        page.get_by_role("heading", name="Final standings").wait_for()
        assert page.get_by_role("cell", name="Champion").count() == 1
        page.get_by_role("link", name="Charts").first.click()
        page.wait_for_url("**/charts.html")
        images = page.locator("img")
        assert images.count() == 5
        drawn = images.evaluate_all("all => all.map(i => i.complete && i.naturalWidth > 0)")
        assert drawn == [True] * 5
    finally:
        page.context.close()
    assert len(asked) >= 9 and not failed
    assert [u for u in asked if not u.startswith("file://")] == []
