"""nginx in front of ``sequence serve``: the site configuration, rendered for a list of upstreams.

One source for every use: ``deploy/nginx/sequence.conf`` (three processes on ports 8001 to 8003,
for ``/etc/nginx/sites-available/``; a test checks that it is this module's output), the
operator's own rendering, and :mod:`.launcher`, which runs nginx without root around it
(:func:`standalone_config`: pid, logs and temporary files in one folder)::

    python -m sequence.server.cluster.nginx --listen 80 127.0.0.1:8001 127.0.0.1:8002 127.0.0.1:8003

What the configuration does, and why:

- **WebSockets** (``/ws/``): HTTP/1.1 to the upstream with the client's ``Upgrade`` and
  ``Connection: upgrade``; no buffering; a socket stays open for a whole game, and the server
  pings every 20 s, so the timeouts (120 s) only close sockets that are dead.
- **The client's address**: ``X-Forwarded-For`` is set to the address nginx sees (not appended
  to what the client sent, which it could forge) and ``X-Forwarded-Proto`` to the scheme;
  ``sequence serve --forwarded-allow-ips`` believes them from nginx's address only, so the rate
  limits count each player, not the proxy.
- **Any process serves any table** (PostgreSQL + Redis between them), so HTTP requests are
  spread round-robin, with no sticky sessions; a process that refuses connections is skipped
  for 10 s, and a request that is not idempotent (a POST) is never sent twice.
- **A table's WebSockets go to one process** (``hash`` of the table's code, ``consistent``):
  every player and spectator of a table then sits on the same process, which applies and shows
  each move alone; the other processes only read the notice's header line and leave the table
  be (docs/server.md, "Several server processes"). It is an economy, not a need: when that
  process is gone nginx sends the table's sockets to another one, and only that table's share
  moves (consistent hashing). ``--spread`` renders round-robin for the sockets too (each
  connection to the next process), which the tests use to put one table's players on different
  processes.
- **Bodies**: nginx lets through up to 64 KiB, above the API's own 16 KiB, so that an oversized
  body gets the API's JSON 413 rather than nginx's HTML page.
- **nginx's own errors under /api/ are the API's**: a request nginx refuses itself (400: not
  valid HTTP; 413: a body over 64 KiB) or cannot pass on (502, 503, 504: no process answers)
  gets the API's ``{"error": CODE, "message": TEXT}`` (``bad_message``, ``too_large``,
  ``unavailable``) as JSON when its path starts with ``/api/``, with the message from the
  catalogue in the language of its ``Accept-Language`` (:data:`NGINX_ERRORS`); any other path
  keeps nginx's HTML page (``return`` in the error page's location, which does not recurse,
  gives nginx's own page for the status).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ...i18n import DEFAULT, N_, SUPPORTED, translator

NGINX_ERRORS: dict[str, tuple[tuple[int, ...], str, str]] = {
    "bad_request": ((400,), "bad_message", N_("the request is not valid HTTP; nothing was done")),
    "too_large": ((413,), "too_large", N_("the request is larger than {limit} bytes")),
    "unavailable": (
        (502, 503, 504),
        "unavailable",
        N_("the server is not answering; try again in a moment"),
    ),
}
"""nginx's own errors that answer in the API's format under ``/api/``: a name (of its named
location and map), the statuses, the API's error code and its message (a catalogue msgid)."""

NGINX_BODY_LIMIT = 65_536
"""``client_max_body_size 64k`` in bytes (the 413's message names it)."""

SITE = """\
# Sequence (`sequence serve`) behind nginx: {count} upstream process{plural}.
# Rendered by `python -m sequence.server.cluster.nginx` (src/sequence/server/cluster/nginx.py
# says why each line is here); docs/deploy.md installs it.

# `Connection: upgrade` for a WebSocket handshake, `close` for anything else.
map $http_upgrade $sequence_connection {{
    default upgrade;
    ''      close;
}}

# The table's code in `/ws/CODE`: which process a table's sockets go to.
map $uri $sequence_table {{
    ~^/ws/(?<sequence_code>[^/]+) $sequence_code;
    default "";
}}

# The requests whose errors nginx gives in the API's format: those under /api/.
map $request_uri $sequence_api {{
    ~^/api/ 1;
    default "";
}}

# The language of those errors: the first of Accept-Language's that the API speaks.
map $http_accept_language $sequence_lang {{
{languages}
}}
{messages}
upstream sequence {{
{servers}
    keepalive 16;
}}

upstream sequence_ws {{
{ws_balance}{servers}
}}

server {{
    listen {listen};
    server_name {server_name};

    client_max_body_size 64k;

{error_pages}

    location /ws/ {{
        proxy_pass http://sequence_ws;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $sequence_connection;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_buffering off;
        proxy_read_timeout 120s;
        proxy_send_timeout 120s;
    }}

    location / {{
        proxy_pass http://sequence;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_next_upstream error timeout;
        proxy_read_timeout 60s;
    }}
}}
"""

