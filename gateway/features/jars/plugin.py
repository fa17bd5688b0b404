"""The jars feature (FLIP-214): per-session jars, CREATE FUNCTION … USING JAR, REMOVE JAR, SHOW JARS;
its settings, statements, calls, REST routes and page."""
from __future__ import annotations

from gateway.config import Setting
from gateway.core.statements import StatementKind
from gateway.api.plugins import Access, Feature, PageSpec, StatementSpec
from gateway.features.jars.api import JarsApi
from gateway.features.jars.resources import JARS, REMOVE_JAR, SHOW_JARS, JarResources, ResourceManager, _manager
from gateway.features.jars.function_sql import create_function_statement
from gateway.models import JarInfo, UdfClass


class JarsFeature(Feature):
    name = JARS
    api = JarsApi
    description = "Jars and functions from jars, kept per session (FLIP-214)."
    settings = (
        Setting("jars.upload_max_bytes", 100 * 1024 * 1024, "Largest jar (or .py/.zip/.whl) an upload may be."),
        Setting("jars.download_max_bytes", 200 * 1024 * 1024,
                "Largest jar fetched from an http(s)://, hdfs:// or s3a:// URI."),
        Setting("jars.download_timeout_s", 60.0, "Most time the download of a jar from an http(s):// URI may take in all (a slow or stalled server is cut off then); a cancel stops it at once."),
    )
    statements = (
        StatementSpec(REMOVE_JAR, (("REMOVE", "JAR"), ("REMOVE", "JARS")), configures=True, access=Access.USERS,
                      journaled=True, takes_resources=True),
        StatementSpec(SHOW_JARS, (("SHOW", "JARS"), ("LIST", "JAR"), ("LIST", "JARS")), returns_rows=True,
                      read_only=True, access=Access.USERS),
    )
    pages = (PageSpec("pages/jars.py", "Jars", ":material/inventory_2:", order=40),)

    def start(self, host) -> None:
        super().start(host)
        self.resources = JarResources(host.config, host.root)

    def handlers(self):
        return {StatementKind.ADD_JAR: self.resources.add_jar, REMOVE_JAR: self.resources.remove_jar,
                SHOW_JARS: self.resources.show_jars, StatementKind.CREATE_FUNCTION: self.resources.create_function}

    def check_statement(self, session, statement) -> None:
        self.resources.check_statement(session, statement)

    def preparers(self):
        return {StatementKind.ADD_JAR: self.resources.prefetch, StatementKind.CREATE_FUNCTION: self.resources.prefetch}

    def open_session(self, session) -> None:
        self.resources.open(session)

    def close_session(self, session) -> None:
        self.resources.close(session)

    def describe_function(self, session, detail, name: str):
        manager = session.extensions.get(JARS)
        if manager is not None:
            detail.resources, detail.language = manager.function_resources(detail)
        return detail

    # -- contract calls ------------------------------------------------------------------------

    def calls(self):
        return {"list_jars": self.list_jars, "add_jar": self.add_jar, "remove_jar": self.remove_jar,
                "upload_jar": self.upload_jar, "list_udf_classes": self.list_udf_classes,
                "create_function": self.create_function}

    def _locked(self, session, call):
        """Run a jar call between the session's statements, never in the middle of one."""
        with self.host.between_statements(session) as owner:
            return call(_manager(owner))

    def manager(self, session) -> ResourceManager:
        return _manager(self.host.session(session))

    def list_jars(self, session) -> list[JarInfo]:
        return self.manager(session).list_jars()

    def add_jar(self, session, uri: str) -> JarInfo:
        self.manager(session).prefetch(uri)  # a remote jar's download holds none of the session's statements
        return self._locked(session, lambda jars: jars.add_jar(uri))

    def remove_jar(self, session, uri: str) -> list[str]:
        return self._locked(session, lambda jars: jars.remove_jar(uri))

    def upload_jar(self, session, filename: str, data: bytes) -> JarInfo:
        return self._locked(session, lambda jars: jars.upload_jar(filename, data))

    def list_udf_classes(self, session, jar: str) -> list[UdfClass]:
        return self.manager(session).udf_classes(jar)

    def create_function(self, session, name: str, class_name: str, jar: str, temporary: bool = True,
                        language: str = "JAVA") -> None:
        statement = create_function_statement(name, class_name, temporary, [jar], language)
        self.host.configure(session, statement)

    def rest_routers(self):
        from gateway.features.jars.rest import router
        return [router]

