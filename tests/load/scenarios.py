"""The scenarios of ``python -m tests.load``; each returns its figures and a verdict."""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tests.load import fixtures, probes
from tests.load.clients import Pacing
from tests.load.layout import OUT, Layout, say
from tests.load.measure import (
    cpu_times,
    latency_targets,
    load_average,
    print_table,
    steal_percent,
    write_json,
)
from tests.load.runner import Run


def _pacing(text: str, stagger: float = 0.0) -> Pacing:
    low, _, high = text.partition("-")
    return Pacing(float(low), float(high or low), stagger)


def run(args: argparse.Namespace) -> int:
    """Start the layout, play the scenario, print and write its figures, clean up."""
    layout = Layout(web=args.web, workers=args.workers, broker=args.broker,
                    heartbeat=args.heartbeat, sweep_seconds=args.sweep,
                    own_pg="postgres" in getattr(args, "kill", ""))
    layout.extra_env["KOZEL_CHANNEL_LAYER"] = args.channel_layer
    layout.extra_env[probes.ENABLED] = "1" if args.probes else "0"
    layout.logs = OUT / f"logs-{args.scenario}-{args.broker}-web{args.web}"
    layout.db_name = f"kozel_load_{args.scenario}_{args.broker}"  # kept, for a look
    scenario = {"play": play, "capacity": capacity, "faults": faults, "fuzz": fuzz_scenario,
                "drop": drop_scenario, "smoke": smoke}[args.scenario]
    started = time.time()
    load_before = load_average()
    cpu_before = cpu_times()
    try:
        layout.start_services()
        fixtures.setup_django(layout.env())
        layout.start_site()
        result = asyncio.run(scenario(args, layout))
    finally:
        layout.stop()
    result = {"scenario": args.scenario, "args": vars(args), "load_1min_before": load_before,
              "load_1min_after": load_average(),
              "cpu_steal_percent": steal_percent(cpu_before, cpu_times()),
              "wall_s": round(time.time() - started, 1), **result}
    path = write_json(args.scenario, result, OUT)
    _print(result)
    failures = result.get("failures", [])
    print(f"\n[load] written {path}")
    if failures:
        print("[load] FAILED: " + "; ".join(failures))
        return 1
    print("[load] OK")
    return 0


def _print(result: dict[str, Any]) -> None:
    rows = []
    for key, value in result.items():
        if key in ("args", "processes", "server_log_errors", "moves", "steps", "faults",
                   "web_probes"):
            continue
        rows.append((key, value))
    print_table(f"{result['scenario']} (load {result['load_1min_before']} → "
                f"{result['load_1min_after']})", rows)
    for key in ("moves", "steps", "faults", "processes", "server_log_errors", "web_probes"):
        if key in result:
            value = result[key]
            if isinstance(value, list):
                print_table(key, [(str(i), v) for i, v in enumerate(value)])
            else:
                print_table(key, list(value.items()))


def correctness(res: dict[str, Any]) -> list[str]:
    """What must hold after every run with live games."""
    failures = []
    moves = res.get("moves", {})
    if moves.get("problem_count"):
        failures.append(f"{moves['problem_count']} move-log problems: {moves['problems'][:3]}")
    verify = res.get("verify_games", {})
    if verify.get("anomaly_count"):
        failures.append(f"verify_games: {verify['anomaly_count']} anomalies "
                        f"{verify['anomalies'][:3]}")
    if res.get("not_moving_at_end"):
        failures.append(f"tables not moving at the end: {res['not_moving_at_end'][:10]}")
    return failures


async def _standard(args: argparse.Namespace, layout: Layout, label: str = "load",
                    bots: int | None = None,
                    before_play: Callable[[Run], Awaitable[None]] | None = None) -> Run:
    """The run's tables created, then ``before_play`` (not measured: the monitors, the
    floor and the clients start after it), then every client connected and playing."""
    run = Run(layout, _pacing(args.think, getattr(args, "stagger", 0.0)))
    specs = await run.add_tables(args.tables, args.bots if bots is None else bots, label=label,
                                 clock=args.clock)
    if before_play is not None:
        await before_play(run)
    run.start_monitors()
    run.start_floor()
    run.start_clients(specs)
    await run.wait_connected()
    return run


