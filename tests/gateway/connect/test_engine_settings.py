"""engine.kind and engine.url: the default stays embedded; a bad value says what is wrong and the form
expected, and never echoes a token."""
from __future__ import annotations

import pytest

from gateway import load_config
from gateway.config import connect_url, engine_kind
from gateway.errors import ConfigurationError


def _config(**environ):
    return load_config(None, environ={f"WORKBENCH_ENGINE_{k.upper()}": v for k, v in environ.items()})


def test_the_default_engine_is_embedded():
    assert engine_kind(load_config(None, environ={})) == "embedded"


@pytest.mark.parametrize("url", ["sc://127.0.0.1:15002", "sc://spark.example.com", "sc://h:443/;use_ssl=true;token=abc",
                                 "sc://[::1]:15002/", "sc://h:15002/;user_id=ann"])
def test_good_connect_urls(url):
    assert engine_kind(_config(kind="connect", url=url)) == "connect"


# -- negative cases ---------------------------------------------------------------------------

def test_an_unknown_engine_kind_names_the_choices():
    with pytest.raises(ConfigurationError, match="engine.kind .*'kubernetes'.*embedded, connect"):
        engine_kind(_config(kind="kubernetes"))


@pytest.mark.parametrize("url, what", [
    ("", "is empty"),
    ("http://h:15002", "not sc://"),
    ("h:15002", "no sc:// scheme"),
    ("sc://h:15002/db", "has the path '/db'"),
    ("sc://h:15002/?token=x", "query"),
    ("sc://:15002", "names no host"),
    ("sc://h:port", "port that is not a number"),
    ("sc://h:99999", "port that is not a number"),
    ("sc://h:15002/;token", "not one key=value pair"),
    ("sc://h:15002/;use_ssl=yes", "use_ssl that is neither true nor false"),
    ("sc://h:15002/;token=", "empty token"),
])
def test_a_bad_connect_url_says_what_is_wrong_and_the_form_expected(url, what):
    with pytest.raises(ConfigurationError) as caught:
        engine_kind(_config(kind="connect", url=url))
    message = str(caught.value)
    assert what in message and "sc://host:port/;token=" in message and "WORKBENCH_ENGINE_URL" in message


def test_the_error_never_shows_the_token():
    with pytest.raises(ConfigurationError) as caught:
        connect_url(_config(kind="connect", url="sc://h:15002/db;token=s3cret"))
    assert "s3cret" not in str(caught.value)


def test_a_bad_url_stops_the_gateway_before_anything_starts(tmp_path):
    from gateway import GatewayService

    config = load_config(None, environ={}).with_overrides(data_dir=str(tmp_path), engine__kind="connect",
                                                          engine__url="sc//h:1")
    with pytest.raises(ConfigurationError, match="engine.url"):
        GatewayService(config)
