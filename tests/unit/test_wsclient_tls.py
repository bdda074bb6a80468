"""The test client's TLS socket (bench/wsclient.TurnTakingTLS): websockets reads in one thread
while another writes, and a TLS connection must not be entered by two threads at once. The
turn-taking socket lets a writer through while a reader waits, hands the reader what arrives,
and lets a reader waiting on a closed connection go, as websockets' reader thread needs."""

from __future__ import annotations

import os
import socket
import ssl
import threading
from collections.abc import Iterator

import pytest

from bench.wsclient import TurnTakingTLS
from stsa import tls

GUARD = 30  # seconds before a wait that should end at once counts as stuck


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    tls.make_certificate(folder, ["localhost", "127.0.0.1"])
    return folder


@pytest.fixture
def echo(certificate) -> Iterator[tuple[int, list[bytes]]]:
    """A TLS server on 127.0.0.1 that answers each line it reads with the line in capitals;
    (its port, the lines it read)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate / "stsa-cert.pem", certificate / "stsa-key.pem")
    listener = socket.create_server(("127.0.0.1", 0))
    heard: list[bytes] = []

    def serve() -> None:
        with listener, context.wrap_socket(listener.accept()[0], server_side=True) as peer:
            pending = b""
            while chunk := peer.recv(4096):
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    heard.append(line)
                    peer.sendall(line.upper() + b"\n")

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    yield listener.getsockname()[1], heard
    server.join(GUARD)


def opened(port: int, certificate) -> TurnTakingTLS:
    context = ssl.create_default_context(cafile=str(certificate / "stsa-cert.pem"))
    raw = socket.create_connection(("127.0.0.1", port), timeout=GUARD)
    return TurnTakingTLS(context.wrap_socket(raw, server_hostname="127.0.0.1"))


def test_a_writer_goes_through_while_a_reader_waits(echo, certificate):
    port, heard = echo
    connection = opened(port, certificate)
    connection.settimeout(None)  # as websockets leaves it: the reader waits as long as it takes
    waiting, answer = threading.Event(), []

    def reader() -> None:
        waiting.set()
        answer.append(connection.recv(4096))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    assert waiting.wait(GUARD)
    connection.sendall(b"GET /_stcore/stream\n")  # the opening request, written meanwhile
    thread.join(GUARD)
    assert not thread.is_alive(), "the reader never got the answer"
    assert heard == [b"GET /_stcore/stream"]
    assert answer == [b"GET /_STCORE/STREAM\n"]
    connection.close()


def test_a_reader_of_a_closed_connection_is_let_go(echo, certificate):
    port, _ = echo
    connection = opened(port, certificate)
    connection.settimeout(None)
    waiting, ended = threading.Event(), []

    def reader() -> None:
        waiting.set()
        try:
            connection.recv(4096)
        except OSError as exc:  # what websockets' reader thread stops on
            ended.append(exc)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    assert waiting.wait(GUARD)
    connection.close()
    thread.join(GUARD)
    assert not thread.is_alive() and len(ended) == 1


def test_a_read_with_a_timeout_gives_up(echo, certificate):
    port, _ = echo
    connection = opened(port, certificate)
    connection.settimeout(0.2)
    assert connection.gettimeout() == 0.2
    with pytest.raises(TimeoutError):
        connection.recv(4096)  # the server says nothing unasked
    connection.sendall(b"still here\n")
    connection.settimeout(GUARD)
    assert connection.recv(4096) == b"STILL HERE\n"
    connection.close()


def test_a_connection_numbered_past_1024_is_waited_on_too(echo, certificate, tmp_path):
    """A room's client holds thousands of descriptors: a connection numbered 1024 or more
    (past what `select` takes) still reads and writes."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("this machine lets a process open fewer than 1,200 files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    filler = []
    try:
        with open(tmp_path / "filler", "w") as held:
            while not filler or filler[-1] < 1030:
                filler.append(os.dup(held.fileno()))
        filler.append(os.dup(filler[0]))  # where the file itself was: every low number taken
        port, _ = echo
        connection = opened(port, certificate)
        assert connection.fileno() >= 1024
        connection.settimeout(GUARD)
        connection.sendall(b"from far up\n")
        assert connection.recv(4096) == b"FROM FAR UP\n"
        connection.close()
    finally:
        for descriptor in filler:
            os.close(descriptor)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
