"""``python -m tests.load SCENARIO [options]``: tests/load/__init__.py, docs/performance.md."""

from __future__ import annotations

import argparse
import sys

from tests.load import scenarios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__)
    sub = parser.add_subparsers(dest="scenario", required=True)

    def common(p: argparse.ArgumentParser, tables: int, web: int = 2, workers: int = 2,
               seconds: float = 60.0) -> None:
        p.add_argument("--tables", type=int, default=tables)
        p.add_argument("--web", type=int, default=web, help="daphne processes (K)")
        p.add_argument("--workers", type=int, default=workers, help="Celery workers (W)")
        p.add_argument("--seconds", type=float, default=seconds, help="measured time")
        p.add_argument("--broker", choices=["redis", "rabbitmq"], default="redis")
        p.add_argument("--think", default="0.5-2.0", help="think time range, seconds")
        p.add_argument("--bots", type=int, default=0, help="bot seats per table (0-3)")
        p.add_argument("--clock", type=int, default=None, choices=[15, 30, 60],
                       help="a turn clock at every table, seconds (the site's clocks)")
        p.add_argument("--channel-layer", choices=["pubsub", "redis"], default="pubsub",
                       help="channels-redis' core layer or its pub/sub layer")
        p.add_argument("--sweep", type=float, default=None,
                       help="beat sweep period, seconds (default: the site's)")
        p.add_argument("--heartbeat", type=float, default=10.0,
                       help="presence heartbeat seconds (entries expire after 3)")
        p.add_argument("--probes", action="store_true",
                       help="probes in the web processes: where a move waits, and the "
                            "loop's stalls (tests/load/probes.py; they cost those "
                            "processes a fifth of their CPU, so the figures are taken "
                            "without them)")

    def staggered(p: argparse.ArgumentParser) -> None:
        p.add_argument("--stagger", type=float, default=0.0,
                       help="the tables begin spread over this many seconds (measured "
                            "from the last one); 0: all deal at once, so their games end "
                            "together")

    pl = sub.add_parser("play", help="N tables at human pace: round trip vs the floor")
    common(pl, 100)
    staggered(pl)
    cap = sub.add_parser("capacity", help="ramp the pace until p99 crosses 100 ms")
    common(cap, 60, web=1, seconds=20.0)
    cap.add_argument("--steps", default="8,4,2,1,0.5,0.25,0.12,0.06,0.03,0",
                     help="think times (s) of the ramp's steps")
    cap.add_argument("--limit-ms", type=float, default=100.0)
    flt = sub.add_parser("faults", help="SIGKILL processes under load and check nothing is lost")
    common(flt, 50, seconds=0.0)
    flt.add_argument("--kill", default="web,worker,beat,redis",
                     help="comma list of web, worker, beat, redis, postgres")
    flt.add_argument("--repeat", type=int, default=3, help="faults of each kind")
    flt.add_argument("--gap", type=float, default=25.0, help="mean seconds between faults")
    flt.set_defaults(bots=2)
    fz = sub.add_parser("fuzz", help="hostile frames from many sockets beside live games")
    common(fz, 20, seconds=0.0)
    fz.add_argument("--frames", type=int, default=100_000)
    fz.add_argument("--sockets", type=int, default=120)
    fz.add_argument("--rate", type=float, default=6.0, help="frames/s per fuzzing socket")
    staggered(fz)
    dr = sub.add_parser("drop", help="open many sockets, drop them without a close")
    common(dr, 10, seconds=0.0)
    dr.add_argument("--sockets", type=int, default=1000)
    dr.set_defaults(heartbeat=2.0)  # entries expire after 6 s: the drop is seen sooner
    sm = sub.add_parser("smoke", help="the CI version: a few tables, one fault, some fuzz")
    common(sm, 4, seconds=20.0)
    sm.set_defaults(bots=2)
    sm.add_argument("--frames", type=int, default=3000)
    args = parser.parse_args(argv)
    return scenarios.run(args)


if __name__ == "__main__":
    sys.exit(main())