async def play(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    run = await _standard(args, layout)
    await run.supervise_for(args.stagger + args.seconds)
    moving = run.still_moving()
    await run.finish()
    res = await run.results()
    res["not_moving_at_end"] = moving
    await run.close()
    p99 = res["move_round_trip_ms"].get("p99")
    res["targets"] = latency_targets(p99, res.get("ratio_p99_to_floor"))
    res["failures"] = correctness(res)
    return res


async def capacity(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    """Step the think time down; report actions/s and p99 per step, and where p99
    crosses the limit (linear between the two steps around it)."""
    run = await _standard(args, layout)
    steps = []
    for think in (float(x) for x in args.steps.split(",")):
        run.pacing.low, run.pacing.high = think * 0.5, think * 1.5
        await run.supervise_for(3.0)  # settle at the new pace
        first_act = len(run.stats.acts)
        begin = time.monotonic()
        await run.supervise_for(args.seconds)
        window = time.monotonic() - begin
        acts = run.stats.acts[first_act:]
        lat = await run.orm(fixtures.latencies, run.specs, acts, run.trackers)
        from tests.load.measure import percentiles

        floor = [latency for f in run.floors for sent, latency in f.samples if sent >= begin]
        step = {"think_s": think, "player_actions_per_s": round(len(lat) / window, 1),
                "round_trip_ms": percentiles(lat), "floor_ms": percentiles(floor),
                "load_1min": load_average()}
        steps.append(step)
        say(f"step think={think}: {step['player_actions_per_s']}/s "
            f"p99={step['round_trip_ms'].get('p99')} ms")
        if step["round_trip_ms"].get("p99", 0) > 3 * args.limit_ms:
            break
    await run.finish()
    res = await run.results()
    await run.close()
    res["steps"] = steps
    res["capacity_actions_per_s_at_p99_limit"] = _crossing(steps, args.limit_ms)
    res["failures"] = correctness(res)
    return res


def _crossing(steps: list[dict[str, Any]], limit: float) -> float | None:
    previous = None
    for step in steps:
        p99 = step["round_trip_ms"].get("p99")
        if p99 is None:
            continue
        rate = step["player_actions_per_s"]
        if p99 > limit:
            if previous is None:
                return None
            r0, p0 = previous
            return round(r0 + (rate - r0) * (limit - p0) / max(p99 - p0, 1e-6), 1)
        previous = (rate, p99)
    return previous[0] if previous else None  # never crossed: at least the last rate


# --- faults ------------------------------------------------------------------------------


async def _fault(run: Run, kind: str) -> dict[str, Any]:
    layout = run.layout
    record: dict[str, Any] = {"kind": kind, "at_s": round(time.monotonic() - run.started, 1),
                              "load_1min": load_average()}
    if kind == "web":
        child = random.choice(layout.webs)
        layout.kill(child)
    elif kind == "worker":
        child = random.choice(layout.worker_children)
        layout.kill(child)
    elif kind == "beat":
        assert layout.beat is not None
        child = layout.beat
        layout.kill(child)
    elif kind == "redis":
        assert layout.redis_child is not None
        child = layout.redis_child
        layout.kill(child)
    elif kind == "postgres":
        assert layout.pg is not None
        await asyncio.to_thread(layout.pg.restart_cluster)
        child = None
    else:
        raise ValueError(kind)
    record["process"] = child.name if child else "postgres"
    return record


async def faults(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    kinds = [k.strip() for k in args.kill.split(",") if k.strip()]
    run = await _standard(args, layout)
    await run.supervise_for(15.0)
    baseline = run.normal_gaps(run.started + 5, time.monotonic())
    plan = [k for k in kinds for _ in range(args.repeat)]
    random.shuffle(plan)
    done: list[tuple[float, dict[str, Any]]] = []
    for kind in plan:
        await run.supervise_for(random.uniform(0.5, 1.5) * args.gap)
        at = time.monotonic()
        record = await _fault(run, kind)
        say(f"fault: {record}")
        done.append((at, record))
    await run.supervise_for(max(args.gap, 30.0))
    moving = run.still_moving()
    alive = {c.name: c.alive() for c in layout.children()}
    await run.finish()
    res = await run.results()
    await run.close()
    for at, record in done:
        record["stall"] = run.stalls_after(at)
    res["faults"] = [r for _, r in done]
    res["baseline_pause_s"] = baseline
    by_kind: dict[str, list[float]] = {}
    for _, record in done:
        stall = record["stall"]["max_s"]
        by_kind.setdefault(record["kind"], []).append(stall if stall is not None else 999.0)
    res["stall_max_s_by_kind"] = {k: max(v) for k, v in by_kind.items()}
    res["not_moving_at_end"] = moving
    res["processes_alive_at_end"] = alive
    res["failures"] = correctness(res)
    if not all(alive.values()):
        res["failures"].append(f"processes down at the end: {alive}")
    return res


# --- hostile traffic ----------------------------------------------------------------------


async def fuzz_scenario(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    from tests.load import fuzz

    return await fuzz.scenario(args, layout)


async def drop_scenario(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    from tests.load import fuzz

    return await fuzz.drop(args, layout)


async def smoke(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    """A few tables, one worker kill, a few thousand fuzz frames: the harness cannot rot."""
    from tests.load import fuzz

    run = await _standard(args, layout)
    fuzzed = await fuzz.attack(run, args, frames=args.frames, sockets=20, rate=8.0,
                               seconds=args.seconds)
    at = time.monotonic()
    record = await _fault(run, "worker")
    await run.supervise_for(20.0)
    record["stall"] = run.stalls_after(at)
    moving = run.still_moving()
    await run.finish()
    res = await run.results()
    await run.close()
    res["faults"] = [record]
    res["fuzz"] = fuzzed
    res["not_moving_at_end"] = moving
    res["failures"] = correctness(res) + fuzzed.get("failures", [])
    errors = {k: v for k, v in res["server_log_errors"].items() if not k.startswith("worker")}
    if errors:
        res["failures"].append(f"server errors in logs: {list(errors)}")
    return res
