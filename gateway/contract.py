"""The gateway's contract: every call a front end (Streamlit UI, REST) makes, in one typed protocol.

Sectioned like Flink's ``SqlGatewayService``. ``gateway.core.service.GatewayService`` implements
the core sections itself; the feature sections are implemented by the built-in features
(``gateway/features/<name>/``), which contribute their calls through the plugin hook. A front
end imports this protocol and the value types exported by ``gateway`` — nothing else of the
gateway (``tests/test_layout.py`` enforces it), and builds no SQL text: a statement the UI
needs (a table preview, ANALYZE, SET) is a call here.

A call of a feature that is not installed raises ``FeatureNotInstalledError`` (HTTP 501).
"""
from __future__ import annotations

from typing import Any, Iterator, Optional, Protocol, runtime_checkable

from gateway.handles import OperationHandle, SessionHandle
from gateway.features.base import PageSpec
from gateway.identity import AdminSession, ApiToken, Principal, UserInfo
from gateway.models import (Candidate, Column, EditorTab, FunctionDetail, FunctionInfo, FunctionOrigin, HistoryEntry,
                            JarInfo, ModuleInfo, ModuleTypeInfo, OperationInfo, OperationProgress, ResultSet,
                            SavedQuery, StatementText, TableDetail, TableInfo, TableKind, UdfClass)


