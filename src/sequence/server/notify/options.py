"""The notification options of ``sequence serve`` (each also read from an environment variable,
so that a password need not be on a command line): the site's public address, the SMTP server,
the push contact, the batching and the rate limits."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .mail import SECURITY, MailConfig

if TYPE_CHECKING:  # the notifier brings the tables and httpx: not for `sequence serve --help`
    from .notifier import NotifyConfig


def add_notify_arguments(
    parser: argparse.ArgumentParser, env: Mapping[str, str] = os.environ
) -> None:
    """Add the options (their defaults from ``SEQUENCE_*`` variables in ``env``)."""
    group = parser.add_argument_group(
        "notifications",
        "e-mail through an SMTP server (opt-in per account; the password only from"  # i18n: ignore
        " SEQUENCE_SMTP_PASSWORD) and Web Push (docs/deploy.md)",  # i18n: ignore
    )
    # --public-url (SEQUENCE_PUBLIC_URL) is sequence serve's own: the invite links and the
    # e-mails' links start with it.
    group.add_argument(
        "--smtp-host",
        default=env.get("SEQUENCE_SMTP_HOST"),
        help="the SMTP server e-mails go through (SEQUENCE_SMTP_HOST; default: no e-mail)",
    )
    group.add_argument(
        "--smtp-port",
        type=int,
        default=int(env.get("SEQUENCE_SMTP_PORT", "587")),
        help="its port (SEQUENCE_SMTP_PORT; default 587)",
    )
    group.add_argument(
        "--smtp-security",
        choices=SECURITY,
        default=env.get("SEQUENCE_SMTP_SECURITY", "starttls"),
        help="STARTTLS, TLS from the start, or none (SEQUENCE_SMTP_SECURITY; default starttls)",
    )
    group.add_argument(
        "--smtp-user",
        default=env.get("SEQUENCE_SMTP_USER"),
        help="the SMTP login (SEQUENCE_SMTP_USER; the password: SEQUENCE_SMTP_PASSWORD)",
    )
    group.add_argument(
        "--smtp-from",
        default=env.get("SEQUENCE_SMTP_FROM", "sequence@localhost"),
        metavar="ADDRESS",
        help="who the e-mails are from (SEQUENCE_SMTP_FROM)",
    )
    group.add_argument(
        "--push-contact",
        default=env.get("SEQUENCE_PUSH_CONTACT", "mailto:sequence@localhost"),
        metavar="URI",
        help="the operator's mailto: or https: address sent to push services"
        " (SEQUENCE_PUSH_CONTACT)",
    )
    group.add_argument(
        "--notify-batch",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a notification waits for others to go with it (default 60)",
    )
    group.add_argument(
        "--email-interval",
        type=float,
        default=900.0,
        metavar="SECONDS",
        help="the shortest time between two e-mails to one player (default 900)",
    )
    group.add_argument(
        "--push-interval",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="the shortest time between two push messages to one player (default 60)",
    )


def notify_config(args: argparse.Namespace, env: Mapping[str, str] = os.environ) -> NotifyConfig:
    """The options as a :class:`NotifyConfig`; ``ValueError`` says which one is wrong."""
    from .notifier import NotifyConfig

    for name in ("notify_batch", "email_interval", "push_interval"):
        if not getattr(args, name) >= 0:
            flag = "--" + name.replace("_", "-")
            raise ValueError(f"{flag} is 0 seconds or more, not {getattr(args, name)}")
    mail = None
    if args.smtp_host:
        mail = MailConfig(
            host=args.smtp_host,
            port=args.smtp_port,
            sender=args.smtp_from,
            user=args.smtp_user or None,
            password=env.get("SEQUENCE_SMTP_PASSWORD") or None,
            security=args.smtp_security,
        )
    public = args.public_url or f"http://{args.host}:{args.port}"
    if not public.startswith(("http://", "https://")):
        raise ValueError(f"--public-url is an http:// or https:// address, not {public!r}")
    if not args.push_contact.startswith(("mailto:", "https:")):
        raise ValueError(f"--push-contact is a mailto: or https: URI, not {args.push_contact!r}")
    return NotifyConfig(
        public_url=public,
        mail=mail,
        push_contact=args.push_contact,
        batch_seconds=args.notify_batch,
        email_interval=args.email_interval,
        push_interval=args.push_interval,
    )
