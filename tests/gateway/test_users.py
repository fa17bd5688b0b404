"""Users, passwords and API tokens in the workbench store, the `python -m gateway users|tokens`
commands, and the refusal of a non-loopback bind without authentication. No Spark here: the
store works without it, and a refused start must fail before Spark would start."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from gateway import AuthenticationError, ConfigurationError, InvalidRequestError, ObjectNotFoundError
from gateway.config import auth_mode, load_config
from gateway.rest import check_bind, check_workbench_bind
from gateway.store import WorkbenchStore, default_url
from gateway.store.users import TOKEN_PREFIX, password_matches

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path):
    opened = WorkbenchStore(default_url(tmp_path))
    yield opened
    opened.close()


def _environment(tmp_path, extra_env=None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env["WORKBENCH_DATA_DIR"] = str(tmp_path)
    env.update(extra_env or {})
    return env


def _cli_process(tmp_path, *args, stdin: str = "", extra_env=None) -> subprocess.CompletedProcess:
    """``python -m gateway ARGS`` as a process of its own (a start that must stop before Spark, bounded)."""
    return subprocess.run([sys.executable, "-m", "gateway", *args], cwd=ROOT, env=_environment(tmp_path, extra_env),
                          input=stdin, capture_output=True, text=True, timeout=120)


def _cli(tmp_path, *args, stdin: str = "", extra_env=None) -> subprocess.CompletedProcess:
    """``python -m gateway users|tokens ARGS`` run by the module's own ``main`` in this process, with that
    environment, stdin and captured output: the same code as the command, without a Python start and the
    gateway's imports for each call (15-18 s each on the loaded test machine; the file's seventeen took most of it).
    ``test_serve_refuses_a_non_loopback_bind_without_auth`` runs ``python -m gateway`` as a process."""
    import contextlib
    import io

    from gateway.__main__ import main

    assert args[0] in ("users", "tokens"), "only the account commands run in this process"
    out, err = io.StringIO(), io.StringIO()
    # only the WORKBENCH_ variables change (the settings), and back after: nothing else of the process sees a gap
    wanted = {k: v for k, v in _environment(tmp_path, extra_env).items() if k.startswith("WORKBENCH_")}
    saved = {k: v for k, v in os.environ.items() if k.startswith("WORKBENCH_")}
    saved_stdin = sys.stdin
    for name in set(saved) - set(wanted):
        del os.environ[name]
    os.environ.update(wanted)
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exit_:  # argparse's refusals
                code = exit_.code
    finally:
        sys.stdin = saved_stdin
        for name in set(wanted) - set(saved):
            del os.environ[name]
        os.environ.update(saved)
    return subprocess.CompletedProcess(["python", "-m", "gateway", *args], code, out.getvalue(), err.getvalue())


# -- the store -----------------------------------------------------------------------------------------

def test_passwords_are_kept_as_scrypt_hashes_and_checked(store):
    store.add_user("alice", "correct horse")
    with store.engine.connect() as connection:
        stored = connection.execute(sa.text("SELECT password_hash FROM users WHERE name = 'alice'")).scalar_one()
    assert stored.startswith("scrypt$32768$8$1$") and "correct horse" not in stored
    assert store.check_password("alice", "correct horse").name == "alice"
    for name, password in (("alice", "wrong horse!"), ("nobody", "correct horse"), ("alice", "")):
        with pytest.raises(AuthenticationError, match="user name or the password is wrong"):
            store.check_password(name, password)
    store.add_user("alice", "another horse")  # a new password replaces the old one
    with pytest.raises(AuthenticationError):
        store.check_password("alice", "correct horse")
    assert store.check_password("alice", "another horse").admin is False
    assert not password_matches("x", None)


def test_admins_removal_and_listing(store):
    store.add_user("bob", "password-b")
    store.add_user("carol", "password-c", admin=True)
    assert [(u.name, u.admin) for u in store.list_users()] == [("bob", False), ("carol", True)]
    assert store.set_admin("bob").admin is True
    assert store.set_admin("bob", False).admin is False
    token, _ = store.create_token("bob", "laptop")
    store.open_tab("bob", "draft", "SELECT 1")
    store.remove_user("bob")
    assert [u.name for u in store.list_users()] == ["carol"]
    with pytest.raises(AuthenticationError):
        store.check_password("bob", "password-b")
    with pytest.raises(AuthenticationError):
        store.authenticate_token(token)
    assert store.list_tabs("bob") == []
    with pytest.raises(ObjectNotFoundError, match="does not exist"):
        store.set_admin("bob")
    with pytest.raises(ObjectNotFoundError, match="users list"):
        store.remove_user("bob")
    store.add_user("bob", "password-b2")  # back, with a new password and no admin flag
    assert store.check_password("bob", "password-b2").admin is False


def test_tokens_are_stored_hashed_revocable_and_record_their_last_use(store):
    store.add_user("dave", "password-d")
    token, record = store.create_token("dave", "ci")
    assert token.startswith(TOKEN_PREFIX) and len(token) > 40
    with store.engine.connect() as connection:
        hashes = connection.execute(sa.text("SELECT token_hash FROM api_tokens")).scalars().all()
    assert token not in hashes and len(hashes[0]) == 64
    assert store.list_tokens("dave")[0].last_used_at is None
    assert store.authenticate_token(token).name == "dave"
    used = store.list_tokens("dave")[0]
    assert used.last_used_at is not None and used.label == "ci" and used.revoked_at is None
    with pytest.raises(AuthenticationError, match="wrong, revoked"):
        store.authenticate_token(token + "x")
    assert store.revoke_token(record.token_id, "dave").revoked_at is not None
    with pytest.raises(AuthenticationError):
        store.authenticate_token(token)
    with pytest.raises(ObjectNotFoundError):
        store.revoke_token(record.token_id, "someone-else")
    with pytest.raises(ObjectNotFoundError, match="users add"):
        store.create_token("nobody", "")


def test_bad_passwords_and_names_are_refused_with_what_to_do(store):
    with pytest.raises(InvalidRequestError, match="at least 8"):
        store.add_user("erin", "short")
    with pytest.raises(InvalidRequestError, match="user name is empty"):
        store.add_user("  ", "long enough")
    assert store.list_users() == []


# -- the commands --------------------------------------------------------------------------------------

def test_users_and_tokens_commands(tmp_path):
    added = _cli(tmp_path, "users", "add", "alice", stdin="s3cret-password\n")
    assert added.returncode == 0, added.stderr
    assert _cli(tmp_path, "users", "add", "bob", stdin="bob-password\n").returncode == 0
    assert _cli(tmp_path, "users", "set-admin", "alice").returncode == 0
    listed = _cli(tmp_path, "users", "list")
    assert listed.returncode == 0
    assert [line.split("\t")[:2] for line in listed.stdout.splitlines()] == [["alice", "admin"], ["bob", "user"]]
    created = _cli(tmp_path, "tokens", "create", "bob", "--label", "scripts")
    assert created.returncode == 0, created.stderr
    token = created.stdout.splitlines()[-1]
    assert token.startswith(TOKEN_PREFIX) and " " not in token
    store = WorkbenchStore(default_url(tmp_path))
    try:
        assert store.check_password("alice", "s3cret-password").admin
        assert store.authenticate_token(token).name == "bob"
        token_id = store.list_tokens("bob")[0].token_id
    finally:
        store.close()
    tokens = _cli(tmp_path, "tokens", "list", "bob")
    assert token_id in tokens.stdout and "live" in tokens.stdout and token not in tokens.stdout
    assert _cli(tmp_path, "tokens", "revoke", token_id).returncode == 0
    assert "revoked" in _cli(tmp_path, "tokens", "list").stdout
    assert _cli(tmp_path, "users", "remove", "bob").returncode == 0
    assert [line.split("\t")[0] for line in _cli(tmp_path, "users", "list").stdout.splitlines()] == ["alice"]


def test_commands_say_what_is_wrong(tmp_path):
    empty = _cli(tmp_path, "users", "add", "frank", stdin="")
    assert empty.returncode == 2 and "no password on standard input" in empty.stderr
    short = _cli(tmp_path, "users", "add", "frank", stdin="abc\n")
    assert short.returncode == 2 and "at least 8" in short.stderr
    missing = _cli(tmp_path, "users", "set-admin", "nobody")
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    no_user = _cli(tmp_path, "tokens", "create", "nobody")
    assert no_user.returncode == 2 and "users add nobody" in no_user.stderr


# -- binds and the mode --------------------------------------------------------------------------------

def test_auth_mode_is_checked():
    assert auth_mode(load_config(environ={})) == "none"
    assert auth_mode(load_config(environ={"WORKBENCH_AUTH_MODE": "BuiltIn"})) == "builtin"
    with pytest.raises(ConfigurationError, match="use one of none, builtin, proxy, oidc"):
        auth_mode(load_config(environ={"WORKBENCH_AUTH_MODE": "ldap"}))
    with pytest.raises(ConfigurationError, match="auth.trusted_proxies"):
        auth_mode(load_config(environ={"WORKBENCH_AUTH_MODE": "proxy"}))
    with pytest.raises(ConfigurationError, match="not an IP address"):
        auth_mode(load_config(environ={"WORKBENCH_AUTH_MODE": "proxy", "WORKBENCH_AUTH_TRUSTED_PROXIES": '["proxy"]'}))
    assert auth_mode(load_config(environ={"WORKBENCH_AUTH_MODE": "proxy",
                                          "WORKBENCH_AUTH_TRUSTED_PROXIES": '["10.0.0.0/8"]'})) == "proxy"


def test_non_loopback_binds_need_authentication():
    with pytest.raises(ConfigurationError, match="without authentication"):
        check_workbench_bind("0.0.0.0", "none")
    with pytest.raises(ConfigurationError, match="WORKBENCH_AUTH_MODE"):
        check_bind("192.0.2.1", None, "none")
    for mode in ("builtin", "proxy", "oidc"):
        check_workbench_bind("0.0.0.0", mode)
        check_bind("0.0.0.0", None, mode)
    check_workbench_bind("127.0.0.1", "none")


@pytest.mark.parametrize("how", [["--server.address", "0.0.0.0"], ["--server.address="], ["--server.address=10.1.2.3"]])
def test_the_workbench_refuses_a_non_loopback_bind_without_auth_before_spark(tmp_path, how):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(WORKBENCH_DATA_DIR=str(tmp_path), WORKBENCH_REST_ENABLED="true")
    result = subprocess.run([sys.executable, "launch.py", *how, "--server.port", "1"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert "refusing to serve the workbench" in result.stderr and "auth.mode" in result.stderr
    assert not (tmp_path / "metastore").exists()  # Spark never started
    assert "log4j" not in result.stderr and "SparkContext" not in result.stderr  # no JVM either


def test_the_workbench_script_hands_workbench_host_to_the_check():
    """./workbench passes WORKBENCH_HOST as --server.address to launch.py, which checks it (above).
    (The script itself is not run here: it installs the environment on its first run.)"""
    script = (ROOT / "workbench").read_text()
    assert 'launch.py' in script and '--server.address "${WORKBENCH_HOST:-127.0.0.1}"' in script


def test_serve_refuses_a_non_loopback_bind_without_auth(tmp_path):
    result = _cli_process(tmp_path, "serve", "--host", "0.0.0.0", "--port", "1")
    assert result.returncode == 2 and "WORKBENCH_AUTH_MODE" in result.stderr
    assert not (tmp_path / "metastore").exists()
