"""The load harness's disk probe (tests/load/measure.py): it times real
flushes on a thread of its own and reports a window's flushes and stalls."""

from __future__ import annotations

import os
import time

import pytest

from tests.load.measure import DiskSyncProbe
from tests.waiting import wait_for


def test_the_probe_times_real_flushes_until_stopped_and_leaves_no_file(tmp_path):
    probe = DiskSyncProbe(tmp_path)
    began = time.monotonic()
    probe.start()
    try:
        wait_for(lambda: len(probe.samples) >= 3, 10, "three flushes")
    finally:
        probe.stop()
    taken = len(probe.samples)
    report = probe.report(began)
    assert report["n"] == taken >= 3 and report["max"] > 0
    assert not probe.path.exists()
    assert len(probe.samples) == taken  # stopped: no flush after


def test_a_window_counts_only_its_own_flushes_and_lists_its_stalls(tmp_path):
    probe = DiskSyncProbe(tmp_path)
    probe.samples = [(10.0, 0.002), (11.0, 0.6), (12.5, 0.004), (20.0, 0.9)]
    report = probe.report(10.5, 13.0)
    assert report["n"] == 2 and report["max"] == 600.0
    assert report["stalls"] == [(0.5, 600)]  # 0.5 s into the window, 600 ms
    assert probe.report(0.0)["stalls"] == [(11.0, 600), (20.0, 900)]
    assert probe.stall_spans(10.5, 30.0) == [(11.0, 11.6), (20.0, 20.9)]
    assert probe.stall_spans(10.5, 13.0) == [(11.0, 11.6)]


def test_a_window_reports_what_the_whole_disk_wrote_in_it(tmp_path):
    probe = DiskSyncProbe(tmp_path)
    mib = 2**20
    probe.written = [(10.0, 0), (11.0, 1 * mib), (12.0, 3 * mib), (20.0, 10 * mib)]
    assert probe.report(10.5, 13.0)["written_mib"] == 2.0
    assert probe.report(0.0)["written_mib"] == 10.0
    assert probe.written_mib(11.5, 13.0) is None  # one reading tells nothing


def test_the_probe_sees_a_file_made_durable_beside_it(tmp_path):
    probe = DiskSyncProbe(tmp_path)
    probe.start()
    try:
        wait_for(lambda: len(probe.samples) >= 2, 10, "two flushes")
        if not probe.written:
            pytest.skip("/proc/diskstats does not list this directory's disk")
        began = probe.written[-1][0]
        with open(tmp_path / "eight-mib.bin", "wb") as made:
            made.write(os.urandom(8 * 2**20))
            made.flush()
            os.fsync(made.fileno())
        after = time.monotonic()
        wait_for(lambda: probe.written[-1][0] > after, 10, "a reading after the fsync")
    finally:
        probe.stop()
    assert probe.written_mib(began) >= 8.0
