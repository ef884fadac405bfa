"""E-mail through the SMTP server the operator names (``sequence serve --smtp-host ...``).

Messages are plain text with a one-click unsubscribe (RFC 8058's ``List-Unsubscribe`` and
``List-Unsubscribe-Post`` headers, and the link in the text). Sending runs in a worker thread
(``smtplib``), never on the event loop.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

SECURITY = ("starttls", "tls", "none")
"""How the connection to the SMTP server is secured: STARTTLS, TLS from the start, or not."""


@dataclass(frozen=True)
class MailConfig:
    """The operator's SMTP server, and who the e-mails are from."""

    host: str
    port: int = 587
    sender: str = "sequence@localhost"
    user: str | None = None
    password: str | None = None
    security: str = "starttls"
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if self.security not in SECURITY:
            raise ValueError(
                f"SMTP security is one of {', '.join(SECURITY)}, not {self.security!r}"
            )
        if not 0 < self.port < 65536:
            raise ValueError(f"the SMTP port is 1 to 65535, not {self.port}")


def build_message(
    config: MailConfig, to: str, subject: str, text: str, unsubscribe: str | None
) -> EmailMessage:
    """One e-mail: plain text, with the unsubscribe link as RFC 8058 asks (if given)."""
    message = EmailMessage()
    message["From"] = config.sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=config.sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe is not None:
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    return message


def _send(config: MailConfig, message: EmailMessage) -> None:
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if config.security == "tls":
        smtp = smtplib.SMTP_SSL(config.host, config.port, timeout=config.timeout, context=context)
    else:
        smtp = smtplib.SMTP(config.host, config.port, timeout=config.timeout)
    with smtp:
        if config.security == "starttls":
            smtp.starttls(context=context)
        if config.user is not None:
            smtp.login(config.user, config.password or "")
        smtp.send_message(message)


async def send_mail(config: MailConfig, message: EmailMessage) -> None:
    """Send ``message`` through the SMTP server (in a thread); raises what ``smtplib`` raises."""
    await asyncio.to_thread(_send, config, message)
