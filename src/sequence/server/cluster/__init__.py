"""Several server processes as one: the notices and leases between them, nginx in front.

- :mod:`.notices` -- :class:`~.notices.Cluster`: notices of changes between processes (Redis
  pub/sub), who is connected where, and which process owns each table's bots and clocks;
  :class:`~.notices.Solo` for a single process;
- :mod:`.nginx` -- the nginx site configuration for N processes;
- :mod:`.launcher` -- nginx and N ``sequence serve`` processes started and stopped as one.

May use: nothing else of the server (it carries notices, it does not read them: the tables'
hub does).
"""
