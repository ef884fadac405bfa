"""Configuration checks (RULES.md §2.2, §3, §4, §5; the options table in ``games.py``)."""

from __future__ import annotations

import pytest

from sequence.engine import ConfigError, State, config_from_dict, make_config
from sequence.engine.games import CLASSIC_HAND_SIZES, OPTIONS

CLASSIC_COUNTS = (2, 3, 4, 6, 8, 9, 10, 12)
HAND = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}


@pytest.mark.parametrize("players", CLASSIC_COUNTS)
def test_classic_player_counts_deal_the_table_hand_size(players: int) -> None:
    cfg = make_config("classic", players)
    st = State.new(cfg, seed=players)
    assert [len(st.hand_of(s)) for s in range(players)] == [HAND[players]] * players
    assert st.deck_size == 104 - HAND[players] * players
    assert CLASSIC_HAND_SIZES == HAND


@pytest.mark.parametrize("players", [0, 1, 5, 7, 11, 13, 14, 24])
def test_classic_refuses_other_counts_saying_why(players: int) -> None:
    with pytest.raises(ConfigError, match=f"cannot be played with {players} players") as err:
        make_config("classic", players)
    assert "2, 3, 4, 6, 8, 9, 10 or 12" in str(err.value)


def test_five_players_message_explains_the_teams_rule() -> None:
    with pytest.raises(ConfigError, match="5 players: they cannot be split into 2 or 3 equal"):
        make_config("classic", 5)


@pytest.mark.parametrize(
    ("players", "default", "allowed"),
    [(2, 2, {2}), (3, 3, {3}), (4, 2, {2}), (6, 2, {2, 3}), (8, 2, {2}), (9, 3, {3}),
     (10, 2, {2}), (12, 2, {2, 3})],
)  # fmt: skip
def test_classic_teams(players: int, default: int, allowed: set[int]) -> None:
    assert make_config("classic", players).teams == default
    for teams in range(1, 7):
        if teams in allowed:
            cfg = make_config("classic", players, teams)
            assert cfg.teams == teams and cfg.team_size * teams == players
        else:
            with pytest.raises(ConfigError):
                make_config("classic", players, teams)


