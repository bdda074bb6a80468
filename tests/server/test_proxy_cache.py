"""The cluster recipe's cache (README, "More than one process"): the real HAProxy and nginx of
`make serve-cluster` (scripts/serve_cluster.py's configurations) in front of two real app
processes on one PostgreSQL database, over plain HTTP and over HTTPS.

Each poll comes from a phone of its own (its own loopback address, as at the venue), so the
per-address limits see phones, not one test client polling hundreds of times a second. A
phone's poll of a feed answer is answered by the proxy's cache (`X-Cache: HIT`)
with what another phone's poll fetched, also when every phone sends its ETag (a 304 from the
cache); a result saved shows through the cache within its second (the polled ETag changes,
the answer shows the table played); and a Standings page over the websocket works through the
proxy."""

from __future__ import annotations

import contextlib
import gzip
import http.client
import itertools
import json
import ssl
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from scripts import serve_cluster
from stsa import store, tls
from tests.conftest import TEMPLATE_DB
from tests.server.conftest import assert_clean
from tests.server.test_feed import _result as a_valid_result
from tests.support.appserver import AppServer, free_port, started
from tests.support.haproxy import cluster_proxy, needs_haproxy, needs_nginx, until
from tests.support.store_helpers import JUDGE, published_sitting

pytestmark = [pytest.mark.server, pytest.mark.postgres, needs_haproxy, needs_nginx]

SCHEMES = ["http", "https"]


@dataclass
class Proxied:
    """HAProxy in front of the apps, as `connect` (tests/server/conftest.py) takes an app."""

    url: str
    ssl: ssl.SSLContext | None
    apps: tuple[AppServer, ...]

    def output(self) -> str:
        return "\n".join(app.output() for app in self.apps)

    def connection(self, source: str) -> http.client.HTTPConnection:
        """A connection to the proxy from address `source`."""
        parts = urllib.parse.urlsplit(self.url)
        if self.ssl is not None:
            return http.client.HTTPSConnection(parts.hostname, parts.port, context=self.ssl,
                                               timeout=30, source_address=(source, 0))
        return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30,
                                          source_address=(source, 0))


@dataclass
class Cluster:
    proxies: dict[str, Proxied]  # by scheme
    database_url: str
    key: str  # the tournament's, in the feed's addresses
    tables: list[int]  # the published sitting's tables: one saved per scheme


@pytest.fixture(scope="module")
def cluster(pg_server, tmp_path_factory) -> Iterator[Cluster]:
    """Two app processes on one new PostgreSQL database (a published sitting of two tables),
    each trusting the proxy's address, and two HAProxies in front of both: plain HTTP, and
    HTTPS with a certificate made here."""
    root = tmp_path_factory.mktemp("cluster")
    name = pg_server.create_database(template=TEMPLATE_DB)
    url = pg_server.url(name)
    engine = store.connect(url)
    try:
        _, tables = published_sitting(engine, 8)
        key = str(store.tournaments(engine)["key"].iloc[0])
    finally:
        engine.dispose()
    certificate = tls.make_certificate(root / "tls", ["localhost", "127.0.0.1"])
    pem = serve_cluster.tls_pem(certificate.cert_path.parent, root / "run")
    trusted = {"STSA_TRUSTED_PROXY": serve_cluster.PROXY_ADDRESS}
    try:
        with started(root / "a", database_url=url, env=trusted) as a, \
                started(root / "b", database_url=url, env=trusted) as b, \
                contextlib.ExitStack() as stack:
            backends = [urllib.parse.urlsplit(app.url).port or 0 for app in (a, b)]
            proxies = {}
            for scheme in SCHEMES:
                port = free_port()
                secure = scheme == "https"
                stack.enter_context(cluster_proxy(port, backends, root / scheme,
                                                  pem if secure else None))
                context = (ssl.create_default_context(cafile=str(certificate.cert_path))
                           if secure else None)
                proxies[scheme] = Proxied(f"{scheme}://127.0.0.1:{port}", context, (a, b))
            yield Cluster(proxies, url, key, [int(t) for t in tables["table_id"]])
    finally:
        pg_server.drop_database(name)


