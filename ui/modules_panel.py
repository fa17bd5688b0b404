"""Modules (FLIP-68): the session's modules in resolution order; reorder, use, unload, load."""
from __future__ import annotations

import streamlit as st

from gateway import GatewayError


def act(action, session, *args, done: str = "") -> None:
    """Run a module call from a button callback; remember its outcome for the next render."""
    try:
        action(session, *args)
        st.session_state.modules_notice = ("success", done)
    except GatewayError as exc:
        st.session_state.modules_notice = ("error", exc.message)


CORE = "core"


def _unload_core(gateway, session) -> None:
    st.session_state.pop("confirm_unload_core", None)
    act(gateway.unload_module, session, CORE, done="core unloaded: load it again with LOAD MODULE core")


def moved(order: list[str], name: str, step: int) -> list[str]:
    """``order`` with ``name`` moved ``step`` places (clamped to the ends)."""
    order = list(order)
    at = order.index(name)
    order.insert(max(0, min(len(order) - 1, at + step)), order.pop(at))
    return order


def show_notice() -> None:
    if notice := st.session_state.pop("modules_notice", None):
        (st.success if notice[0] == "success" else st.error)(notice[1])


def render_modules(gateway, session) -> list:
    """One box per module (used ones first, in order) with its buttons; returns the modules."""
    modules = gateway.list_modules(session, full=True)
    used = [m.name for m in modules if m.used]
    for module in modules:
        with st.container(border=True):
            info, up, down, use, unload = st.columns([6, 1, 1, 2, 2])
            place = f"#{module.position + 1}" if module.used else "unused"
            info.markdown(f"**{module.name}** · {module.type} {module.version} · {place} · "
                          f"{len(module.functions)} functions")
            if module.used:
                up.button("↑", key=f"up_{module.name}", disabled=module.position == 0, help="Resolve earlier",
                          on_click=act, args=(gateway.use_modules, session, moved(used, module.name, -1)),
                          kwargs={"done": f"{module.name} moved up"})
                down.button("↓", key=f"down_{module.name}", disabled=module.position == len(used) - 1,
                            help="Resolve later", on_click=act,
                            args=(gateway.use_modules, session, moved(used, module.name, 1)),
                            kwargs={"done": f"{module.name} moved down"})
                use.button("Stop using", key=f"use_{module.name}", disabled=len(used) == 1,
                           on_click=act, args=(gateway.use_modules, session, [n for n in used if n != module.name]),
                           kwargs={"done": f"{module.name} is loaded but no longer used"})
            else:
                use.button("Use", key=f"use_{module.name}", on_click=act,
                           args=(gateway.use_modules, session, used + [module.name]),
                           kwargs={"done": f"{module.name} is used, last in the order"})
            if module.name == CORE:
                # Core holds Spark's built-in functions: unloading it is rarely meant, so ask first.
                unload.button("Unload", key=f"unload_{module.name}", on_click=st.session_state.__setitem__,
                              args=("confirm_unload_core", True))
                if st.session_state.get("confirm_unload_core"):
                    st.warning("Unload **core**? Spark's built-in functions (`upper`, `sum`, `date_add`, …) stop "
                               "resolving in this session until you load it again (LOAD MODULE core).",
                               icon=":material/warning:")
                    yes, no = st.columns(2)
                    yes.button("Unload core", key="unload_core_confirmed", type="primary", on_click=_unload_core,
                               args=(gateway, session))
                    no.button("Keep core", key="unload_core_kept", on_click=st.session_state.pop,
                              args=("confirm_unload_core", None))
            else:
                unload.button("Unload", key=f"unload_{module.name}", on_click=act,
                              args=(gateway.unload_module, session, module.name),
                              kwargs={"done": f"{module.name} unloaded"})
            with st.expander(f"Functions of {module.name}"):
                st.write(", ".join(f"`{f}`" for f in module.functions) or "none")
                if module.properties:
                    st.json(module.properties, expanded=False)
    return modules


def render_load_form(gateway, session, modules: list) -> None:
    """Pick a module type, name it, fill in its properties, load it."""
    types = {t.type: t for t in gateway.list_module_types()}
    loaded = {m.name for m in modules}
    # Types not loaded yet come first: the form opens on something that can be loaded now.
    chosen = st.selectbox("Type", sorted(types, key=lambda t: t in loaded), key="load_type",
                          format_func=lambda t: f"{t} — {types[t].description}")
    with st.form("load_module"):
        name = st.text_input("Name", value=chosen, key=f"load_name_{chosen}", help="Case-insensitive; unique in the session")
        values = {}
        for spec in types[chosen].properties:
            label = spec.name + (" (required)" if spec.required else "")
            values[spec.name] = st.text_input(label, value=spec.default or "", help=spec.help,
                                              key=f"prop_{chosen}_{spec.name}")
        if not types[chosen].properties:
            st.caption("This type has no properties.")
        if st.form_submit_button("Load", type="primary"):
            properties = {"type": chosen, **{k: v for k, v in values.items() if v.strip()}}
            act(gateway.load_module, session, name.strip(), properties,
                done=f"{name.strip()} loaded, last in the order")
            st.rerun()
