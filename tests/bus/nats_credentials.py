"""Credentials made inside the tests: nkeys, operator/account/user JWTs and a creds file, a TLS CA."""

from __future__ import annotations

import base64
import datetime
import hashlib
import ipaddress
import json
import time
from dataclasses import dataclass
from pathlib import Path

import nacl.signing
import nkeys
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def new_nkey(prefix: int) -> nkeys.KeyPair:
    """A fresh nkey of a kind (``nkeys.PREFIX_BYTE_USER``, ``..._ACCOUNT``, ``..._OPERATOR``)."""
    raw = bytes(nacl.signing.SigningKey.generate())
    return nkeys.from_seed(nkeys.encode_seed(raw, prefix))


def public(key: nkeys.KeyPair) -> str:
    return key.public_key.decode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def signed_jwt(claims: dict[str, object], signer: nkeys.KeyPair) -> str:
    """A NATS JWT (ed25519-nkey): the claims with iat and jti, signed by ``signer``."""
    body = {**claims, "iat": int(time.time()), "iss": public(signer)}
    body["jti"] = base64.b32encode(hashlib.sha256(json.dumps(body, sort_keys=True).encode()).digest()).decode()
    header = _b64(json.dumps({"typ": "JWT", "alg": "ed25519-nkey"}).encode())
    payload = _b64(json.dumps(body).encode())
    signature = signer.sign(f"{header}.{payload}".encode())
    return f"{header}.{payload}.{_b64(signature)}"


UNLIMITED_ACCOUNT = {
    "subs": -1, "data": -1, "payload": -1, "imports": -1, "exports": -1, "wildcards": True, "conn": -1,
    "leaf": -1, "mem_storage": -1, "disk_storage": -1, "streams": -1, "consumer": -1,
}  # fmt: skip


@dataclass(frozen=True)
class Decentralized:
    """An operator with one account (JetStream on) and one user: the server config and the creds."""

    server_config: str
    creds_file: Path


def decentralized_auth(directory: Path) -> Decentralized:
    operator, system, account, user = (
        new_nkey(nkeys.PREFIX_BYTE_OPERATOR),
        new_nkey(nkeys.PREFIX_BYTE_ACCOUNT),
        new_nkey(nkeys.PREFIX_BYTE_ACCOUNT),
        new_nkey(nkeys.PREFIX_BYTE_USER),
    )
    operator_claims = {"type": "operator", "version": 2, "system_account": public(system)}
    operator_jwt = signed_jwt({"sub": public(operator), "name": "op", "nats": operator_claims}, operator)
    system_claims = {
        "type": "account",
        "version": 2,
        "limits": {**UNLIMITED_ACCOUNT, "mem_storage": 0, "disk_storage": 0},
    }
    system_jwt = signed_jwt({"sub": public(system), "name": "SYS", "nats": system_claims}, operator)
    account_claims = {"type": "account", "version": 2, "limits": UNLIMITED_ACCOUNT}
    account_jwt = signed_jwt({"sub": public(account), "name": "acc", "nats": account_claims}, operator)
    user_claims = {"type": "user", "version": 2, "pub": {}, "sub": {}, "subs": -1, "data": -1, "payload": -1}
    user_jwt = signed_jwt({"sub": public(user), "name": "sextant", "nats": user_claims}, account)
    creds = directory / "sextant.creds"
    creds.write_text(
        f"-----BEGIN NATS USER JWT-----\n{user_jwt}\n------END NATS USER JWT------\n\n"
        f"-----BEGIN USER NKEY SEED-----\n{user.seed.decode()}\n------END USER NKEY SEED------\n"
    )
    creds.chmod(0o600)
    config = (
        f'operator: "{operator_jwt}"\n'
        f"system_account: {public(system)}\n"
        "resolver: MEMORY\n"
        f'resolver_preload: {{\n  {public(account)}: "{account_jwt}"\n  {public(system)}: "{system_jwt}"\n}}\n'
    )
    return Decentralized(server_config=config, creds_file=creds)


@dataclass(frozen=True)
class TlsFiles:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    path.chmod(0o600)


def _certificate(
    subject: str, key: ec.EllipticCurvePrivateKey, issuer: x509.Name, signer: ec.EllipticCurvePrivateKey, *, ca: bool
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if not ca:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
            critical=False,
        )
    return builder.sign(signer, hashes.SHA256())


def tls_files(directory: Path) -> TlsFiles:
    """A CA, a server certificate for 127.0.0.1 and a client certificate, all signed by the CA."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sextant test CA")])
    ca_cert = _certificate("sextant test CA", ca_key, ca_name, ca_key, ca=True)
    files = TlsFiles(
        ca=directory / "ca.pem",
        server_cert=directory / "server.pem",
        server_key=directory / "server.key",
        client_cert=directory / "client.pem",
        client_key=directory / "client.key",
    )
    files.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    for cert_path, key_path, name in (
        (files.server_cert, files.server_key, "nats-server"),
        (files.client_cert, files.client_key, "sextant"),
    ):
        key = ec.generate_private_key(ec.SECP256R1())
        cert_path.write_bytes(
            _certificate(name, key, ca_name, ca_key, ca=False).public_bytes(serialization.Encoding.PEM)
        )
        _write_key(key_path, key)
    return files
