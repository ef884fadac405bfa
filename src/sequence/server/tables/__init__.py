"""Live tables: what a table is, who may do what at it, how a request changes it, and how
everyone at it is told.

- :mod:`.table` -- a live table: settings, seats, the game state, who is connected;
- :mod:`.registry` -- every table in memory by code, loaded from and saved to the store;
- :mod:`.store` -- a table's queries: its settings, seats, events and moves in the database;
- :mod:`.access` -- who may do what: seat tokens, the host's rights, spectators;
- :mod:`.hub` -- routes each request on a table to the job that does it, one job a file:
  :mod:`.seating` (the lobby and its seats, the start, the rematch), :mod:`.claims` (seats the
  account service changes), :mod:`.moves` (moves, rolls, the penalty, bots' steps),
  :mod:`.standins` (bots keeping seats, resignations), :mod:`.presence` (who is connected),
  :mod:`.hosts` (the host's rights passing on), :mod:`.talk` (reactions and chat),
  :mod:`.notices` (the other processes' changes, catching up), all on :mod:`.core` (what
  they share: rights, the engine, storage, then everyone told);
- :mod:`.scheduler` -- bots' turns and turn clocks, driven by the engine's ``State.next_step()``;
- :mod:`.protocol` -- every message to a client, built from the seat's view (the one filter);
- :mod:`.messages` -- every message a client may send, as Pydantic models;
- :mod:`.websocket` -- the WebSocket route: a client's hello, then each message to the hub;
- :mod:`.connection` -- one WebSocket client: payloads out, a rate limit on what comes in;
- :mod:`.wsframes` -- frames too large for the server, refused with a reason;
- :mod:`.talk` -- reactions and chat: what may be said, and to whom;
- :mod:`.models` -- the tables' HTTP requests and answers (and the models' base classes).

May use: :mod:`..storage`, :mod:`..cluster`, :mod:`..common`, the engine, the bots and i18n.
Two arrows reach up, each for one rule that lives with its concern: a signed-in player's seat
token (:class:`..accounts.account.Owner`) and which bots a rated table may seat
(:func:`..ratings.rating.check_rated_bot`).
"""
