"""Whole-tournament work with Python's cycle collector held back (`stsa.services.bulk`): the
collector is back on afterwards, also when the work fails, and one that was off stays off."""

import gc

import pytest

from stsa.services import bulk


def test_the_collector_waits_for_the_work_and_comes_back_on():
    assert gc.isenabled()
    with bulk.collector_paused():
        assert not gc.isenabled()
        with bulk.collector_paused():  # work inside work leaves it to the outer one
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), bulk.collector_paused():
        raise ValueError("a refused workbook")
    assert gc.isenabled()


def test_a_collector_turned_off_elsewhere_stays_off():
    gc.disable()
    try:
        with bulk.collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
