"""A small COMP90054 course agent of our own: complete a line, else block, else build.

It is written as a course agent is (``class myAgent(Agent)`` whose ``SelectAction(actions,
game_state)`` returns one of ``actions``), and reads only the framework's public game state:
``game_state.board.chips`` and ``game_state.agents[self.id]``. Run it against our bots:

    sequence tournament --game draft --bot comp90054:examples/comp90054/myTeam.py --bot medium
"""

from template import Agent

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def run_length(chips, r, c, mine):
    """The longest line of ``mine`` (and free corners) through (r, c) once a chip is there."""
    best = 0
    for dr, dc in DIRECTIONS:
        count = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < 10 and 0 <= cc < 10 and chips[rr][cc] in mine:
                count += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        best = max(best, count)
    return best


class myAgent(Agent):  # noqa: N801 (the framework's name)
    def __init__(self, _id):
        super().__init__(_id)

    def SelectAction(self, actions, game_state):  # noqa: N802 (the framework's name)
        me = game_state.agents[self.id]
        chips = game_state.board.chips
        mine = {me.colour, me.seq_colour, "#"}
        theirs = {me.opp_colour, me.opp_seq_colour, "#"}

        def score(action):
            if action["type"] == "trade":
                return 1000 if action["play_card"] else -1
            if action["coords"] is None:
                return -2
            r, c = action["coords"]
            if action["type"] == "remove":
                return 10 * run_length(chips, r, c, theirs) - 30
            jack = action["play_card"] in ("jd", "jc")
            return 10 * max(run_length(chips, r, c, mine), run_length(chips, r, c, theirs)) - (
                15 if jack else 0
            )

        return max(actions, key=score)
