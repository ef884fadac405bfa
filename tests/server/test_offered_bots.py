"""The operator's own bots at web tables (``sequence serve --bot NAME=SPEC``): a saved model
plays a seat, people pick it by name only, and a bad offer is refused before anything starts."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sequence.server.tables import scheduler

from .conftest import ServerThread, create_table, start

sb3_contrib = pytest.importorskip("sb3_contrib")


@pytest.fixture(autouse=True)
def _no_offers_left() -> object:
    yield
    scheduler.offer_bots({})  # the offers are the process's: the next app starts without


def saved_model(folder: Path) -> Path:
    """An (untrained) MaskablePPO for Sequence for Kids, saved as a Stable-Baselines3 file."""
    import gymnasium

    import sequence.env.gym  # noqa: F401  (registers the ids)

    env = gymnasium.make("sequence/Kids-v0", opponents="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0)
    path = folder / "snapshot.zip"
    model.save(path)
    return path


def test_a_saved_model_plays_a_seat_at_a_web_table(tmp_path: Path, sqlite_url: str) -> None:
    path = saved_model(tmp_path)
    offers = {"snapshot": f"policy:{path}"}
    with ServerThread(sqlite_url, bot_delay=0, bots=offers) as srv:
        with srv.http() as http:
            meta = http.get("/api/meta").json()
            assert meta["bots"][-1] == "snapshot" and "random" in meta["bots"]
            # a spec is never taken from a client, only the offered names
            r = http.post("/api/tables", json={"game": "kids", "players": 2,
                                               "bots": [f"policy:{path}", "random"]})  # fmt: skip
            assert r.status_code == 400 and "unknown bot level" in r.text
        created = create_table(srv, game="kids", players=2, bots=["snapshot", "random"])
        code = created["code"]
        start(srv, code, created["host_token"])
        deadline = time.monotonic() + 120
        with srv.http() as http:
            while (r := http.get(f"/api/tables/{code}/record")).status_code != 200:
                assert time.monotonic() < deadline, "the table did not finish"
                time.sleep(0.2)
            info = http.get(f"/api/tables/{code}").json()
    record = r.json()["record"]
    assert len(record["moves"]) > 4 and record["result"]
    assert [s["bot"] for s in info["seats"]] == ["snapshot", "random"]


def test_bad_offers_are_refused_saying_why(tmp_path: Path) -> None:
    for offers, words in [
        ({"greedy": "random"}, "built-in"),
        ({"a b": "random"}, "bot name"),
        ({"mine": "policy:" + str(tmp_path / "missing.zip")}, "missing.zip"),
        ({"mine": "nosuchbot"}, "nosuchbot"),
    ]:
        with pytest.raises(ValueError, match=words):
            scheduler.offer_bots(offers)
    assert scheduler.OFFERED == {}
    scheduler.offer_bots({"strong": "mcts@iterations=50,time=0"})
    assert scheduler.bot_levels()[-1] == "strong" and scheduler.check_level("strong")
    assert scheduler.bot_spec("strong") == "mcts@iterations=50,time=0"
    assert scheduler.bot_spec("gone") == scheduler.DEFAULT_LEVEL  # a restart without it


def test_serve_refuses_a_malformed_or_bad_bot_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sequence.cli.main import main

    db = f"sqlite:///{tmp_path / 'x.db'}"
    assert main(["serve", "--db", db, "--bot", "nameonly"]) == 2
    assert "--bot is NAME=SPEC" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--bot", "mine=nosuchbot"]) == 2
    assert "mine=nosuchbot" in capsys.readouterr().err
