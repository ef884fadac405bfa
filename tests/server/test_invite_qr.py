"""The invite link as a QR code: ``GET /api/tables/{code}/qr.svg`` (issue 21)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import segno

from sequence.server.web.tables import invite_qr_svg

from .conftest import ServerThread, create_table

SVG = "{http://www.w3.org/2000/svg}"


def test_the_qr_code_is_an_svg_of_the_tables_invite_link(server: ServerThread) -> None:
    code = create_table(server, game="kids", players=2)["code"]
    with server.http() as http:
        answer = http.get(f"/api/tables/{code}/qr.svg")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("image/svg+xml")
        link = f"{server.url}/t/{code}"
        # Not decoded: the very code segno makes of the link, of the version and size it needs.
        assert answer.text == invite_qr_svg(link)
        root = ET.fromstring(answer.text)
        assert root.tag == f"{SVG}svg"
        qr = segno.make(link, error="m", micro=False)
        side = (qr.symbol_size(scale=1, border=0)[0] + 2 * 4) * 6
        assert qr.version == 3 and qr.symbol_size(scale=1, border=0) == (29, 29)
        assert (root.get("width"), root.get("height")) == (str(side), str(side))
        assert root.find(f"{SVG}script") is None and "href" not in answer.text
        # Another table's code gives another picture.
        other = create_table(server, game="kids", players=2)["code"]
        assert http.get(f"/api/tables/{other}/qr.svg").text != answer.text


def test_unknown_tables_have_no_qr_code(server: ServerThread) -> None:
    with server.http() as http:
        answer = http.get("/api/tables/NOPE42/qr.svg")
        assert answer.status_code == 404 and answer.json()["error"] == "unknown_table"
        for code in ("x" * 200, "..%2F..%2Fetc"):  # not of a code's form: malformed
            answer = http.get(f"/api/tables/{code}/qr.svg")
            assert answer.status_code in (400, 404), answer.text
            assert answer.json()["error"] in ("bad_message", "not_found")
