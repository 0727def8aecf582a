from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_subject_export import ConsentSubjectExport
from ...models.export_consents_format import check_export_consents_format
from ...models.export_consents_format import ExportConsentsFormat
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    app_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    format_: ExportConsentsFormat | Unset = UNSET,
    links: bool | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    json_until: str | Unset = UNSET
    if not isinstance(until, Unset):
        json_until = until.isoformat()
    params["until"] = json_until

    params["appId"] = app_id

    params["target"] = target

    params["subject"] = subject

    params["cursor"] = cursor

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_

    params["format"] = json_format_

    params["links"] = links


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/consents/export",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentSubjectExport | Problem | None:
    if response.status_code == 200:
        response_200 = ConsentSubjectExport.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())



        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentSubjectExport | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    app_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    format_: ExportConsentsFormat | Unset = UNSET,
    links: bool | Unset = UNSET,

) -> Response[ConsentSubjectExport | Problem]:
    """ Stream the account’s events as NDJSON, oldest first, with filters; resumable; gzip when asked; one
    subject as JSON.

     One consent event (as ConsentEvent) per line, `application/x-ndjson`, oldest first (by id, which
    orders like createdAt), streamed page by page from the database, so memory stays constant whatever
    the number of events. Filters: since, until, appId, target, subject (one subject’s complete history
    across targets). An interrupted export resumes with `cursor` = the `id` of the last complete line
    received. Events written while an export runs appear when they sort after its position. A problem
    (400) is answered before the first line; a failure after it ends the stream early (resume with the
    cursor). With `Accept-Encoding: gzip` the body is gzip-compressed (`Content-Encoding: gzip`),
    flushed after every page of 1000 events so progress stays visible. `X-Total-Count` estimates the
    events from the cursor on, for progress (see its description). With `subject` and `Accept:
    application/json`: one JSON document (ConsentSubjectExport) with the subject’s events and current
    states (an access request, GDPR art. 15), at most 10000 events (413 beyond, use NDJSON); without
    `subject`, or with `cursor`, the JSON form is a 400. NDJSON is the default (no Accept, `*/*`). With
    `format=jsonld` or `Accept: application/ld+json`: NDJSON still, each line the event’s ISO/IEC TS
    27560 record in W3C DPV JSON-LD (DpvJsonLd, `@context` first) instead of a ConsentEvent; a
    withdrawal is told from a refusal by the events before it in the stream (without since, appId and
    cursor the stream holds them; otherwise a `false` with no earlier event in the stream is
    `dpv:ConsentStatusInvalidForProcessing`), and a specification DPV cannot say gives the record from
    the event alone (a stream cannot answer 406). With `links=true` (NDJSON only): the account’s link
    events (linked identities) too, as lines of their own among the events by id, each the link as
    answered with `"type": "subject.linked"` (ConsentExportLinkLine; consent event lines never carry
    `type`), filtered by since, until, appId (the linking application) and subject (links naming it as
    identity or subject); the cursor resumes both. POST /consent/v0/imports reads such a file back,
    links included. Without it every line is a consent event, as before.

    Args:
        since (datetime.datetime | Unset): Only events created at or after this time.
        until (datetime.datetime | Unset): Only events created before this time (later than
            `since`).
        app_id (str | Unset): Only events written by this application of the account.
        target (str | Unset): Only events of this target.
        subject (str | Unset): Only events of this subject, across targets: the subject’s complete
            history (an access request, GDPR art. 15).
        cursor (str | Unset): Resume: the `id` of the last line received; the export continues
            with the events after it.
        format_ (ExportConsentsFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS
            27560, `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.
        links (bool | Unset): NDJSON only: true adds the account’s link events (linked identities)
            as lines of their own, `{"type": "subject.linked", …}` (ConsentExportLinkLine), among the
            events by id, so that an import into another Accord rebuilds the links too. Filtered by
            since, until, appId (the linking application) and subject (links naming it as identity or
            subject); not with target (400) nor with format=jsonld (400). Default false: every line is
            a consent event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentSubjectExport | Problem]
     """


    kwargs = _get_kwargs(
        since=since,
until=until,
app_id=app_id,
target=target,
subject=subject,
cursor=cursor,
format_=format_,
links=links,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    app_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    format_: ExportConsentsFormat | Unset = UNSET,
    links: bool | Unset = UNSET,

) -> ConsentSubjectExport | Problem | None:
    """ Stream the account’s events as NDJSON, oldest first, with filters; resumable; gzip when asked; one
    subject as JSON.

     One consent event (as ConsentEvent) per line, `application/x-ndjson`, oldest first (by id, which
    orders like createdAt), streamed page by page from the database, so memory stays constant whatever
    the number of events. Filters: since, until, appId, target, subject (one subject’s complete history
    across targets). An interrupted export resumes with `cursor` = the `id` of the last complete line
    received. Events written while an export runs appear when they sort after its position. A problem
    (400) is answered before the first line; a failure after it ends the stream early (resume with the
    cursor). With `Accept-Encoding: gzip` the body is gzip-compressed (`Content-Encoding: gzip`),
    flushed after every page of 1000 events so progress stays visible. `X-Total-Count` estimates the
    events from the cursor on, for progress (see its description). With `subject` and `Accept:
    application/json`: one JSON document (ConsentSubjectExport) with the subject’s events and current
    states (an access request, GDPR art. 15), at most 10000 events (413 beyond, use NDJSON); without
    `subject`, or with `cursor`, the JSON form is a 400. NDJSON is the default (no Accept, `*/*`). With
    `format=jsonld` or `Accept: application/ld+json`: NDJSON still, each line the event’s ISO/IEC TS
    27560 record in W3C DPV JSON-LD (DpvJsonLd, `@context` first) instead of a ConsentEvent; a
    withdrawal is told from a refusal by the events before it in the stream (without since, appId and
    cursor the stream holds them; otherwise a `false` with no earlier event in the stream is
    `dpv:ConsentStatusInvalidForProcessing`), and a specification DPV cannot say gives the record from
    the event alone (a stream cannot answer 406). With `links=true` (NDJSON only): the account’s link
    events (linked identities) too, as lines of their own among the events by id, each the link as
    answered with `"type": "subject.linked"` (ConsentExportLinkLine; consent event lines never carry
    `type`), filtered by since, until, appId (the linking application) and subject (links naming it as
    identity or subject); the cursor resumes both. POST /consent/v0/imports reads such a file back,
    links included. Without it every line is a consent event, as before.

    Args:
        since (datetime.datetime | Unset): Only events created at or after this time.
        until (datetime.datetime | Unset): Only events created before this time (later than
            `since`).
        app_id (str | Unset): Only events written by this application of the account.
        target (str | Unset): Only events of this target.
        subject (str | Unset): Only events of this subject, across targets: the subject’s complete
            history (an access request, GDPR art. 15).
        cursor (str | Unset): Resume: the `id` of the last line received; the export continues
            with the events after it.
        format_ (ExportConsentsFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS
            27560, `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.
        links (bool | Unset): NDJSON only: true adds the account’s link events (linked identities)
            as lines of their own, `{"type": "subject.linked", …}` (ConsentExportLinkLine), among the
            events by id, so that an import into another Accord rebuilds the links too. Filtered by
            since, until, appId (the linking application) and subject (links naming it as identity or
            subject); not with target (400) nor with format=jsonld (400). Default false: every line is
            a consent event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentSubjectExport | Problem
     """


    return sync_detailed(
        client=client,
since=since,
until=until,
app_id=app_id,
target=target,
subject=subject,
cursor=cursor,
format_=format_,
links=links,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    app_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    format_: ExportConsentsFormat | Unset = UNSET,
    links: bool | Unset = UNSET,

) -> Response[ConsentSubjectExport | Problem]:
    """ Stream the account’s events as NDJSON, oldest first, with filters; resumable; gzip when asked; one
    subject as JSON.

     One consent event (as ConsentEvent) per line, `application/x-ndjson`, oldest first (by id, which
    orders like createdAt), streamed page by page from the database, so memory stays constant whatever
    the number of events. Filters: since, until, appId, target, subject (one subject’s complete history
    across targets). An interrupted export resumes with `cursor` = the `id` of the last complete line
    received. Events written while an export runs appear when they sort after its position. A problem
    (400) is answered before the first line; a failure after it ends the stream early (resume with the
    cursor). With `Accept-Encoding: gzip` the body is gzip-compressed (`Content-Encoding: gzip`),
    flushed after every page of 1000 events so progress stays visible. `X-Total-Count` estimates the
    events from the cursor on, for progress (see its description). With `subject` and `Accept:
    application/json`: one JSON document (ConsentSubjectExport) with the subject’s events and current
    states (an access request, GDPR art. 15), at most 10000 events (413 beyond, use NDJSON); without
    `subject`, or with `cursor`, the JSON form is a 400. NDJSON is the default (no Accept, `*/*`). With
    `format=jsonld` or `Accept: application/ld+json`: NDJSON still, each line the event’s ISO/IEC TS
    27560 record in W3C DPV JSON-LD (DpvJsonLd, `@context` first) instead of a ConsentEvent; a
    withdrawal is told from a refusal by the events before it in the stream (without since, appId and
    cursor the stream holds them; otherwise a `false` with no earlier event in the stream is
    `dpv:ConsentStatusInvalidForProcessing`), and a specification DPV cannot say gives the record from
    the event alone (a stream cannot answer 406). With `links=true` (NDJSON only): the account’s link
    events (linked identities) too, as lines of their own among the events by id, each the link as
    answered with `"type": "subject.linked"` (ConsentExportLinkLine; consent event lines never carry
    `type`), filtered by since, until, appId (the linking application) and subject (links naming it as
    identity or subject); the cursor resumes both. POST /consent/v0/imports reads such a file back,
    links included. Without it every line is a consent event, as before.

    Args:
        since (datetime.datetime | Unset): Only events created at or after this time.
        until (datetime.datetime | Unset): Only events created before this time (later than
            `since`).
        app_id (str | Unset): Only events written by this application of the account.
        target (str | Unset): Only events of this target.
        subject (str | Unset): Only events of this subject, across targets: the subject’s complete
            history (an access request, GDPR art. 15).
        cursor (str | Unset): Resume: the `id` of the last line received; the export continues
            with the events after it.
        format_ (ExportConsentsFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS
            27560, `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.
        links (bool | Unset): NDJSON only: true adds the account’s link events (linked identities)
            as lines of their own, `{"type": "subject.linked", …}` (ConsentExportLinkLine), among the
            events by id, so that an import into another Accord rebuilds the links too. Filtered by
            since, until, appId (the linking application) and subject (links naming it as identity or
            subject); not with target (400) nor with format=jsonld (400). Default false: every line is
            a consent event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentSubjectExport | Problem]
     """


    kwargs = _get_kwargs(
        since=since,
until=until,
app_id=app_id,
target=target,
subject=subject,
cursor=cursor,
format_=format_,
links=links,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    app_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    format_: ExportConsentsFormat | Unset = UNSET,
    links: bool | Unset = UNSET,

) -> ConsentSubjectExport | Problem | None:
    """ Stream the account’s events as NDJSON, oldest first, with filters; resumable; gzip when asked; one
    subject as JSON.

     One consent event (as ConsentEvent) per line, `application/x-ndjson`, oldest first (by id, which
    orders like createdAt), streamed page by page from the database, so memory stays constant whatever
    the number of events. Filters: since, until, appId, target, subject (one subject’s complete history
    across targets). An interrupted export resumes with `cursor` = the `id` of the last complete line
    received. Events written while an export runs appear when they sort after its position. A problem
    (400) is answered before the first line; a failure after it ends the stream early (resume with the
    cursor). With `Accept-Encoding: gzip` the body is gzip-compressed (`Content-Encoding: gzip`),
    flushed after every page of 1000 events so progress stays visible. `X-Total-Count` estimates the
    events from the cursor on, for progress (see its description). With `subject` and `Accept:
    application/json`: one JSON document (ConsentSubjectExport) with the subject’s events and current
    states (an access request, GDPR art. 15), at most 10000 events (413 beyond, use NDJSON); without
    `subject`, or with `cursor`, the JSON form is a 400. NDJSON is the default (no Accept, `*/*`). With
    `format=jsonld` or `Accept: application/ld+json`: NDJSON still, each line the event’s ISO/IEC TS
    27560 record in W3C DPV JSON-LD (DpvJsonLd, `@context` first) instead of a ConsentEvent; a
    withdrawal is told from a refusal by the events before it in the stream (without since, appId and
    cursor the stream holds them; otherwise a `false` with no earlier event in the stream is
    `dpv:ConsentStatusInvalidForProcessing`), and a specification DPV cannot say gives the record from
    the event alone (a stream cannot answer 406). With `links=true` (NDJSON only): the account’s link
    events (linked identities) too, as lines of their own among the events by id, each the link as
    answered with `"type": "subject.linked"` (ConsentExportLinkLine; consent event lines never carry
    `type`), filtered by since, until, appId (the linking application) and subject (links naming it as
    identity or subject); the cursor resumes both. POST /consent/v0/imports reads such a file back,
    links included. Without it every line is a consent event, as before.

    Args:
        since (datetime.datetime | Unset): Only events created at or after this time.
        until (datetime.datetime | Unset): Only events created before this time (later than
            `since`).
        app_id (str | Unset): Only events written by this application of the account.
        target (str | Unset): Only events of this target.
        subject (str | Unset): Only events of this subject, across targets: the subject’s complete
            history (an access request, GDPR art. 15).
        cursor (str | Unset): Resume: the `id` of the last line received; the export continues
            with the events after it.
        format_ (ExportConsentsFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS
            27560, `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.
        links (bool | Unset): NDJSON only: true adds the account’s link events (linked identities)
            as lines of their own, `{"type": "subject.linked", …}` (ConsentExportLinkLine), among the
            events by id, so that an import into another Accord rebuilds the links too. Filtered by
            since, until, appId (the linking application) and subject (links naming it as identity or
            subject); not with target (400) nor with format=jsonld (400). Default false: every line is
            a consent event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentSubjectExport | Problem
     """


    return (await asyncio_detailed(
        client=client,
since=since,
until=until,
app_id=app_id,
target=target,
subject=subject,
cursor=cursor,
format_=format_,
links=links,

    )).parsed