_phones = itertools.count()


def poll(proxied: Proxied, path: str, etag: str | None = None) -> tuple[int, dict, bytes]:
    """One poll by a new phone (an address of 127.0.0.0/8 none used before), which takes gzip
    as browsers do: (status, headers by lower-case name, body unpacked)."""
    n = next(_phones)
    connection = proxied.connection(f"127.1.{n // 250 % 250}.{n % 250 + 1}")
    try:
        connection.request("GET", path, headers={"Accept-Encoding": "gzip",
                                                 **({"If-None-Match": etag} if etag else {})})
        reply = connection.getresponse()
        headers = {k.lower(): v for k, v in reply.getheaders()}
        body = reply.read()
    finally:
        connection.close()
    return reply.status, headers, (gzip.decompress(body)
                                   if headers.get("content-encoding") == "gzip" else body)


def standings(cluster: Cluster) -> str:
    return f"/api/v1/tournaments/{cluster.key}/standings"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_poll_is_answered_from_the_cache(cluster, scheme):
    proxied = cluster.proxies[scheme]
    path = standings(cluster)
    seen: list[tuple[int, dict, bytes]] = []
    until(lambda: seen.append(poll(proxied, path)) or seen[-1],
          lambda a: a[1].get("x-cache") == "HIT" and any(
              m[1].get("x-cache") == "MISS" for m in seen), "poll answered from the cache")
    status, headers, body = seen[-1]
    assert status == 200 and int(headers["x-stsa-now"]) > 10**12
    assert ("strict-transport-security" in headers) == (scheme == "https")
    given = next(a for a in reversed(seen) if a[1]["x-cache"] == "MISS")  # by an app process
    assert given[0] == 200 and (headers["etag"], body) == (given[1]["etag"], given[2])
    assert json.loads(body)["tournament"] == cluster.key
    # every phone sends the ETag it holds: the cache answers 304 itself, and still refills
    held = headers["etag"]
    status, headers, body = until(lambda: poll(proxied, path, held),
                                  lambda a: a[0] == 304 and a[1].get("x-cache") == "HIT",
                                  "304 from the cache")
    assert body == b"" and headers["etag"] == given[1]["etag"]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_save_shows_through_the_cache(cluster, scheme):
    proxied = cluster.proxies[scheme]
    path = standings(cluster)
    status, headers, body = poll(proxied, path)
    assert status == 200, body
    held = headers["etag"]
    table = cluster.tables[SCHEMES.index(scheme)]
    engine = store.connect(cluster.database_url)
    try:
        players = set(store.seats(engine, table_id=table)["nickname"])  # the feed's names
        store.submit_table_result(engine, table, a_valid_result(engine, table),
                                  expected_version=0, submission_id=None, actor=JUDGE)
    finally:
        engine.dispose()
    # phones poll with the ETag they hold until the answer shows the save: within a second or
    # two, an answer kept from before it meanwhile (the cache gives the kept answer while it
    # fetches the new one)
    def shows_the_save(answer) -> bool:
        status, headers, body = answer
        return status == 200 and players <= {
            row["player"] for row in json.loads(body)["standings"] if row.get("games")}

    status, headers, body = until(lambda: poll(proxied, path, held), shows_the_save,
                                  "the save in the answer")
    assert headers["etag"] != held
    held = headers["etag"]
    status, headers, _ = until(lambda: poll(proxied, path, held),
                               lambda a: a[1].get("x-cache") == "HIT", "the new answer cached")
    assert status == 304


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_standings_page_works_through_the_proxy(cluster, scheme, connect):
    spectator = connect(cluster.proxies[scheme], "standings")
    first = assert_clean(spectator.run())
    again = assert_clean(spectator.run())  # the same session, on the same process
    assert first.page == again.page == "standings"
    assert spectator.session_id
