"""``python -m gateway users …`` and ``python -m gateway tokens …``: manage the workbench's users and
their REST API tokens in the workbench store, without starting Spark.

    users add NAME [--admin]        the password is read from standard input (one line)
    users remove NAME
    users list
    users set-admin NAME [--off]
    tokens create NAME [--label L]  prints the new token alone on its last line
    tokens list [NAME]
    tokens revoke TOKEN_ID
"""
from __future__ import annotations

import argparse
import getpass
import sys

from gateway.config import WorkbenchConfig
from gateway.errors import GatewayError


def add_parsers(commands) -> None:
    users = commands.add_parser("users", help="manage users (auth.mode builtin: with passwords)")
    users_cmd = users.add_subparsers(dest="action", required=True)
    add = users_cmd.add_parser("add", help="add a user, or give one a new password (read from stdin)")
    add.add_argument("name")
    add.add_argument("--admin", action="store_true", help="make the user an admin")
    add.add_argument("--no-password", action="store_true",
                     help="no password (a proxy or OIDC user, who logs in through the proxy or provider)")
    remove = users_cmd.add_parser("remove", help="the user can no longer log in; its history stays")
    remove.add_argument("name")
    users_cmd.add_parser("list", help="list the users")
    admin = users_cmd.add_parser("set-admin", help="make a user an admin (--off: no longer)")
    admin.add_argument("name")
    admin.add_argument("--off", action="store_true")
    for parser in (add, remove, users_cmd.choices["list"], admin):
        parser.add_argument("--config", help="configuration file")

    tokens = commands.add_parser("tokens", help="manage REST API tokens")
    tokens_cmd = tokens.add_subparsers(dest="action", required=True)
    create = tokens_cmd.add_parser("create", help="a new token for the user, printed alone on the last line")
    create.add_argument("name")
    create.add_argument("--label", default="", help="what the token is for (shown by tokens list)")
    listing = tokens_cmd.add_parser("list", help="tokens (of one user), with their last use")
    listing.add_argument("name", nargs="?")
    revoke = tokens_cmd.add_parser("revoke", help="revoke a token by its id (from tokens list)")
    revoke.add_argument("token_id")
    for parser in (create, listing, revoke):
        parser.add_argument("--config", help="configuration file")


def _read_password() -> str:
    if sys.stdin.isatty():
        first = getpass.getpass("password: ")
        if getpass.getpass("again: ") != first:
            raise GatewayError("the two passwords differ; nothing was changed")
        return first
    line = sys.stdin.readline()
    if not line:
        raise GatewayError("no password on standard input; pipe one line, e.g. `printf '%s\\n' \"$PW\" | "
                           "python -m gateway users add NAME`")
    return line.rstrip("\r\n")


def _when(moment) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC") if moment else "never"


def run(args: argparse.Namespace, config: WorkbenchConfig) -> int:
    from gateway.store import WorkbenchStore, default_url

    store = WorkbenchStore(config["store.url"] or default_url(config.data_dir), config["store.max_text_chars"])
    try:
        if args.command == "users":
            return _users(args, store)
        return _tokens(args, store)
    finally:
        store.close()


def _users(args, store) -> int:
    if args.action == "add":
        password = None if args.no_password else _read_password()
        user = store.add_user(args.name, password, True if args.admin else None)
        print(f"user {user.name} {'(admin) ' if user.admin else ''}is ready"
              f"{'' if user.has_password else ' (no password: logs in through the proxy or provider)'}")
    elif args.action == "remove":
        store.remove_user(args.name)
        print(f"user {args.name} removed: it cannot log in, its tokens are revoked; its history stays")
    elif args.action == "list":
        for user in store.list_users():
            print(f"{user.name}\t{'admin' if user.admin else 'user'}\t"
                  f"{'password' if user.has_password else 'no password'}\tsince {_when(user.created_at)}")
    elif args.action == "set-admin":
        user = store.set_admin(args.name, not args.off)
        print(f"user {user.name} is {'an admin' if user.admin else 'no longer an admin'}")
    return 0


def _tokens(args, store) -> int:
    if args.action == "create":
        token, record = store.create_token(args.name, args.label)
        print(f"token {record.token_id} ({record.label}) for {record.user}; it is shown only now:")
        print(token)
    elif args.action == "list":
        for record in store.list_tokens(args.name):
            state = f"revoked {_when(record.revoked_at)}" if record.revoked_at else "live"
            print(f"{record.token_id}\t{record.user}\t{record.label}\t{state}\tlast used {_when(record.last_used_at)}")
    elif args.action == "revoke":
        record = store.revoke_token(args.token_id)
        print(f"token {record.token_id} of {record.user} is revoked")
    return 0