ERROR_PAGE = """\
    # nginx's own {status}: the API's JSON error under /api/, nginx's own page elsewhere.
    error_page {status} /.sequence-error/{status};
    location = /.sequence-error/{status} {{
        internal;
        default_type application/json;
        if ($sequence_api = "") {{ return {status}; }}
        return {status} $sequence_{name};
    }}
"""
"""One of nginx's own errors (:data:`NGINX_ERRORS`) in the site: :func:`_error_page`."""

STANDALONE = """\
# nginx without root for `sequence.server.cluster.launcher`: everything it writes is under {prefix}.
worker_processes 1;
worker_rlimit_nofile 16384;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;

events {{
    worker_connections 8192;
}}

http {{
    # Which upstream served each request: tests check that clients reached different processes.
    log_format upstream '$remote_addr "$request" $status $upstream_addr';
    access_log {prefix}/access.log upstream;
    # Nothing but the logs on disk: bodies (64 KiB at most) stay in memory and answers are passed
    # on, not spooled, so that the workers (`nobody` when nginx is started as root) never need
    # the folder, which only its owner may enter.
    client_body_buffer_size 64k;
    proxy_max_temp_file_size 0;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {site};
}}
"""


def site_config(
    upstreams: Sequence[str], listen: str = "80", server_name: str = "_", spread: bool = False
) -> str:
    """The ``server`` block (with its ``upstream`` blocks and ``map`` blocks) for ``upstreams``
    (``host:port`` each), listening on ``listen`` (a port, or ``address:port``); ``spread``:
    a table's WebSockets round-robin too, rather than all to one process.

    >>> print(site_config(["127.0.0.1:8001"], "8080").splitlines()[0])
    # Sequence (`sequence serve`) behind nginx: 1 upstream process.
    """
    if not upstreams:
        raise ValueError("nginx needs at least one upstream process")
    others = [lang for lang in SUPPORTED if lang != DEFAULT]
    languages = "\n".join(
        [f"    ~*^{lang} {lang};" for lang in others] + [f"    default {DEFAULT};"]
    )
    servers = "\n".join(f"    server {u} max_fails=1 fail_timeout=10s;" for u in upstreams)
    return SITE.format(
        count=len(upstreams),
        plural="" if len(upstreams) == 1 else "es",
        servers=servers,
        ws_balance="" if spread else "    hash $sequence_table consistent;\n",  # i18n: ignore
        listen=listen,
        server_name=server_name,
        languages=languages,
        messages="".join(
            _error_map(name, code, msgid) for name, (_, code, msgid) in NGINX_ERRORS.items()
        ),
        error_pages="\n".join(
            _error_page(name, statuses) for name, (statuses, _, _) in NGINX_ERRORS.items()
        ),
    )


def _quoted(text: str) -> str:
    """``text`` as a single-quoted nginx string (its backslashes and quotes escaped)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _error_map(name: str, code: str, msgid: str) -> str:
    """The map from the request's language to the JSON body of one of nginx's errors."""
    lines = []
    for lang in SUPPORTED:
        message = translator(lang).gettext(msgid).format(limit=NGINX_BODY_LIMIT)
        body = json.dumps({"error": code, "message": message}, ensure_ascii=False)
        lines.append(f"    {'default' if lang == DEFAULT else lang} {_quoted(body)};")
    rows = "\n".join(lines)
    return f"\nmap $sequence_lang $sequence_{name} {{\n{rows}\n}}\n"


def _error_page(name: str, statuses: tuple[int, ...]) -> str:
    """The ``error_page`` of nginx's own errors of ``statuses``, an internal location each: the
    API's JSON under /api/, nginx's own page elsewhere (a ``return`` in an error page's location
    does not recurse: nginx answers with its own page for the status). A location by URI, not a
    named one: nginx cannot go to a named location from a request line it could not read."""
    return "\n".join(ERROR_PAGE.format(status=status, name=name) for status in statuses)


def standalone_config(prefix: Path, site: Path) -> str:
    """A whole ``nginx.conf`` that includes ``site`` and keeps its pid, logs and temporary
    files under ``prefix``, for ``nginx -p PREFIX -e PREFIX/error.log -c FILE`` as any user."""
    return STANDALONE.format(prefix=prefix, site=site)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the site configuration for the upstreams named on the command line."""
    parser = argparse.ArgumentParser(
        prog="python -m sequence.server.cluster.nginx",
        description="Print nginx's site configuration for Sequence server processes.",
    )
    parser.add_argument("upstreams", nargs="+", metavar="HOST:PORT", help="a sequence serve")
    parser.add_argument("--listen", default="80", help="nginx's port or address:port (80)")
    parser.add_argument("--server-name", default="_", help="the site's name (default: any)")
    parser.add_argument(
        "--spread",
        action="store_true",
        help="send each WebSocket to the next process, not a table's all to one",
    )
    args = parser.parse_args(argv)
    sys.stdout.write(site_config(args.upstreams, args.listen, args.server_name, args.spread))
    return 0


if __name__ == "__main__":
    sys.exit(main())
