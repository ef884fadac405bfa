"""Bots: players that see only their seat's view.

:func:`make_bot` builds a bot from a spec: a level (``easy``, ``medium``, ``hard``, ``expert``),
a bot (``random``, ``casual``, ``greedy``, ``lookahead``, ``mcts``), or ``package.module:Class``
(or ``path/to/mybot.py:Class``) for your own; ``@key=value,...`` after any of them sets
constructor arguments (``mcts@time=0.5,depth=8``).

>>> make_bot("greedy", seed=3).name
'greedy'
>>> make_bot("mcts@iterations=100,time=0").iterations
100
>>> make_bot("hard").time
1.0
"""

from __future__ import annotations

from .arena import GameResult, play_game
from .base import Bot, RandomBot
from .errors import BotMistake, BotSpecError
from .greedy import CasualBot, GreedyBot
from .levels import LEVELS, EasyBot, ExpertBot, HardBot, MediumBot
from .lookahead import LookaheadBot
from .mcts import MCTSBot
from .specs import BOTS, bot_maker, make_bot, parse_spec

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "BotMistake",
    "BotSpecError",
    "CasualBot",
    "EasyBot",
    "ExpertBot",
    "GameResult",
    "GreedyBot",
    "HardBot",
    "LookaheadBot",
    "MCTSBot",
    "MediumBot",
    "RandomBot",
    "bot_maker",
    "make_bot",
    "parse_spec",
    "play_game",
]
