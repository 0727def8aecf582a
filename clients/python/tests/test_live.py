"""The Python client against a live Accord (e2e/python-client.test.ts starts the stack and runs
these with pytest): ACCORD_BASE_URL, ACCORD_CLIENT_ID, ACCORD_CLIENT_SECRET, ACCORD_API_KEY."""

import os
import uuid

import pytest

from accord_client import AccordError, Session, filter_allowed

ISSUER = "https://shop.example"
TARGET = "https://shop.example/training"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def session(clock: Clock) -> Session:
    env = os.environ
    return Session(env["ACCORD_BASE_URL"], env["ACCORD_CLIENT_ID"], env["ACCORD_CLIENT_SECRET"], env["ACCORD_API_KEY"], clock=clock)


def record(session: Session, events: list[dict]) -> None:
    res = session.client().get_httpx_client().post("/consent/v0/consents", json=events)
    assert res.status_code == 201, res.text


def test_decide_answers_in_order_with_evidence(session: Session) -> None:
    run = uuid.uuid4().hex
    record(session, [{"subject": f"{run}-yes", "issuer": ISSUER, "target": TARGET, "action": True}, {"subject": f"{run}-no", "issuer": ISSUER, "target": TARGET, "action": False}])
    out = session.decide([{"subject": f"{run}-{s}", "issuer": ISSUER, "target": TARGET} for s in ("yes", "no", "never")])
    assert [(d.allowed, d.basis) for d in out] == [(True, "consent"), (False, "declined"), (False, "no-consent")]
    assert out[0].evidence.receipt.endswith(f"/consent/v0/consents/{out[0].event_id}/receipt")


def test_link_identity_makes_decisions_resolve_across_the_device_and_the_user(session: Session) -> None:
    run = uuid.uuid4().hex[:8]
    record(session, [{"subject": f"{run}-device", "issuer": ISSUER, "target": TARGET, "action": True}])
    assert [d.allowed for d in session.decide([{"subject": f"{run}-user", "issuer": ISSUER, "target": TARGET}])] == [False]
    link = session.link_identity(ISSUER, f"{run}-device", f"{run}-user")
    assert (link.identity, link.subject) == (f"{run}-device", f"{run}-user")
    out = session.decide([{"subject": f"{run}-user", "issuer": ISSUER, "target": TARGET}])
    assert [(d.allowed, d.identity) for d in out] == [(True, f"{run}-device")]
    try:
        session.link_identity(ISSUER, f"{run}-user", f"{run}-other")
        raise AssertionError("a chain was accepted")
    except AccordError as err:
        assert err.status == 409 and [e["field"] for e in err.errors] == ["identity"]


def test_filter_allowed_streams_rows_in_batches_and_keeps_the_allowed(session: Session) -> None:
    run = uuid.uuid4().hex
    allowed = {i for i in range(2500) if i % 3 == 0}
    record(session, [{"subject": f"{run}-{i}", "issuer": ISSUER, "target": TARGET, "action": i in allowed} for i in range(0, 2500, 2)][:1000])
    record(session, [{"subject": f"{run}-{i}", "issuer": ISSUER, "target": TARGET, "action": i in allowed} for i in range(0, 2500, 2)][1000:])
    accepted = {i for i in range(0, 2500, 2) if i in allowed}
    read = []

    def rows():
        for i in range(2500):
            read.append(i)
            yield {"user": f"{run}-{i}", "n": i}

    kept = filter_allowed(rows(), session=session, subject="user", target_value=TARGET, issuer_value=ISSUER, batch=1000)
    first = next(kept)
    # lazily: one batch read to answer the first row
    assert first["n"] == 0 and len(read) == 1000
    assert [first["n"]] + [r["n"] for r in kept] == sorted(accepted)


def test_the_token_is_renewed_before_it_expires_and_after_a_401(session: Session, clock: Clock) -> None:
    session.decide([{"subject": "s", "issuer": ISSUER, "target": TARGET}])
    assert session.tokens_issued == 1
    session.decide([{"subject": "s", "issuer": ISSUER, "target": TARGET}])
    assert session.tokens_issued == 1
    clock.now += 3600  # past expires_in (less than an hour) minus the leeway
    session.decide([{"subject": "s", "issuer": ISSUER, "target": TARGET}])
    assert session.tokens_issued == 2
    # a token Accord no longer accepts: one renewal, one more try
    session.client().token = "not-a-token"
    session.client().get_httpx_client().headers["Authorization"] = "Bearer not-a-token"
    assert [d.basis for d in session.decide([{"subject": "s", "issuer": ISSUER, "target": TARGET}])] == ["no-consent"]
    assert session.tokens_issued == 3


def test_bad_input_names_the_item_and_field(session: Session) -> None:
    with pytest.raises(AccordError) as err:
        session.decide([{"subject": "s", "issuer": ISSUER, "target": TARGET}, {"subject": "s", "issuer": ISSUER, "target": TARGET, "jurisdiction": "ZZ"}])
    assert err.value.status == 400
    assert err.value.errors == [{"field": "/items/1/jurisdiction", "message": err.value.errors[0]["message"]}]


def test_import_events_streams_a_file_with_progress_and_stores_each_line_once(session: Session, tmp_path) -> None:
    run = uuid.uuid4().hex
    path = tmp_path / "history.ndjson"
    lines = [f'{{"subject": "{run}-{i}", "issuer": "{ISSUER}", "target": "{TARGET}", "action": {"true" if i % 2 else "false"}, "createdAt": "2020-01-0{1 + i % 9}T10:00:00Z"}}' for i in range(300)]
    path.write_text("\n".join(lines + ['{"subject": "broken"'] ) + "\n")
    seen: list[tuple[int, int]] = []
    job = session.import_events(str(path), progress=lambda sent, total: seen.append((sent, total)))
    assert (job["state"], job["read"], job["stored"], job["duplicates"], job["refused"]) == ("done", 301, 300, 0, 1)
    assert job["errors"] == [{"line": 301, "field": "", "detail": "is not valid JSON"}]
    assert seen and seen[-1][0] == seen[-1][1] == path.stat().st_size
    again = session.import_events(str(path))
    assert (again["stored"], again["duplicates"]) == (0, 300)
    from accord_client import get_import

    assert get_import(session, job["id"])["stored"] == 300


def test_consent_record_answers_dpv_json_ld_and_a_missing_event_raises(session: Session) -> None:
    run = uuid.uuid4().hex
    res = session.client().get_httpx_client().post(
        "/consent/v0/consents", json={"subject": f"{run}-jsonld", "issuer": ISSUER, "target": TARGET, "action": True}
    )
    assert res.status_code == 201, res.text
    event_id = res.json()["id"]
    doc = session.consent_record(event_id)
    assert next(iter(doc)) == "@context"
    assert "ConsentRecord" in str(doc["@type"])
    receipt = session.consent_record(event_id, receipt=True)
    assert "ConsentReceipt" in str(receipt["@type"])
    with pytest.raises(AccordError) as err:
        session.consent_record("0" * 32)
    assert err.value.status == 404
