"""This laptop's HTTPS certificate (`stsa.tls`): what it is made for, how it is kept, and that
its fingerprint is the one browsers and openssl show."""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import shutil
import stat
import subprocess

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID

from stsa import tls
from stsa.errors import TournamentError

NAMES = ["stsa-laptop", "stsa-laptop.local", "localhost", "192.0.2.10", "2001:db8::10",
         "127.0.0.1", "::1"]


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def made(tmp_path):
    return tls.make_certificate(tmp_path / "tls", NAMES)


def parsed(certificate: tls.Certificate) -> x509.Certificate:
    return x509.load_pem_x509_certificate(certificate.cert_path.read_bytes())


def test_the_certificate_names_every_name_and_address_by_its_type(made):
    cert = parsed(made)
    sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert sans.get_values_for_type(x509.DNSName) == ["stsa-laptop", "stsa-laptop.local",
                                                      "localhost"]
    assert sans.get_values_for_type(x509.IPAddress) == [
        ipaddress.ip_address(a) for a in ("192.0.2.10", "2001:db8::10", "127.0.0.1", "::1")]
    assert made.names == tuple(NAMES)


def test_the_certificate_is_a_p256_server_certificate_and_no_authority(made):
    cert = parsed(made)
    assert isinstance(cert.public_key(), ec.EllipticCurvePublicKey)
    assert cert.public_key().curve.name == "secp256r1"
    assert cert.issuer == cert.subject  # self-signed
    basic = cert.extensions.get_extension_for_class(x509.BasicConstraints)
    assert basic.critical and basic.value.ca is False
    usage = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    days = (cert.not_valid_after_utc - cert.not_valid_before_utc).days
    assert days == 825 and made.not_after == cert.not_valid_after_utc
    assert made.not_after > dt.datetime.now(dt.UTC) + dt.timedelta(days=800)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_the_fingerprint_is_the_one_openssl_and_browsers_show(made):
    out = subprocess.run(["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in",
                          str(made.cert_path)], capture_output=True, text=True, check=True)
    assert out.stdout.strip().split("=", 1)[1] == made.fingerprint
    assert len(made.fingerprint.split(":")) == 32


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_openssl_reads_the_key_as_the_certificate_s_own(made):
    """The key openssl reads has the certificate's public key (what a server loads)."""
    def public(args):
        return subprocess.run(["openssl", *args], capture_output=True, check=True).stdout
    assert public(["pkey", "-in", str(made.key_path), "-pubout"]) == public(
        ["x509", "-in", str(made.cert_path), "-noout", "-pubkey"])


def test_the_key_is_its_owner_s_only(made):
    assert mode(made.key_path) == 0o600
    assert mode(made.cert_path.parent) == 0o700
    assert sorted(p.name for p in made.key_path.parent.iterdir()) == [tls.CERT_FILE,
                                                                      tls.KEY_FILE]


def test_an_open_folder_is_closed_and_the_umask_does_not_matter(tmp_path):
    folder = tmp_path / "tls"
    folder.mkdir(mode=0o777)
    os.chmod(folder, 0o777)
    old = os.umask(0)
    try:
        made = tls.make_certificate(folder, ["localhost"])
    finally:
        os.umask(old)
    assert mode(folder) == 0o700 and mode(made.key_path) == 0o600


def test_a_key_is_never_replaced_unless_asked(made):
    key = made.key_path.read_bytes()
    with pytest.raises(TournamentError, match="already holds a certificate"):
        tls.make_certificate(made.cert_path.parent, ["localhost"])
    assert made.key_path.read_bytes() == key
    again = tls.make_certificate(made.cert_path.parent, ["localhost"], replace=True)
    assert again.key_path.read_bytes() != key and again.fingerprint != made.fingerprint
    assert again.names == ("localhost",) and mode(again.key_path) == 0o600


def test_load_gives_back_what_was_made(made, tmp_path):
    assert tls.load_certificate(made.cert_path.parent) == made
    assert tls.load_certificate(tmp_path / "nothing-here") is None


def test_load_refuses_a_certificate_without_its_own_key(made, tmp_path):
    other = tls.make_certificate(tmp_path / "other", ["localhost"])
    shutil.copyfile(other.key_path, made.key_path)
    with pytest.raises(TournamentError, match="is not the key of"):
        tls.load_certificate(made.cert_path.parent)
    made.key_path.unlink()
    with pytest.raises(TournamentError, match="is missing"):
        tls.load_certificate(made.cert_path.parent)


def test_a_name_that_is_neither_host_nor_address_is_refused(tmp_path):
    with pytest.raises(TournamentError, match="neither a host name nor an IP address"):
        tls.make_certificate(tmp_path / "tls", ["localhost", "bad name!"])
    assert not (tmp_path / "tls").exists()


def test_network_names_are_this_machine_s_own(monkeypatch):
    monkeypatch.setattr(tls.socket, "gethostname", lambda: "Venue-Laptop")
    monkeypatch.setattr(tls, "_resolved_addresses", lambda host: ["127.0.1.1", "192.0.2.7"])
    monkeypatch.setattr(tls, "_interface_addresses", lambda: [
        "127.0.0.1", "::1", "192.0.2.7", "10.1.2.3", "fe80::1", "2001:db8::7"])
    assert tls.network_names() == ["venue-laptop", "venue-laptop.local", "localhost",
                                   "192.0.2.7", "10.1.2.3", "2001:db8::7", "127.0.0.1", "::1"]


def test_network_names_here_can_all_go_in_a_certificate(tmp_path):
    names = tls.network_names()
    assert {"localhost", "127.0.0.1", "::1"} <= set(names)
    assert tls.make_certificate(tmp_path / "tls", names).names == tuple(names)


def test_interface_addresses_are_read_from_ip_output(monkeypatch):
    out = ("1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever\n"
           "4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\\n"
           "4: eth0    inet6 fd00::2/64 scope global nodad \\\n")
    monkeypatch.setattr(tls.shutil, "which", lambda _: "/sbin/ip")
    monkeypatch.setattr(tls.subprocess, "run",
                        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=out))
    assert tls._interface_addresses() == ["127.0.0.1", "192.0.2.2", "fd00::2"]
    monkeypatch.setattr(tls.shutil, "which", lambda _: None)
    assert tls._interface_addresses() == []


def test_default_folder_is_beside_the_default_database():
    from stsa.store import db
    assert tls.default_folder().parent == db.REPO_ROOT / "data"
    assert db.default_url().endswith(str(tls.default_folder().parent / "stsa.db"))
