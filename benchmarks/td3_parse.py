"""Time reading TD3 save files: a league's events parsed and modelled, beside ``json.loads``.

    python benchmarks/td3_parse.py --folder FOLDER [--repeats 3] [--standings]

``--folder`` (or ``TDM_TD3_FILES``) names a folder of real TD3 save files. Every ``orf/*.tdt``
of it (a league's events as TD3 3.7 saves them, about 200 KB each)
is read into memory first; then, ``--repeats`` times, each is parsed (``reader.load``) and
modelled (``model.event_of``, its places, hits and winnings). Printed: the best wall time and
its CPU time for all files, the same for parsing alone, and the baseline measured in the same
run: ``json.loads`` of JSON text of the same trees (constructor calls as ``{"__type__": …}``),
the C parser of a simpler language, as the floor of what reading this much text costs. The
bar: all files parsed and modelled well under 5 s (taken as under 2.5 s of CPU time, the
figure a busy machine does not inflate; the load average is printed beside the wall time).

Then the checks a person can read: for each event, the places from the last bust-outs against
the places TD3 paid (its prizes' recipients), and with ``--standings`` each season's standings
from the events' points formulas (plus the players' points adjustments), for comparison with
TD3's own statistics. No database needed.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.imports.td3 import formula, model, reader  # noqa: E402
from tournaments.imports.td3.reader import Obj  # noqa: E402

BAR_SECONDS = 2.5


def as_json(value):
    """The parsed tree as JSON can hold it: constructor calls as objects with ``__type__``."""
    if isinstance(value, Obj):
        return {"__type__": value.kind, "fields": as_json(value.fields)}
    if isinstance(value, dict):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    return value


def best(run, repeats: int) -> tuple[float, float]:
    """The best (wall, CPU) seconds of ``repeats`` runs."""
    results = []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        results.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, default=Path(os.environ["TDM_TD3_FILES"]) if os.environ.get("TDM_TD3_FILES") else None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--standings", action="store_true", help="print each season's standings from the points formulas")
    args = parser.parse_args()

    paths = sorted((args.folder / "orf").glob("*.tdt")) if args.folder else []
    if not paths:
        print(f"no TD3 files in {args.folder / 'orf'}")
        return 1
    data = [path.read_bytes() for path in paths]
    megabytes = sum(len(d) for d in data) / 1e6
    print(f"{len(paths)} files, {megabytes:.1f} MB")

    def parse_all():
        # Each tree let go once read, as an import does: millions of live objects would make
        # the garbage collector's passes, not the reading, the figure.
        for d in data:
            reader.load(d)

    def parse_and_model():
        events = []
        for d in data:
            event = model.event_of(reader.load(d))
            event.places(), event.hits(), event.winnings()
            events.append(event)  # the events are small: the trees they come from are let go
        return events

    texts = [json.dumps(as_json(reader.load(d))) for d in data]
    json_wall, json_cpu = best(lambda: [json.loads(text) and None for text in texts], args.repeats)
    parse_wall, parse_cpu = best(parse_all, args.repeats)
    total_wall, total_cpu = best(parse_and_model, args.repeats)
    print(f"parse + model    {total_wall:6.2f} s wall  {total_cpu:6.2f} s CPU  ({total_wall / len(paths) * 1000:5.1f} ms a file)")
    print(f"parse alone      {parse_wall:6.2f} s wall  {parse_cpu:6.2f} s CPU")
    print(f"json.loads       {json_wall:6.2f} s wall  {json_cpu:6.2f} s CPU  (same trees as JSON, {sum(map(len, texts)) / 1e6:.1f} MB)")
    print(f"ratio to json    {parse_cpu / json_cpu:6.1f} x (parse CPU); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"bar: parse + model under {BAR_SECONDS} s of CPU: {'met' if total_cpu < BAR_SECONDS else 'MISSED'}")

    events = parse_and_model()
    agree = 0
    for path, event in zip(paths, events):
        places = event.places()
        paid = [(prize.place, player) for prize in event.prizes if prize.place for player in prize.awarded_to]
        wrong = [(place, player, places.get(player)) for place, player in paid if places.get(player) != place]
        agree += not wrong
        verdict = "no prize awarded" if not paid else "places as TD3 paid" if not wrong else f"DIFFERENT {wrong}"
        print(f"  {path.name}: {event.state:8} {len(event.entrants()):2} players, {len(paid)} paid: {verdict}")
    print(f"places from the last bust-outs equal TD3's paid places in {agree} of {len(events)} events")

    if args.standings:
        seasons = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
        names = {}
        for event in events:
            if event.state != model.FINISHED:
                continue
            for player in event.entrants():
                row = seasons[event.season_name][player.uuid]
                names[player.uuid] = player.name
                row["events"] += 1
                row["points"] += float(formula.points(event.points_formula, formula.variables_for(event, player)))
                row["adjusted"] += float(player.points_adjustment)
                row["hits"] += float(event.hits()[player.uuid])
                row["wins"] += event.places()[player.uuid] == 1
        for season, rows in sorted(seasons.items()):
            print(f"\nseason {season}: events, hits, wins, formula points, adjustments, total")
            ranked = sorted(rows.items(), key=lambda item: -(item[1]["points"] + item[1]["adjusted"]))
            for rank, (uuid, row) in enumerate(ranked, 1):
                print(
                    f"  {rank:2} {names[uuid]:16} {row['events']:3} {row['hits']:6.2f} {row['wins']:2} "
                    f"{row['points']:8.0f} {row['adjusted']:6.0f} {row['points'] + row['adjusted']:8.0f}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
