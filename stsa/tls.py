"""This laptop's HTTPS certificate (`python -m stsa tls`): self-signed, for the names and
addresses phones on the venue's network use to reach it.

Judges type PINs on their phones over the venue's Wi-Fi; without TLS anyone on that network can
read them and the session cookies. There is no certificate authority on a venue's network, so
the laptop signs its own certificate, and each phone trusts it once after comparing the
fingerprint the console prints with the one the browser shows.

No Streamlit, no database, no outbound network request: the names come from this machine's own
interfaces. The private key is written readable by its owner only (0600, in a 0700 folder) and
never replaced unless asked.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import re
import secrets
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from stsa.domain import TournamentError

CERT_FILE = "stsa-cert.pem"
KEY_FILE = "stsa-key.pem"
DEFAULT_DAYS = 825  # the longest validity Apple's and Google's browsers accept for a server
LOOPBACK = ["127.0.0.1", "::1"]
_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Certificate:
    """A certificate on disk: its files, its SHA-256 fingerprint as browsers show it
    (`AB:CD:…`), the names and addresses it is valid for, and when it expires (UTC)."""

    cert_path: Path
    key_path: Path
    fingerprint: str
    names: tuple[str, ...]
    not_after: dt.datetime


def default_folder() -> Path:
    """`data/tls/`, beside the default database (`stsa.store.db.default_url`)."""
    return _ROOT / "data" / "tls"


# -- names -------------------------------------------------------------------------------------
def _usable_address(text: str) -> str | None:
    """`text` as a normal address, or None for loopback, link-local (it needs a zone a browser
    address cannot carry), unspecified or anything that is not an address."""
    try:
        address = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    if address.is_loopback or address.is_link_local or address.is_unspecified \
            or address.is_multicast:
        return None
    return str(address)


def _interface_addresses() -> list[str]:
    """This machine's addresses from `ip -o addr` (Linux; nothing where it is missing)."""
    ip = shutil.which("ip")
    if ip is None:
        return []
    try:
        out = subprocess.run([ip, "-o", "addr"], capture_output=True, text=True, timeout=5,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return re.findall(r"\binet6?\s+([0-9A-Fa-f:.]+)(?:/\d+)?", out)


def _resolved_addresses(hostname: str) -> list[str]:
    """The addresses this machine's own resolver gives its host name (hosts file, mDNS)."""
    try:
        return [str(info[4][0]) for info in socket.getaddrinfo(hostname, None)]
    except OSError:
        return []


def _dns_name(name: str) -> str | None:
    """`name` as an ASCII host name a certificate can hold (IDNA for accents), or None."""
    name = name.strip().rstrip(".").lower()
    try:
        ascii_name = name.encode("idna").decode("ascii")
    except UnicodeError:
        return None
    labels = ascii_name.split(".")
    if not ascii_name or len(ascii_name) > 253 or not all(
            re.fullmatch(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?", label) for label in labels):
        return None
    return ascii_name


def network_names() -> list[str]:
    """What phones may type to reach this laptop: its host name, `<host name>.local` (mDNS),
    `localhost`, every address of its interfaces (IPv4 first; not loopback or link-local),
    then 127.0.0.1 and ::1. Found on this machine only: no request leaves it."""
    hostname = _dns_name(socket.gethostname())
    names = []
    if hostname and hostname != "localhost":
        names += [hostname] if hostname.endswith(".local") else [hostname, f"{hostname}.local"]
    names.append("localhost")
    found = [a for a in map(_usable_address, [*_resolved_addresses(socket.gethostname()),
                                              *_interface_addresses()]) if a]
    addresses = sorted(dict.fromkeys(found), key=lambda a: ipaddress.ip_address(a).version)
    return list(dict.fromkeys([*names, *addresses, *LOOPBACK]))


# -- files ---------------------------------------------------------------------------------------
def private_folder(folder: Path) -> Path:
    """`folder`, created if needed, readable by its owner only (0700)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def write_private(path: Path, data: bytes) -> Path:
    """Write `path` readable by its owner only (0600) from its first byte: made aside with that
    mode, then renamed over `path`, so no reader ever sees it half written or open to others."""
    part = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(part, 0o600)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return path


def _subject_names(names: list[str]) -> list[x509.GeneralName]:
    """Each name as a subjectAltName of its type: an IP address, or a DNS name; a name that is
    neither is refused, naming it."""
    out: list[x509.GeneralName] = []
    for name in dict.fromkeys(names):
        try:
            out.append(x509.IPAddress(ipaddress.ip_address(name)))
            continue
        except ValueError:
            pass
        dns = _dns_name(name)
        if dns is None:
            raise TournamentError(f"{name!r} is neither a host name nor an IP address; a "
                                  f"certificate cannot name it.")
        out.append(x509.DNSName(dns))
    if not out:
        raise TournamentError("A certificate needs at least one name or address.")
    return out


def _fingerprint(certificate: x509.Certificate) -> str:
    return ":".join(f"{b:02X}" for b in certificate.fingerprint(hashes.SHA256()))


def _described(cert_path: Path, key_path: Path, certificate: x509.Certificate) -> Certificate:
    try:
        sans = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        names = tuple(str(n.value) for n in sans)
    except x509.ExtensionNotFound:
        names = ()
    return Certificate(cert_path=cert_path, key_path=key_path,
                       fingerprint=_fingerprint(certificate), names=names,
                       not_after=certificate.not_valid_after_utc)


def make_certificate(folder: Path, names: list[str], *, days: int = DEFAULT_DAYS,
                     replace: bool = False) -> Certificate:
    """A new self-signed certificate for `names` (EC P-256, SHA-256; every name a
    subjectAltName, addresses as IP addresses; not a CA; for servers only), written to
    `folder` as `stsa-cert.pem` and `stsa-key.pem` (the key 0600, the folder 0700).

    An existing key is kept, with a `TournamentError`, unless `replace`: phones that trusted
    the old certificate must accept the new one."""
    folder = Path(folder)
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    if not replace and (key_path.exists() or cert_path.exists()):
        raise TournamentError(f"{folder} already holds a certificate and its key; STSA keeps "
                              f"them. Ask for a new one only if phones may trust it anew.")
    alt_names = _subject_names(list(names))
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "STSA"),
                         x509.NameAttribute(NameOID.COMMON_NAME, str(names[0])[:64])])
    start = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(minutes=5)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject).issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start).not_valid_after(start + dt.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                     key_encipherment=False, data_encipherment=False,
                                     key_agreement=False, key_cert_sign=False, crl_sign=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                       critical=False)
        .sign(key, hashes.SHA256()))
    private_folder(folder)
    write_private(key_path, key.private_bytes(serialization.Encoding.PEM,
                                              serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()))
    write_private(cert_path, certificate.public_bytes(serialization.Encoding.PEM))
    return _described(cert_path, key_path, certificate)


def load_certificate(folder: Path) -> Certificate | None:
    """The certificate in `folder`, or None when there is none yet. A certificate whose key is
    missing, unreadable or not its own is a `TournamentError` saying to make a new one."""
    folder = Path(folder)
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    if not cert_path.exists() and not key_path.exists():
        return None
    remedy = "make a new one (`make tls FORCE=1`)."
    if not cert_path.exists() or not key_path.exists():
        missing = cert_path if not cert_path.exists() else key_path
        raise TournamentError(f"{missing} is missing; {remedy}")
    try:
        certificate = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (ValueError, TypeError, OSError) as exc:
        raise TournamentError(f"The certificate in {folder} cannot be read ({exc}); "
                              f"{remedy}") from exc
    public = serialization.PublicFormat.SubjectPublicKeyInfo
    if key.public_key().public_bytes(serialization.Encoding.PEM, public) != \
            certificate.public_key().public_bytes(serialization.Encoding.PEM, public):
        raise TournamentError(f"{key_path} is not the key of {cert_path}; {remedy}")
    return _described(cert_path, key_path, certificate)