def test_teams_alternate_around_the_table() -> None:
    cfg = make_config("classic", 6, teams=3)
    assert [cfg.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert cfg.members(1) == (1, 4)
    cfg = make_config("classic", 12, teams=2)
    assert cfg.members(0) == (0, 2, 4, 6, 8, 10)


def test_sequences_to_win_two_for_two_sides_one_for_three() -> None:
    assert make_config("classic", 2).sequences_to_win == 2
    assert make_config("classic", 8).sequences_to_win == 2
    assert make_config("classic", 3).sequences_to_win == 1
    assert make_config("classic", 6, teams=3).sequences_to_win == 1
    assert make_config("classic", 9).sequences_to_win == 1
    assert make_config("kids", 2).sequences_to_win == 1
    assert make_config("dice", 2).sequences_to_win == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kids_players_alone(players: int) -> None:
    cfg = make_config("kids", players)
    assert cfg.teams == players and cfg.line_length == 4 and cfg.chips == (21,) * players
    with pytest.raises(ConfigError, match="plays alone"):
        make_config("kids", players, teams=players - 1 if players > 2 else 1)


@pytest.mark.parametrize("players", [1, 5, 6])
def test_kids_and_dice_refuse_other_counts(players: int) -> None:
    with pytest.raises(ConfigError, match="2 to 4 players"):
        make_config("kids", players)
    with pytest.raises(ConfigError, match="2 to 4 players"):
        make_config("dice", players)


def test_dice_four_players_are_two_teams() -> None:
    cfg = make_config("dice", 4)
    assert cfg.teams == 2 and cfg.members(0) == (0, 2) and cfg.members(1) == (1, 3)
    with pytest.raises(ConfigError, match="players 1 and 3 play against players 2 and 4"):
        make_config("dice", 4, teams=4)
    assert make_config("dice", 3).teams == 3
    assert make_config("dice", 2).chips == (20, 20)


def test_dice_line_length_option() -> None:
    assert make_config("dice", 2).line_length == 5
    assert make_config("dice", 2, dice_line_length=6).line_length == 6
    for bad in (4, 7):
        with pytest.raises(ConfigError, match="dice_line_length must be from 5 to 6"):
            make_config("dice", 2, dice_line_length=bad)


@pytest.mark.parametrize("players", [2, 4])
def test_draft_for_two_sides(players: int) -> None:
    cfg = make_config("classic", players, draft=True)
    assert cfg.hand_size == 6
    st = State.new(cfg, seed=1)
    assert [len(st.hand_of(s)) for s in range(players)] == [6] * players
    assert len(st.draft) == 5


@pytest.mark.parametrize("players", [3, 6, 8, 9, 10, 12])
def test_draft_refuses_other_counts(players: int) -> None:
    with pytest.raises(ConfigError, match="draft variant is for 2 players or 2 teams of 2"):
        make_config("classic", players, draft=True)


def test_options_apply_only_to_their_games() -> None:
    for name, opt in OPTIONS.items():
        value = {"chips_per_colour": 10, "max_turns": 5, "dice_line_length": 6}.get(name, True)
        for game in ("classic", "kids", "dice"):
            if game in opt.games:
                make_config(game, 2, **{name: value})
            else:
                with pytest.raises(ConfigError, match=f"option {name} does not apply"):
                    make_config(game, 2, **{name: value})
    with pytest.raises(ConfigError, match="unknown option nonsense;"):
        make_config("classic", 2, nonsense=1)
    # The games named are the engine's GAMES (what GET /api/meta lists); draft is taken as a
    # name, and the refusal says what it is: classic's option, from VARIANTS.
    with pytest.raises(
        ConfigError,
        match=r"unknown game chess: choose classic, kids or dice"
        r" \(the draft variant: classic with the option draft\)$",
    ):
        make_config("chess", 2)


def test_draft_is_a_game_name_for_classic_with_the_draft_option() -> None:
    assert make_config("draft", 4) == make_config("classic", 4, draft=True)
    assert make_config("draft", 2, draft="yes").draft
    with pytest.raises(ConfigError, match="draft=false contradicts it; choose classic"):
        make_config("draft", 2, draft="false")
    with pytest.raises(ConfigError, match="2 players or 2 teams of 2"):
        make_config("draft", 3)


def test_option_values_are_checked() -> None:
    with pytest.raises(ConfigError, match="takes true or false"):
        make_config("classic", 2, difficult="maybe")
    with pytest.raises(ConfigError, match="whole number"):
        make_config("classic", 2, max_turns="many")
    with pytest.raises(ConfigError, match="at least 1"):
        make_config("classic", 2, max_turns=0)
    with pytest.raises(ConfigError, match="manual_draw does not apply to the draft"):
        make_config("classic", 2, draft=True, manual_draw=True)


def test_chips_per_colour() -> None:
    assert make_config("classic", 2).chips == (48, 48)
    assert make_config("classic", 3, chips_per_colour="us").chips == (50, 50, 35)
    assert make_config("classic", 2, chips_per_colour="US").chips == (50, 50)
    assert make_config("classic", 6, teams=3, chips_per_colour=30).chips == (30, 30, 30)
    with pytest.raises(ConfigError, match="US edition of classic"):
        make_config("kids", 2, chips_per_colour="us")


def test_config_dict_round_trip() -> None:
    for cfg in (
        make_config("classic", 6, teams=3, difficult=True, chips_per_colour="us"),
        make_config("classic", 4, draft=True, max_turns=50),
        make_config("dice", 4, dice_line_length=6),
        make_config("kids", 3, max_turns=40),
    ):
        assert config_from_dict(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError):
        config_from_dict([1, 2])  # type: ignore[arg-type]
