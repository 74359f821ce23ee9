"""Time a league's history moving in from The Tournament Director: its save files previewed and imported.

    python benchmarks/td3_import.py --folder FOLDER            # a fresh SQLite database
    python benchmarks/td3_import.py --folder FOLDER --database postgres://postgres@127.0.0.1:5432/tdm_td3

``--folder`` (or ``TDM_TD3_FILES``) names a folder of real TD3 save files: every ``orf/*.tdt``
of it (a league's seasons, one event a file) is read into memory and zipped (stored) as the
page and the command send them. On a fresh database (a temporary SQLite file, or ``--database``
dropped and created anew), in this process, as the command runs them:

- the baseline, measured in the same run: every file parsed and modelled alone
  (``reader.load``, ``model.event_of`` with its places, hits and winnings), what any import of
  these files must spend before comparing or writing anything;
- the preview (``imports.services.preview``): the files read, every player and event compared
  with what is stored, nothing written;
- the import (``imports.services.run_import``): people, tournaments, structures, entries, busts,
  knockouts, prizes and the league's points in one transaction;
- the same files again: every event found in already, nothing written.

Printed: the files, events, players, entries; the wall and CPU time of each step beside the
baseline; the bar (preview and import together well under 30 s, taken as under 15 s of wall
time). Then the checks: each played event's places as stored here against the places TD3 paid
(its prizes' recipients), its prize money stored against TD3's awarded prizes, and the
database unchanged by the second import. Exit status 1 when a check fails or the bar is missed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

BAR_SECONDS = 15.0


def timed(run):
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, default=Path(os.environ["TDM_TD3_FILES"]) if os.environ.get("TDM_TD3_FILES") else None)
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (dropped and created anew); default: a temporary SQLite file")
    args = parser.parse_args()
    paths = sorted((args.folder / "orf").glob("*.tdt")) if args.folder else []
    if not paths:
        print(f"no TD3 files in {args.folder / 'orf' if args.folder else '(no folder: --folder or TDM_TD3_FILES)'}")
        return 0

    import common

    common.prepare_database(args.database or "sqlite", "tdm_td3")  # Django set up, the database migrated

    from payouts.models import PrizePayment
    from seating.models import Bust
    from tournaments.eventlog.services import Actor
    from tournaments.imports import services as imports
    from tournaments.imports.td3 import files, model, reader
    from tournaments.models import Entry, Person, Td3Event, Td3Player

    loaded = [(path.name, path.read_bytes()) for path in paths]
    data = files.bundle(loaded)
    print(f"{len(paths)} files, {sum(len(d) for _n, d in loaded) / 1e6:.1f} MB, database {'PostgreSQL' if args.database else 'SQLite'}")

    def baseline():
        out = []
        for _name, d in loaded:
            event = model.event_of(reader.load(d))
            event.places(), event.hits(), event.winnings()
            out.append(event)
        return out

    events, base_wall, base_cpu = timed(baseline)
    preview, preview_wall, preview_cpu = timed(lambda: imports.preview("td3", data, "orf.zip"))
    actor = Actor(None, "benchmark")
    _done, import_wall, import_cpu = timed(lambda: imports.run_import("td3", data, "orf.zip", actor=actor, accept_duplicates=True))

    def counts():
        return (
            Person.objects.count(),
            Entry.objects.count(),
            Bust.objects.count(),
            PrizePayment.objects.count(),
            sorted(Td3Event.objects.values_list("key", "digest")),
        )

    before = counts()
    again, again_wall, again_cpu = timed(lambda: imports.run_import("td3", data, "orf.zip", actor=actor, accept_duplicates=True))
    unchanged = counts() == before and all(f["status"] == "unchanged" for f in again.files)
    players = len({p.uuid for e in events for p in e.players})
    print(f"{len(preview.files)} events, {players} TD3 players, {Person.objects.count()} people, {Entry.objects.count()} entries, {Bust.objects.count()} busts")
    for label, wall, cpu in (
        ("baseline: parse + model", base_wall, base_cpu),
        ("preview", preview_wall, preview_cpu),
        ("import", import_wall, import_cpu),
        ("same files again", again_wall, again_cpu),
    ):
        print(f"{label:26} {wall:6.2f} s wall  {cpu:6.2f} s CPU  ({wall / len(paths) * 1000:6.1f} ms a file, {wall / base_wall:4.1f} x the baseline)")
    total = preview_wall + import_wall
    print(f"bar: preview + import {total:.2f} s, under {BAR_SECONDS} s: {'met' if total < BAR_SECONDS else 'MISSED'}; load average {os.getloadavg()[0]:.1f}")
    print(f"the same files again change nothing: {'yes' if unchanged else 'NO'}")

    by_uuid = dict(Td3Player.objects.values_list("uuid", "person_id"))
    agree = played = 0
    wrong_money = []
    for event_row in Td3Event.objects.select_related("tournament").order_by("tournament__start_at"):
        name = event_row.filename
        event = next(e for (n, _d), e in zip(loaded, events, strict=True) if n == name)
        if event.state != model.FINISHED:
            print(f"  {name}: planned, {event_row.tournament.entries.count()} players registered")
            continue
        played += 1
        placed = dict(event_row.tournament.entries.filter(place__isnull=False).values_list("person_id", "place"))
        shared = {}
        for place in placed.values():
            shared[place] = shared.get(place, 0) + 1
        paid = [(prize.place, uuid) for prize in event.prizes if prize.place for uuid in prize.awarded_to]
        wrong = [(p, u) for p, u in paid if not (placed.get(by_uuid[u], 0) <= p < placed.get(by_uuid[u], 0) + shared.get(placed.get(by_uuid[u]), 1))]
        money_here = sum(PrizePayment.objects.filter(tournament=event_row.tournament).values_list("amount", flat=True), Decimal(0))
        money_td3 = sum((prize.amount for prize in event.prizes if prize.awarded_to), Decimal(0)).quantize(Decimal("0.01"))
        if money_here != money_td3:
            wrong_money.append((name, money_here, money_td3))
        agree += not wrong
        verdict = "no prize awarded" if not paid else "places as TD3 paid" if not wrong else f"DIFFERENT {wrong}"
        print(f"  {name}: {len(placed):2} placed, {len(paid)} paid, {money_here} paid here, {money_td3} by TD3: {verdict}")
    print(f"places as TD3 paid in {agree} of {played} played events; prize money as TD3's in {played - len(wrong_money)} of {played}")
    return 0 if agree == played and not wrong_money and unchanged and total < BAR_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
