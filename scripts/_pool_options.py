"""The self-play pool's options, which ``scripts/selfplay.py`` takes and
``scripts/baselines.py selfplay`` passes on: declared once, here, for both (importing
``selfplay`` itself would load PyTorch for a ``--help``)."""

from __future__ import annotations

import argparse


def add_pool_options(parser: argparse.ArgumentParser) -> None:
    """``--envs``, ``--bots`` and ``--bot-share``."""
    parser.add_argument("--envs", type=int, default=1, help="games the learner plays at once (1)")
    parser.add_argument(
        "--bots",
        default="random",
        help="fixed opponents in the pool, comma-separated bot specs (random)",
    )
    parser.add_argument(
        "--bot-share",
        type=float,
        default=0.2,
        help="share of episodes against a fixed bot once there is a snapshot (0.2)",
    )
