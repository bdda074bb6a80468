"""Every setting lives in one place (stsa.settings): a label, words for its values, a check, a
widget on its page (or where else it is set), and a sentence in the log when it changes; and the
typed `Settings` value reads every setting, frozen."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from stsa import settings as registry
from stsa.domain import TournamentError
from stsa.services import log
from stsa.settings import REGISTRY, Settings

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = sorted(REGISTRY)


class Places:
    """What the log's sentences look names up in (none needed for these)."""

    def setup(self, setup_id):
        return f"setup {setup_id}"


@pytest.mark.parametrize("key", SETTINGS)
def test_every_setting_has_a_label_words_and_a_check(key):
    setting = REGISTRY[key]
    assert setting.label and setting.label != key
    assert setting.words(setting.default) not in ("", "None")
    assert setting.check(setting.default) == setting.default, "the default passes its check"
    with pytest.raises(TournamentError):
        setting.check(object())


@pytest.mark.parametrize("key", SETTINGS)
def test_every_setting_is_set_somewhere(key):
    setting = REGISTRY[key]
    if setting.widget is None:
        assert setting.set_by, f"{key}: no widget, so say where it is set"
        return
    page, widget = setting.widget
    assert f'key="{widget}' in (ROOT / page).read_text() or \
        f"key=f\"{widget}" in (ROOT / page).read_text(), f"{key}: no widget {widget} on {page}"


@pytest.mark.parametrize("key", SETTINGS)
def test_every_setting_change_has_a_sentence_in_the_log(key):
    setting = REGISTRY[key]
    sentence = log.sentence("settings.change", "settings", {key: setting.default},
                            {key: setting.default}, Places())
    assert setting.label in sentence and "{" not in sentence


def test_settings_are_one_typed_frozen_value_that_still_reads_as_a_mapping():
    values = Settings.of({"capacity": 24, "colours": ["a", "b", "c", "d"],
                          "unknown_old_key": 1, "battle_of_wills": True})
    assert values.capacity == 24 and values.colours == ("a", "b", "c", "d")
    assert values.battle_of_wills == "both", "an old on/off reads as the stages"
    assert values["colours"] == ["a", "b", "c", "d"] and dict(values) == values.as_dict()
    assert set(values) == set(REGISTRY) == {f.name for f in dataclasses.fields(Settings)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        values.capacity = 8  # type: ignore[misc]
    with pytest.raises(TypeError):
        values.hidden_picks["Legacy"] = 1  # type: ignore[index]


def test_a_bad_value_is_named_by_its_setting():
    with pytest.raises(TournamentError, match="capacity cannot be 5"):
        registry.check("capacity", 5)
    with pytest.raises(TournamentError, match="'seats' is not a setting"):
        registry.check("seats", 5)
