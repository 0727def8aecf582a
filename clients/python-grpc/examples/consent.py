"""Accord's gRPC example in Python.

An access token from the gateway's token endpoint (client credentials, scope consent), then
CreateConsents and Decide on the consent service with the token in each call's metadata. Prints
the stored event and the decision; exits 1 on any error. Inputs (environment; README.md):

  ACCORD_BASE_URL       the gateway (default http://127.0.0.1:8080)
  ACCORD_CONSENT_ADDR   the consent service's gRPC address, host:port
  ACCORD_CLIENT_ID, ACCORD_CLIENT_SECRET, ACCORD_ACCOUNT_ID, ACCORD_APP_ID
                        an application's credentials and its ids (npm run admin -- bootstrap)
  ACCORD_SUBJECT        whose consent is recorded (default user-42)
  ACCORD_GRPC_CA        TLS with this CA (PEM) instead of plaintext
  ACCORD_GRPC_CERT, ACCORD_GRPC_KEY   a client certificate for mutual TLS

Run with the generated package on the path: PYTHONPATH=clients/python-grpc python3 clients/python-grpc/examples/consent.py
"""

import base64
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

import grpc

from accord.consent.v1 import consent_pb2, consent_pb2_grpc

ISSUER = "https://shop.example"
TARGET = "https://shop.example/privacy"


def access_token(gateway: str, client_id: str, client_secret: str) -> str:
    """A token from the gateway's token endpoint (client credentials, HTTP Basic)."""
    # RFC 6749 section 2.3.1: the id and secret are form-encoded before Basic encoding.
    basic = base64.b64encode(f"{urllib.parse.quote_plus(client_id)}:{urllib.parse.quote_plus(client_secret)}".encode()).decode()
    url = gateway.rstrip("/") + "/oauth/v0/token"
    request = urllib.request.Request(
        url,
        data=urllib.parse.urlencode({"grant_type": "client_credentials", "scope": "consent"}).encode(),
        headers={"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)["access_token"]
    except urllib.error.HTTPError as err:
        raise RuntimeError(f"token endpoint: {err.code}: {err.read().decode(errors='replace')}") from None
    except urllib.error.URLError as err:
        raise RuntimeError(f"token endpoint {url}: {err.reason}") from None


def pem(variable: str) -> bytes | None:
    """The PEM file a variable names, or None when it is not set."""
    path = os.environ.get(variable)
    if not path:
        return None
    with open(path, "rb") as f:
        return f.read()


def channel(address: str) -> grpc.Channel:
    """Plaintext without a CA (npm start's loopback), else TLS with that CA, and a client certificate when given."""
    if not os.environ.get("ACCORD_GRPC_CA"):
        return grpc.insecure_channel(address)
    if bool(os.environ.get("ACCORD_GRPC_CERT")) != bool(os.environ.get("ACCORD_GRPC_KEY")):
        raise RuntimeError("a client certificate needs both ACCORD_GRPC_CERT and ACCORD_GRPC_KEY")
    return grpc.secure_channel(address, grpc.ssl_channel_credentials(pem("ACCORD_GRPC_CA"), pem("ACCORD_GRPC_KEY"), pem("ACCORD_GRPC_CERT")))


def call(name: str, method, request, metadata):
    """One call with the token and a deadline; a refusal names the call and its status."""
    try:
        return method(request, metadata=metadata, timeout=30)
    except grpc.RpcError as err:
        raise RuntimeError(f"{name}: {err.code().name}: {err.details()}") from None


def main() -> None:
    missing = [n for n in ("ACCORD_CONSENT_ADDR", "ACCORD_CLIENT_ID", "ACCORD_CLIENT_SECRET", "ACCORD_ACCOUNT_ID", "ACCORD_APP_ID") if not os.environ.get(n)]
    if missing:
        sys.exit(f"error: set {', '.join(missing)}")
    env = os.environ
    account_id, app_id = env["ACCORD_ACCOUNT_ID"], env["ACCORD_APP_ID"]
    subject = env.get("ACCORD_SUBJECT") or "user-42"

    token = access_token(env.get("ACCORD_BASE_URL") or "http://127.0.0.1:8080", env["ACCORD_CLIENT_ID"], env["ACCORD_CLIENT_SECRET"])
    # Every call carries the token; the service takes the caller's account and application from it.
    metadata = [("authorization", f"Bearer {token}")]
    with channel(env["ACCORD_CONSENT_ADDR"]) as ch:
        consent = consent_pb2_grpc.ConsentServiceStub(ch)
        created = call(
            "CreateConsents",
            consent.CreateConsents,
            consent_pb2.CreateConsentsRequest(
                account_id=account_id,
                app_id=app_id,
                events=[consent_pb2.ConsentInput(subject=subject, issuer=ISSUER, target=TARGET, action=True)],
            ),
            metadata,
        )
        event = created.events[0]
        print(
            f"created consent event {event.id}: subject={event.subject} target={event.target} "
            f"action={str(event.action).lower()} at {event.created_at.ToJsonString()}"
        )

        decided = call(
            "Decide",
            consent.Decide,
            consent_pb2.DecideRequest(account_id=account_id, items=[consent_pb2.DecisionItem(subject=subject, issuer=ISSUER, target=TARGET)]),
            metadata,
        )
        d = decided.decisions[0]
        print(f"decision: allowed={str(d.allowed).lower()} basis={d.basis} event={d.event_id}")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, OSError) as err:
        sys.exit(f"error: {err}")
