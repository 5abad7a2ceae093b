"""``memgw dead list|replay``: the dead letters of this install (messages no consumer could take),
shown with why they died, and sent again on their own subject once the cause is mended."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

import nats
import typer
from nats.aio.client import Client as NatsClient

from memgw.common.bus import BusLayout, dead_letters, replay
from memgw.common.settings import Settings
from memgw.launcher.embedded.nats import EmbeddedNats
from memgw.launcher.embedded.process import port_open

dead_app = typer.Typer(help="Dead letters: messages no consumer could take.", no_args_is_help=True)
T = TypeVar("T")


def _nats_url(settings: Settings) -> str:
    """The configured server, else the embedded one of this data dir while `memgw up` runs."""
    if settings.nats.nats_url:
        return settings.nats.nats_url
    embedded = EmbeddedNats(settings.data.data_dir)
    port_file = embedded.dir / "port"
    if port_file.exists():
        embedded.port = int(port_file.read_text().strip())
        if port_open("127.0.0.1", embedded.port):
            return embedded.url
    raise typer.BadParameter("no NATS to ask: start `memgw up` (embedded) or set MEMGW_NATS_URL")


def _with_bus(work: Callable[[NatsClient, BusLayout], Awaitable[T]]) -> T:
    settings = Settings()
    layout = BusLayout(settings.nats.bus_prefix, settings.nats.bus_ack_wait_s, settings.nats.bus_max_deliver)

    async def go() -> T:
        nc = await nats.connect(_nats_url(settings))
        try:
            return await work(nc, layout)
        finally:
            await nc.close()

    return asyncio.run(go())


@dead_app.command("list")
def list_dead(limit: Annotated[int, typer.Option(help="At most this many, oldest first.")] = 100) -> None:
    """Every dead letter: its number, when, the subject it was meant for, and why it died."""
    letters = _with_bus(lambda nc, layout: dead_letters(nc, layout, limit))
    if not letters:
        print("no dead letters")
    for d in letters:
        print(f"{d.seq}\t{d.time:%Y-%m-%d %H:%M:%S}\t{d.subject}\t{d.error}")


@dead_app.command("replay")
def replay_dead(
    seq: Annotated[list[int] | None, typer.Argument(help="Dead-letter numbers (from `memgw dead list`).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every dead letter.")] = False,
) -> None:
    """Send dead letters again on their own subject (a new message id) and remove them."""

    async def go(nc: NatsClient, layout: BusLayout) -> list[str]:
        numbers = [d.seq for d in await dead_letters(nc, layout)] if all_ else list(seq or [])
        done = []
        for n in numbers:
            try:
                letter = await replay(nc, layout, n)
            except KeyError as exc:
                raise typer.BadParameter(f"{exc.args[0]} (see `memgw dead list`)") from exc
            done.append(f"{n}\t{letter.subject}")
        return done

    for line in _with_bus(go) or ["nothing to replay"]:
        print(line)
