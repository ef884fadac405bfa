"""Access rights on their own: seat tokens, the host's rights, spectators who may only watch."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sequence.engine import State, make_config
from sequence.server.common.errors import RequestError
from sequence.server.storage.db import hash_token
from sequence.server.tables import access
from sequence.server.tables.access import SPECTATOR, Rights
from sequence.server.tables.table import Seat, Table


@pytest.fixture
def tokens() -> dict[str, str]:
    return {"host": "the-host", "ann": "ann-secret", "bob": "bob-secret"}


@pytest.fixture
def table(tokens: dict[str, str]) -> Table:
    config = make_config("classic", players=3)
    return Table(
        id=1,
        code="ACCESS",
        config=config,
        seed=1,
        public=False,
        status="playing",
        host_hash=hash_token(tokens["host"]),
        seats=[
            Seat(0, "Ann", hash_token(tokens["ann"])),
            Seat(1, "Bob", hash_token(tokens["bob"])),
            Seat(2, "medium", bot="medium"),
        ],
        state=State.new(config, 1),
    )


def code_of(call: Callable[[], object]) -> str:
    """The code of the refusal ``call`` raises."""
    with pytest.raises(RequestError) as info:
        call()
    return info.value.code


def test_a_new_token_is_stored_only_as_its_hash() -> None:
    token, stored = access.new_token()
    assert len(token) >= 32 and stored == hash_token(token) and token not in stored
    assert access.new_token()[0] != token


def test_seat_tokens_name_their_seat(table: Table, tokens: dict[str, str]) -> None:
    assert access.seat_of(table, tokens["ann"]) == 0
    assert access.seat_of(table, tokens["bob"]) == 1
    for other in (None, "", tokens["host"], "forged"):
        assert access.seat_of(table, other) is None  # the bot's seat has no token to match


def test_only_the_host_has_host_rights(table: Table, tokens: dict[str, str]) -> None:
    access.require_host(table, tokens["host"])
    for other in (None, "", tokens["ann"], "forged"):
        assert code_of(lambda o=other: access.require_host(table, o)) == "not_host"


def test_a_rematch_is_for_the_players_and_the_host(table: Table, tokens: dict[str, str]) -> None:
    for token in tokens.values():
        access.require_player_or_host(table, token)
    for other in (None, "forged"):
        assert code_of(lambda o=other: access.require_player_or_host(table, o)) == "not_seated"


def test_a_connections_rights_come_from_its_tokens(table: Table, tokens: dict[str, str]) -> None:
    assert Rights.of(table, tokens["bob"], None) == Rights(seat=1, host=False)
    assert Rights.of(table, tokens["ann"], tokens["host"]) == Rights(seat=0, host=True)
    assert Rights.of(table, None, tokens["host"]) == Rights(seat=None, host=True)
    assert Rights.of(table, None, "forged") == SPECTATOR
    # A seat token that is not this table's is refused, not taken for a spectator.
    assert code_of(lambda: Rights.of(table, "forged", None)) == "bad_token"


def test_a_spectator_cannot_act(table: Table, tokens: dict[str, str]) -> None:
    for rights in (SPECTATOR, Rights.of(table, None, tokens["host"])):
        assert code_of(rights.seat_to_move) == "not_seated"
        assert code_of(rights.seat_to_roll) == "not_seated"
    assert code_of(SPECTATOR.check_penalty) == "not_host"


def test_a_player_acts_for_their_own_seat_and_only_the_host_penalises(
    table: Table, tokens: dict[str, str]
) -> None:
    bob = Rights.of(table, tokens["bob"], None)
    assert bob.seat_to_move() == 1 and bob.seat_to_roll() == 1
    assert code_of(bob.check_penalty) == "not_host"
    watching_host = Rights.of(table, None, tokens["host"])
    watching_host.check_penalty()
