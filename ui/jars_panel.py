"""Jars (FLIP-214): upload or add jars, see their UDF classes, create functions, remove jars."""
from __future__ import annotations

import streamlit as st

from gateway import GatewayError


def _report(action) -> None:
    """Run a gateway call from a button; keep its outcome for the next render."""
    try:
        st.session_state.jar_notice = ("success", action())
    except GatewayError as exc:
        st.session_state.jar_notice = ("error", exc.message)


def _add_uri(gateway, session) -> None:
    uri = st.session_state.get("jar_uri", "").strip()
    _report(lambda: f"Added {gateway.add_jar(session, uri).name}.")


def _remove(gateway, session, uri: str) -> None:
    def remove():
        stopped = gateway.remove_jar(session, uri)
        return f"Removed {uri}." + (f" These functions stop working here: {', '.join(stopped)}." if stopped else "")
    _report(remove)


def _create(gateway, session, jar_uri: str, class_name: str, kind: str, key: str) -> None:
    name = st.session_state.get(f"fn_name_{key}", "").strip()
    temporary = st.session_state.get(f"fn_scope_{key}", "Temporary") == "Temporary"
    language = "PYTHON" if kind == "Python function" else "JAVA"

    def create():
        gateway.create_function(session, name, class_name, jar_uri, temporary=temporary, language=language)
        return f"Created the {'temporary' if temporary else 'persistent'} function {name} ({class_name})."
    _report(create)


def render_add(gateway, session) -> None:
    """Upload by drag and drop, or add by path or URI; then the outcome of the last action."""
    upload = st.file_uploader("Upload a jar (drag and drop)", type=["jar", "py", "zip", "whl"], key="jar_upload")
    if upload is not None and st.session_state.get("jar_uploaded") != upload.file_id:
        st.session_state.jar_uploaded = upload.file_id  # a rerun must not upload it again
        _report(lambda: f"Uploaded {gateway.upload_jar(session, upload.name, upload.getvalue()).name} "
                        f"and added it to this session.")
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    left.text_input("Add a jar by path or URI", key="jar_uri",
                    placeholder="/opt/udfs/my-udfs.jar, https://…/udfs.jar, hdfs:///udfs/udfs.jar, s3a://…")
    right.button("Add jar", key="add_jar", on_click=_add_uri, args=(gateway, session))
    if notice := st.session_state.pop("jar_notice", None):
        (st.success if notice[0] == "success" else st.error)(notice[1])


def render_jars(gateway, session) -> None:
    """One box per jar: where it came from, who uses it, Remove, and a Create row per UDF class."""
    jars = gateway.list_jars(session)
    if not jars:
        st.info("This session has no jars yet. Upload one, or add one by URI; then create functions from its classes.")
    for jar in jars:
        with st.container(border=True):
            head, action = st.columns([5, 1], vertical_alignment="center")
            head.markdown(f"**{jar.name}**  \n`{jar.uri}`")
            head.caption(f"{jar.size_bytes:,} bytes · sha256 {jar.sha256[:12]} · used by: "
                         f"{', '.join(jar.functions) if jar.functions else 'no function yet'}")
            action.button("Remove", key=f"remove_{jar.sha256[:12]}", on_click=_remove, args=(gateway, session, jar.uri))
            try:
                classes = gateway.list_udf_classes(session, jar.uri)
            except GatewayError as exc:
                st.error(exc.message)
                continue
            if not classes:
                st.caption("No UDF classes found in this jar.")
            for index, udf in enumerate(classes):
                key = f"{jar.sha256[:12]}_{index}"
                cls, name, scope, go = st.columns([3, 2, 2, 1], vertical_alignment="bottom")
                cls.markdown(f"`{udf.class_name}`  \n{udf.kind}")
                name.text_input("Function name", value=udf.suggested_name, key=f"fn_name_{key}")
                scopes = ["Temporary"] if udf.kind == "Python function" else ["Temporary", "Persistent"]
                scope.selectbox("Kind", scopes, key=f"fn_scope_{key}")
                go.button("Create", key=f"create_{key}", on_click=_create,
                          args=(gateway, session, jar.uri, udf.class_name, udf.kind, key))