@runtime_checkable
class GatewayContract(Protocol):
    # ------------------------------------------------------------------------------------------
    # Sessions
    # ------------------------------------------------------------------------------------------

    def open_session(self, config: Optional[dict] = None, name: Optional[str] = None) -> SessionHandle:
        """A new isolated session: SQL conf, temp views and functions, current catalog/database."""

    def close_session(self, session: SessionHandle) -> None:
        """Close the session and all its operations."""

    def heartbeat(self, session: SessionHandle) -> None:
        """Keep an idle session alive; SessionNotFoundError once it is gone."""

    def get_session_config(self, session: SessionHandle) -> dict[str, str]:
        """Settings in force in this session."""

    def configure_session(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None) -> None:
        """Run one configuring statement (SET, RESET, USE, DDL, and the kinds features allow)."""

    def set_session_option(self, session: SessionHandle, key: str, value: str) -> None:
        """``SET key = value`` for this session, the key checked to be a plain setting name."""

    def reset_session_option(self, session: SessionHandle, key: Optional[str] = None) -> None:
        """``RESET key``; without a key every setting of the session goes back to its default."""

    def session_name(self, session: SessionHandle) -> str:
        """The name the session was opened with."""

    # ------------------------------------------------------------------------------------------
    # Operations
    # ------------------------------------------------------------------------------------------

    def get_operation_info(self, session: SessionHandle, operation: OperationHandle) -> OperationInfo:
        """Status, type and whether it has a result."""

    def get_operation_result_schema(self, session: SessionHandle, operation: OperationHandle,
                                    timeout_s: float = 30.0) -> list[Column]:
        """Result columns with type JSON, waiting until they are known."""

    def get_operation_progress(self, session: SessionHandle, operation: OperationHandle) -> OperationProgress:
        """Spark job and stage progress of a running operation."""

    def list_operations(self, session: SessionHandle) -> list[tuple[OperationHandle, OperationInfo]]:
        """The session's operations that are not closed, oldest first."""

    def cancel_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Stop a pending or running operation and its Spark jobs."""

    def close_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Stop it if needed and free its result buffer; the handle is gone afterwards."""

    # ------------------------------------------------------------------------------------------
    # Statements
    # ------------------------------------------------------------------------------------------

    def execute_statement(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None,
                          config: Optional[dict] = None) -> OperationHandle:
        """Run a statement or script asynchronously; the result is the last statement's."""

    def fetch_results(self, session: SessionHandle, operation: OperationHandle, token: int,
                      max_rows: Optional[int] = None) -> ResultSet:
        """Page ``token``: the same token replays, token + 1 moves on, others are errors."""

    def iter_results(self, session: SessionHandle, operation: OperationHandle, max_rows: Optional[int] = None,
                     timeout_s: float = 600.0) -> Iterator[ResultSet]:
        """Every page with rows or an end, in token order (NOT_READY answers retried)."""

    def split_statements(self, script: str) -> list[StatementText]:
        """The statements of a script with their kind, line and offset (what Run runs, one by one)."""

    def format_statement(self, script: str) -> str:
        """The script pretty-printed in Spark SQL, comments kept."""

    # ------------------------------------------------------------------------------------------
    # Catalog
    # ------------------------------------------------------------------------------------------

    def get_current_catalog(self, session: SessionHandle) -> str: ...

    def get_current_database(self, session: SessionHandle) -> str: ...

    def list_catalogs(self, session: SessionHandle) -> list[str]: ...

    def list_databases(self, session: SessionHandle, catalog: Optional[str] = None) -> list[str]: ...

    def list_tables(self, session: SessionHandle, catalog: Optional[str] = None, database: Optional[str] = None,
                    kind: TableKind = TableKind.ALL) -> list[TableInfo]: ...

    def list_functions(self, session: SessionHandle, catalog: Optional[str] = None,
                       database: Optional[str] = None, kind=None) -> list[FunctionInfo]: ...

    def get_table(self, session: SessionHandle, name: str) -> TableDetail: ...

    def get_table_ddl(self, session: SessionHandle, name: str) -> str:
        """SHOW CREATE TABLE of a table or view."""

    def get_function(self, session: SessionHandle, name: str) -> FunctionDetail: ...

    def preview_statement(self, session: SessionHandle, name: str, limit: int = 100) -> str:
        """The SELECT that shows the first ``limit`` rows of a table, quoted right (to open in an editor)."""

    def preview_table(self, session: SessionHandle, name: str, limit: int = 100) -> OperationHandle:
        """Run ``preview_statement``; fetch its rows like any operation."""

    def analyze_table(self, session: SessionHandle, name: str) -> None:
        """Compute the table's statistics for all columns (ANALYZE TABLE … COMPUTE STATISTICS)."""

    def create_sample_database(self, session: SessionHandle, database: str = "workbench_sample") -> list[str]:
        """A small database of related tables to try the workbench on; the session then USEs it."""

    # ------------------------------------------------------------------------------------------
    # Workspace: a user's editor tabs (drafts), saved queries and statement history, kept in the
    # workbench store (gateway/store/). ``user`` is LOCAL_USER while there is no authentication.
    # These calls need no Spark. Unknown ids raise ObjectNotFoundError (404); an empty name or a
    # text over store.max_text_chars raises InvalidRequestError (400); a store that cannot be
    # reached raises StoreUnavailableError (503).
    # ------------------------------------------------------------------------------------------

    def list_tabs(self, user: str) -> list[EditorTab]:
        """The user's open tabs, in order (position 0 first)."""

    def open_tab(self, user: str, title: Optional[str] = None, text: str = "") -> EditorTab:
        """A new tab at the end; the title defaults to "Query N" (one more than the highest N open)."""

    def save_tab_text(self, user: str, tab_id: str, text: str) -> EditorTab:
        """Keep the tab's draft (called, debounced, as the user types)."""

    def rename_tab(self, user: str, tab_id: str, title: str) -> EditorTab: ...

    def move_tab(self, user: str, tab_id: str, position: int) -> list[EditorTab]:
        """Put the tab at ``position`` (0-based), the others keeping their order; returns the new order."""

    def close_tab(self, user: str, tab_id: str) -> None:
        """Close the tab and forget its draft; the tabs after it move up."""

    def save_query(self, user: str, name: str, text: str, description: str = "",
                   query_id: Optional[str] = None) -> SavedQuery:
        """Save a new query, or update the saved query ``query_id``."""

    def list_saved_queries(self, user: str, search: str = "") -> list[SavedQuery]:
        """The user's saved queries by name; ``search`` matches name, description or text, any case."""

    def get_saved_query(self, user: str, query_id: str) -> SavedQuery: ...

    def delete_saved_query(self, user: str, query_id: str) -> None: ...

    def list_history(self, user: str, search: str = "", limit: int = 100,
                     before_id: Optional[int] = None) -> list[HistoryEntry]:
        """Statements run by the user's sessions, newest first; ``before_id`` pages back, ``search``
        matches the statement text in any case."""

    # ------------------------------------------------------------------------------------------
    # Identity (docs/users.md): authenticate a caller, then call through ``as_user(principal)``.
    # With a principal, another user's session or workspace does not exist (404); admin calls
    # need an admin (PermissionDeniedError, 403). Without one (in process, auth.mode none) the
    # caller is the single local user.
    # ------------------------------------------------------------------------------------------

    def as_user(self, principal: Principal) -> "GatewayContract":
        """The gateway as ``principal`` sees it: every call made through it is checked for that user."""

    def whoami(self) -> Principal:
        """The caller: the principal of ``as_user``, or the local user."""

    def authenticate_password(self, name: str, password: str, client: Optional[str] = None) -> Principal:
        """auth.mode builtin: the user whose password this is (AuthenticationError, 401, otherwise).
        ``client``: the caller's address; wrong ones in a row lock the name and the address a while
        (TooManyLoginsError, 429; settings auth.login_*)."""

    def authenticate_token(self, token: str) -> Principal:
        """The user of a live API token (AuthenticationError for a wrong or revoked one)."""

    def authenticate_trusted(self, name: str) -> Principal:
        """auth.mode proxy or oidc: the user a trusted proxy or provider named (made on first sight)."""

    def create_api_token(self, label: str = "") -> tuple[str, ApiToken]:
        """A new REST token for the caller: the token itself (shown once) and its record."""

    def list_api_tokens(self) -> list[ApiToken]:
        """The caller's tokens, revoked ones too, with their last use."""

    def revoke_api_token(self, token_id: str) -> ApiToken:
        """Revoke one of the caller's tokens (an admin: anyone's)."""

    def list_users(self) -> list[UserInfo]:
        """Admins: every user."""

    def add_user(self, name: str, password: Optional[str] = None, admin: bool = False) -> UserInfo:
        """Admins: add a user, or give one a new password."""

    def remove_user(self, name: str) -> None:
        """Admins: the user can no longer log in; its tokens, tabs and saved queries go, its history stays."""

    def set_user_admin(self, name: str, admin: bool = True) -> UserInfo:
        """Admins: make a user an admin, or no longer one."""

    # ------------------------------------------------------------------------------------------
    # Admin: every user's sessions and running statements (PermissionDeniedError for non-admins).
    # ------------------------------------------------------------------------------------------

    def admin_list_sessions(self) -> list[AdminSession]:
        """Every open session with its user, age, idle time and operations not yet ended (statement, age,
        Spark progress)."""

    def admin_cancel_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        """Cancel any user's operation."""

    def admin_close_session(self, session: SessionHandle) -> None:
        """Close any user's session and its operations."""

    # ------------------------------------------------------------------------------------------
    # Completion (feature: completion)
    # ------------------------------------------------------------------------------------------

    def complete_statement(self, session: SessionHandle, statement: str, position: int) -> list[str]:
        """Completion candidates at ``position`` (their text only, as Flink answers)."""

    def complete_candidates(self, session: SessionHandle, statement: str, position: int) -> list[Candidate]:
        """Completion candidates with kind and detail (column type, function signature)."""

    def warm_completion(self, session: SessionHandle) -> None:
        """Start loading the session's completion cache in the background."""

    def refresh_completion(self, session: SessionHandle) -> None:
        """Drop the session's completion cache (the catalog changed behind the gateway's back)."""

    def completion_dictionary(self, session: SessionHandle, columns_of: Optional[list[str]] = None) -> dict:
        """What an editor needs to complete on its own: ``relations``, ``databases``, ``catalogs``,
        ``functions`` (with signatures), ``table_functions``, ``keywords`` (candidates as JSON) and,
        for each name of ``columns_of``, ``columns[name]`` (its columns, or None: no such table)."""

    # ------------------------------------------------------------------------------------------
    # Modules (feature: modules, FLIP-68)
    # ------------------------------------------------------------------------------------------

    def list_modules(self, session: SessionHandle, full: bool = False) -> list[ModuleInfo]:
        """Used modules in resolution order (``full``: then the unused ones)."""

    def load_module(self, session: SessionHandle, name: str, properties: Optional[dict] = None) -> ModuleInfo:
        """LOAD MODULE: create a module (type = ``properties['type']``, else the name) and append it."""

    def unload_module(self, session: SessionHandle, name: str) -> None:
        """UNLOAD MODULE: the others keep their relative order."""

    def use_modules(self, session: SessionHandle, names: list[str]) -> None:
        """USE MODULES: exactly these loaded modules, in this order; the rest stay loaded, unused."""

    def list_module_types(self) -> list[ModuleTypeInfo]:
        """Module types LOAD MODULE knows (shipped and from entry points), with their properties."""

    def function_origin(self, session: SessionHandle, name: str) -> Optional[FunctionOrigin]:
        """The module (and version) that resolves a function name in this session, if any."""

    # ------------------------------------------------------------------------------------------
    # Jars and function resources (feature: jars, FLIP-214)
    # ------------------------------------------------------------------------------------------

    def list_jars(self, session: SessionHandle) -> list[JarInfo]:
        """This session's jars (not the JVM's), each with the functions that use it."""

    def add_jar(self, session: SessionHandle, uri: str) -> JarInfo:
        """ADD JAR: a path, file://, http(s)://, hdfs:// or s3a:// URI, copied into the jar store."""

    def remove_jar(self, session: SessionHandle, uri: str) -> list[str]:
        """REMOVE JAR for this session; returns the functions that stop resolving here."""

    def upload_jar(self, session: SessionHandle, filename: str, data: bytes) -> JarInfo:
        """Validate, store by content hash and add an uploaded jar (or .py/.zip/.whl)."""

    def list_udf_classes(self, session: SessionHandle, jar: str) -> list[UdfClass]:
        """Classes in one of the session's jars that CREATE FUNCTION can use."""

    def create_function(self, session: SessionHandle, name: str, class_name: str, jar: str,
                        temporary: bool = True, language: str = "JAVA") -> None:
        """CREATE [TEMPORARY] FUNCTION name AS class USING JAR jar, quoted right."""

    # ------------------------------------------------------------------------------------------
    # Compiled plans (feature: plans, FLIP-190)
    # ------------------------------------------------------------------------------------------

    def compile_plan(self, session: SessionHandle, statement: str, path: Optional[str] = None,
                     overwrite: bool = False) -> dict:
        """The plan of a SELECT, INSERT or CTAS (nothing runs); written to ``path`` when given."""

    def execute_plan(self, session: SessionHandle, plan: str) -> OperationHandle:
        """Run a plan file as ``EXECUTE PLAN 'file'`` does, asynchronously like ``execute_statement``: the
        plan's statement runs only if nothing it depends on changed, else the operation's error says what."""

    def explain_plan(self, session: SessionHandle, plan) -> dict:
        """A plan (file name or dict) and its differences from the session now: ``{plan, differences, path}``."""

    def load_plan(self, path: str) -> dict:
        """A plan file, validated (format and version)."""

    def list_plans(self) -> list[str]:
        """Plan files under the plans directory, relative names."""

    def diff_plans(self, left, right) -> dict:
        """Differences of two plans (file names or dicts): changes, text diffs, one-sided nodes."""

    def plan_text(self, plan: dict, which: str = "optimized") -> str:
        """The text of a plan's ``analyzed`` or ``optimized`` section."""

    def plan_graph(self, plan: dict, which: str = "optimized", highlight: tuple = (),
                   highlight_color: Optional[str] = None) -> str:
        """A plan section as a Graphviz DOT graph, the nodes in ``highlight`` filled."""

    # ------------------------------------------------------------------------------------------
    # Utilities
    # ------------------------------------------------------------------------------------------

    def get_gateway_info(self) -> dict[str, Any]:
        """Product and Spark versions, master, metastore, data directory, installed features, the store."""

    def get_health(self) -> dict[str, Any]:
        """``status`` UP or DOWN (the Spark driver JVM has stopped: ``reason`` says what happened), and the
        driver heap's figures. Never raises: a dead driver is reported here, not hidden."""

    def get_setting(self, key: str) -> Any:
        """A workbench setting's value (``session.idle_timeout_s``, …)."""

    def list_feature_pages(self) -> list[PageSpec]:
        """The Streamlit pages of the installed features, in menu order."""
