/**
 * GENERATED FILE — DO NOT EDIT.
 * Written by `npm run gen` (scripts/gen.ts) from spec/openapi.yaml with openapi-typescript.
 * Change the spec and regenerate; `npm run gen:check` fails when this file is stale.
 */

export interface paths {
    "/_health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers 200 while the process serves requests; it does not touch the database. It names the host that
         *     answered (`HEDGEROW_HOST_ID`), so that behind a load balancer each answer says which server gave it. Under
         *     `npm start`, whose primary process supervises worker processes that share the port, the answer also names
         *     the worker that answered and counts the workers: configured, serving now, and started again after one died.
         */
        get: operations["health_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_readiness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers 200 when the database answers, 503 when it does not.
         */
        get: operations["readiness_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The OpenAPI document (YAML)
         * @description This document, byte for byte as the server was started with it.
         */
        get: operations["openapi_yaml_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The OpenAPI document (JSON)
         * @description This document as JSON, with the same content as `GET /openapi.yaml` (references unresolved).
         */
        get: operations["openapi_json_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference page
         * @description A page that renders this document with Redoc, whose script is served by `GET /docs/redoc.standalone.js`:
         *     the page loads nothing from anywhere else.
         */
        get: operations["docs_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The reference page's renderer
         * @description Redoc's standalone bundle, from the `redoc` package the server is installed with.
         */
        get: operations["docs_renderer_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics
         * @description The process's counters in Prometheus' text format: capture requests by status, events ingested, events
         *     answered 200 but not ingested (by reason), the group commit's flushes (and how many of them started while
         *     another was in flight, which capture allows from 400 queued events) and their sizes, and its batches
         *     by path (`quick`: the persons of every distinct id were known and nothing changes them; `full`: persons
         *     were read and planned); and the API's personal API key lookups by where they were answered (`memory`:
         *     the access cache, which PostgreSQL tells of every change to keys, users, memberships, projects and
         *     organizations; `database`), with whether that cache is listening. Under `npm start`, whose primary
         *     process supervises worker processes, the answer covers every worker whichever one answers: counters are
         *     added up over the workers, gauges (memory, the access cache listening) are given per worker with a
         *     `worker` label, and `hedgerow_workers_configured`, `hedgerow_workers_alive` and
         *     `hedgerow_worker_restarts_total` count the workers. The counters are the answering host's own (one
         *     server of those behind a load balancer): `hedgerow_host_info`, first, names it in its `host` label
         *     (`HEDGEROW_HOST_ID`, as `/_health` does).
         */
        get: operations["metrics_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/i/v0/e/": {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capture events from the query string
         * @description The same as the POST, with the payload in the `data` query parameter (JSON, or base64 of it), as old
         *     SDKs and tracking pixels send it.
         */
        get: operations["capture_event_retrieve"];
        put?: never;
        /**
         * Capture events
         * @description The capture endpoint of current PostHog SDKs. The body is one event, an array of events, or a batch
         *     envelope `{api_key, batch, sent_at, historical_migration}`, as JSON, gzip (announced by
         *     `Content-Encoding`, by `compression`, or only by its magic bytes), a form with `data=`, base64 or lz64
         *     (see the `capture` tag). The project API key may be `api_key`, `token`, `$token` or `properties.token`.
         *
         *     Answered 200 `{"status": 1}` once every event that can be ingested is committed to the database. An
         *     event without a name, or with a missing or empty `distinct_id`, is answered 200 too and not ingested, so
         *     that SDKs never retry it; such drops are counted by reason (`GET /_metrics`) and recorded as the
         *     project's ingestion warnings.
         */
        post: operations["capture_event_create"];
        delete?: never;
        /**
         * CORS pre-flight for capture
         * @description Answers browsers' pre-flight requests: the request's `Origin` is mirrored, credentials are allowed, and
         *     the headers the browser asks for (such as `Content-Type` and `Content-Encoding`) are allowed.
         */
        options: operations["capture_event_options"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/e/": {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capture events from the query string (posthog-js path)
         * @description The payload is in the `data` query parameter; otherwise as `POST /e/`.
         */
        get: operations["capture_e_retrieve"];
        put?: never;
        /**
         * Capture events (posthog-js path)
         * @description Where posthog-js sends events until its remote configuration names `/i/v0/e/`. Accepts the same
         *     payloads and encodings and answers the same way as `POST /i/v0/e/`.
         */
        post: operations["capture_e_create"];
        delete?: never;
        /**
         * CORS pre-flight for /e/
         * @description As `OPTIONS /i/v0/e/`.
         */
        options: operations["capture_e_options"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/capture/": {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capture events from the query string (legacy path)
         * @description The payload is in the `data` query parameter; otherwise as `POST /capture/`.
         */
        get: operations["capture_capture_retrieve"];
        put?: never;
        /**
         * Capture events (legacy path)
         * @description A legacy capture path that old SDKs still use; as `POST /i/v0/e/`.
         */
        post: operations["capture_capture_create"];
        delete?: never;
        /**
         * CORS pre-flight for /capture/
         * @description As `OPTIONS /i/v0/e/`.
         */
        options: operations["capture_capture_options"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/track/": {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capture events from the query string (legacy path)
         * @description The payload is in the `data` query parameter; otherwise as `POST /track/`.
         */
        get: operations["capture_track_retrieve"];
        put?: never;
        /**
         * Capture events (legacy path)
         * @description A legacy capture path that old SDKs still use; as `POST /i/v0/e/`.
         */
        post: operations["capture_track_create"];
        delete?: never;
        /**
         * CORS pre-flight for /track/
         * @description As `OPTIONS /i/v0/e/`.
         */
        options: operations["capture_track_options"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/engage/": {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capture person updates from the query string (legacy path)
         * @description The payload is in the `data` query parameter; otherwise as `POST /engage/`.
         */
        get: operations["capture_engage_retrieve"];
        put?: never;
        /**
         * Capture person updates (legacy path)
         * @description A legacy path for person updates. As `POST /i/v0/e/`, except that an event without an `event` field is
         *     taken as an `$identify` event that applies its `$set` and `$set_once`.
         */
        post: operations["capture_engage_create"];
        delete?: never;
        /**
         * CORS pre-flight for /engage/
         * @description As `OPTIONS /i/v0/e/`.
         */
        options: operations["capture_engage_options"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batch/": {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capture a batch from the query string
         * @description The payload is in the `data` query parameter; otherwise as `POST /batch/`.
         */
        get: operations["capture_batch_retrieve"];
        put?: never;
        /**
         * Capture a batch of events
         * @description Where posthog-node and the other server SDKs send events: `{api_key, batch, sent_at,
         *     historical_migration}`, usually gzipped. The number of events is not limited; the request body must be
         *     under 20 MB. With `historical_migration: true` the events are imported historical data: they are
         *     flagged so and processed in request order. In a batch item `distinct_id` may be given inside
         *     `properties` instead. Every payload and encoding of `POST /i/v0/e/` is accepted too, with the same
         *     answers.
         */
        post: operations["capture_batch_create"];
        delete?: never;
        /**
         * CORS pre-flight for /batch/
         * @description As `OPTIONS /i/v0/e/`.
         */
        options: operations["capture_batch_options"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flags/": {
        parameters: {
            query?: {
                /**
                 * @description The version of the answer the SDK expects; posthog-js asks for `2`.
                 * @example 2
                 */
                v?: components["parameters"]["FlagsVersion"];
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate feature flags
         * @description What posthog-js asks at start-up (`POST /flags/?v=2`) and after `identify()` or `group()`, with the same
         *     encodings as capture. Hedgerow defines no feature flags, so `flags` is always empty; the answer lets
         *     the SDKs start normally with only `api_host` set.
         */
        post: operations["flags_create"];
        delete?: never;
        /**
         * CORS pre-flight for /flags/
         * @description As `OPTIONS /i/v0/e/`.
         */
        options: operations["flags_options"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/array/{token}/config": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project API key (`phc_...`).
                 * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
                 */
                token: components["parameters"]["ProjectToken"];
            };
            cookie?: never;
        };
        /**
         * Remote configuration of posthog-js (JSON)
         * @description What the posthog-js builds without external scripts load at start-up. It sends analytics to `/i/v0/e/`,
         *     compresses with gzip, and turns off what Hedgerow does not serve (session recording, surveys, heatmaps,
         *     site apps, feature flags).
         */
        get: operations["remote_config_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/array/{token}/config.js": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project API key (`phc_...`).
                 * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
                 */
                token: components["parameters"]["ProjectToken"];
            };
            cookie?: never;
        };
        /**
         * Remote configuration of posthog-js (script)
         * @description The script the default posthog-js bundle inserts at start-up: it stores the configuration of
         *     `GET /array/{token}/config` in `window._POSTHOG_REMOTE_CONFIG[token]`, with no site apps.
         */
        get: operations["remote_config_js_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/query/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a query
         * @description (Experimental) Runs a query inside the environment and answers its rows: a HogQL SELECT
         *     (`query.kind: HogQLQuery`) or an event listing (`query.kind: EventsQuery`, see the EventsQuery
         *     schema). Unknown fields are a 400 naming the field, another `kind` a 400 naming the kinds that run.
         *
         *     **Execution modes** (`refresh`, as PostHog maps it; there is no result cache, so every mode misses
         *     it). `async`, `lazy_async` and `force_async`, or `async: true` whatever `refresh` says: the query is
         *     queued and the answer is 202 with its `query_status` (`complete` false), whose `id` is
         *     `client_query_id` or a fresh uuid7 in hex; any Hedgerow process running the job engine runs it, and
         *     `GET /api/environments/{project_id}/query/{id}/` reads its status, with the response in `results` once
         *     `complete`. A status that exists for that `client_query_id` is answered as it is (200 once complete)
         *     unless the mode is `force_async`, which runs the query again. Every other mode (`blocking`,
         *     `force_blocking`, `async_except_on_cache_miss`, `true`, and the cache-only `force_cache`, `false` or
         *     none, which PostHog runs when nothing is cached) runs the query now: its rows are the answer (200).
         *     An asynchronous query is checked when it runs: its errors are in its status. 503 when no job engine
         *     has ever started on the database.
         *
         *     **Bounds.** An answer holds at most the server's answer budget of rows as JSON
         *     (`HEDGEROW_QUERY_RESULT_MAX_MB`, 20 MB by default): a query whose result is larger is stopped and
         *     answered 400 `The query's result is larger than 20 MB, the most one answer may hold. Add a LIMIT or
         *     select fewer columns.`; an asynchronous run held to the same budget fails with that message. A query
         *     not done within the query timeout (`HEDGEROW_QUERY_TIMEOUT_MS`: waiting for a database session,
         *     running, and reading its rows) is cancelled and answered 504 `query_timeout`, without `Retry-After`.
         *     Errors the query's text causes in the database (a value a function refuses, text that is not a
         *     number, more columns than PostgreSQL returns, a subquery of several rows used as one value) are 400s
         *     that name the problem.
         *
         *     **Answers in flight.** A process holds at most `HEDGEROW_ANSWER_MEMORY_MB` of answers at once (from
         *     when one starts being built until it has been sent), and one user, whatever organizations its key
         *     reaches, at most `HEDGEROW_ANSWER_MEMORY_PER_USER_MB`: a query that runs now reserves memory as its rows
         *     are counted and keeps its answer's size once built. Past the user's share a 429 `throttled_error`,
         *     past the process's a 503 `service_unavailable`, both with `Retry-After`: read the answers in flight
         *     first. An answer whose client reads none of it for `HEDGEROW_ANSWER_WRITE_TIMEOUT_MS` is cut off.
         *
         *     **Fair shares.** An environment runs at most `HEDGEROW_QUERY_CONCURRENCY_PER_ENVIRONMENT` (default 3)
         *     queries at once, across every Hedgerow process, and may have at most
         *     `HEDGEROW_ASYNC_QUERIES_PER_ENVIRONMENT` (default 10) asynchronous queries queued or running; so does
         *     the user of the API key across all of its environments (`HEDGEROW_QUERY_CONCURRENCY_PER_USER`,
         *     default 3; `HEDGEROW_ASYNC_QUERIES_PER_USER`, default 10), since a key that makes organizations
         *     makes environments. Past any of these a 429 `throttled_error` with `Retry-After` whose detail says
         *     whether the environment's or the user's share is used up, as PostHog answers a team over its
         *     concurrency limit (a submit that finds its query's status is answered as it is). Asynchronous
         *     queries are run by turns between environments and between users, each one's first before any one's
         *     second, and no environment nor user occupies every runner.
         *
         *     **The query language** is described with the `HogQLQuery` schema: a HogQL SELECT over the
         *     environment's `events`, `persons`, `sessions` and `groups`, with `{placeholders}` bound from `values`.
         */
        post: operations["environments_query_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/query/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * Read the status of an asynchronous query
         * @description (Experimental) The status of the asynchronous query `id` of the environment, as PostHog answers it:
         *     200 when it is complete without error (the query's response in `results`), 202 while it is queued or
         *     running, 400 with the status when it failed with a message to show (`error_message`: what the
         *     query's synchronous run would have answered, `Query cancelled`, or that the processes running it
         *     stopped), and 500 in the error format when it failed without one (a server error). A query whose
         *     process stops while running it is started again from the start by another (202 meanwhile,
         *     `pickup_time` null until then): a process stopped on purpose hands it over, one that died is found out
         *     here or by the job engine within a minute; after two takeovers for processes that died, the status is
         *     complete with that error instead. A status
         *     expires 20 minutes after its last change (`expiration_time`); unknown, expired and other
         *     environments' queries are a 404 `Query <id> not found for team <environment id>`. A result larger than
         *     the answer budget is never stored (the run fails with the synchronous 400's message), and `results`
         *     is answered as stored, so that reading a status costs no more than its stored size. A read reserves
         *     that size among the answers in flight, as the query endpoint's answers do (429 past the user's share,
         *     503 past the process's, with `Retry-After`).
         */
        get: operations["environments_query_retrieve"];
        put?: never;
        /**
         * Run a query of a named kind
         * @description (Experimental) The same as `POST .../query/`, with the query's kind also in the path (which is shared
         *     with a query's status, GET and DELETE: the kind is its `id`).
         *     The path's kind (`HogQLQuery`, `EventsQuery`) must be the body's `query.kind`, else a 400
         *     `Query kind mismatch: path kind "X" does not match body kind "Y".`; a kind that does not run is a 400
         *     naming the kinds that do.
         */
        post: operations["environments_query_with_kind_create"];
        /**
         * Cancel an asynchronous query
         * @description (Experimental) Cancels the asynchronous query `id` of the environment, from any Hedgerow process: a
         *     queued query never starts, and the statement of a running one is cancelled in PostgreSQL. Its status
         *     is then complete, with `error` true and `error_message` `Query cancelled` (PostHog deletes it
         *     instead), until it expires. A finished, unknown or expired query, or another environment's, is left
         *     as it is: 204 all the same, as PostHog answers. Needs only `query:read`.
         */
        delete: operations["environments_query_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/query/check_auth_for_async/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check that the caller may run asynchronous queries here
         * @description (Experimental) Answers 200 with no body when the key may query this environment: it has `query:read`
         *     and its user is a member of the environment's organization (the same check as every query operation);
         *     otherwise 403 (a key without the scope) or 404 (an environment the key cannot see). No body is read.
         *     PostHog answers `{"user": "ok"}` and refuses personal API keys; Hedgerow follows the API description
         *     (200, no body) and, since personal API keys are how its callers authenticate, answers them by scope.
         */
        post: operations["environments_query_check_auth_for_async_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/query/draft_sql/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * Draft a SQL query
         * @description (Experimental) Drafts a HogQL query from the words of `prompt`, without a language model: by fixed
         *     rules over the words and the environment's own event names (up to 1,000, by name) and property keys
         *     (up to 5,000, those of its latest 10,000 events),
         *     the same prompt over the same data always drafting the same query. The draft always parses and runs
         *     on `POST .../query/`. The contract shows no scope; Hedgerow asks for `query:read`.
         *
         *     **Rules**, each applied when its words appear (case does not matter; punctuation separates words):
         *     - an event name of the environment (the longest names first; a name may span several words, `$` is
         *       optional: `pageview` is `$pageview`) -> `WHERE event = '<name>'` (several: `event IN (...)`);
         *     - `count`, `how many` or `number of` -> `count()`;
         *     - `unique users`, `unique people`, `unique persons`, `unique visitors`, `distinct users` ->
         *       `uniq(distinct_id)` (instead of `count()`);
         *     - `per day`, `daily`, `by day`, `each day` -> `toStartOfDay(timestamp) AS day`, grouped and ordered by
         *       it; likewise `per hour`/`hourly`, `per week`/`weekly`, `per month`/`monthly`;
         *     - `by <key>` or `per <key>` where `<key>` is one of the environment's event property keys (`$`
         *       optional) -> `properties.<key>` selected and grouped by;
         *     - `last N days` or `past N days` (or hours, weeks, months; `last day` is one) -> `timestamp >= now() -
         *       INTERVAL N unit`; `today` -> `timestamp >= toStartOfDay(now())`;
         *     - with a time bucket the rows are ordered by it; else by the count (or uniq) descending, ties by the
         *       breakdown; `LIMIT 100`;
         *     - none of counting, grouping or bucket words: the matching events themselves (`SELECT event,
         *       distinct_id, timestamp ... ORDER BY timestamp DESC LIMIT 100`).
         *
         *     A prompt in which no rule finds a word is a 400 (`attr` prompt, code `unclear`). `current_query` is
         *     accepted, as PostHog's, and does not change the draft.
         */
        get: operations["environments_query_draft_sql_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/session_recording_playlists/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * List session recording playlists
         * @description Playlists of the environment that are not deleted, most recently modified first unless `order` says
         *     otherwise. The filters combine (all must hold).
         */
        get: operations["environments_session_recording_playlists_list"];
        put?: never;
        /**
         * Create a session recording playlist
         * @description Creates a playlist created and last modified by the caller, with a new `short_id`. `type` is required
         *     and fixed from then on: a `collection` may not have filters (an empty object is fine), a `filters`
         *     playlist (a saved search) needs non-empty `filters`. Each violation is a 400 with `attr` null.
         */
        post: operations["environments_session_recording_playlists_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/session_recording_playlists/{short_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
            };
            cookie?: never;
        };
        /**
         * Read a session recording playlist
         * @description A playlist that is not deleted; a deleted one answers 404.
         */
        get: operations["environments_session_recording_playlists_retrieve"];
        put?: never;
        post?: never;
        /**
         * Refuse to hard-delete a playlist
         * @description Hard delete of a playlist is not allowed: this answers 405 (`method_not_allowed`, PostHog's words) and
         *     deletes nothing. Use a PATCH that sets `deleted` to true instead. The write scope is still checked first.
         */
        delete: operations["environments_session_recording_playlists_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a session recording playlist
         * @description Changes any subset of the writable fields; read-only fields sent here (`short_id`, `type`, ...) are ignored.
         *     Setting `deleted: true` is the way to delete a playlist (it then disappears from list, retrieve and the
         *     recordings endpoints); this operation still reaches a deleted playlist, so `deleted: false` restores it.
         *     `last_modified_at` and `last_modified_by` change only when `name`, `description` or `filters` change.
         *     When `filters` is sent: a `collection` cannot be given non-empty filters, and a `filters` playlist cannot
         *     be left with empty or null filters (400, `attr` null).
         */
        patch: operations["environments_session_recording_playlists_partial_update"];
        trace?: never;
    };
    "/api/environments/{project_id}/session_recording_playlists/{short_id}/recordings/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
            };
            cookie?: never;
        };
        /**
         * List the recordings pinned to a playlist
         * @description The session recordings pinned to the playlist (not deleted), most recently pinned first. Only a
         *     `collection` can have pinned recordings; a `filters` playlist answers an empty list.
         */
        get: operations["environments_session_recording_playlists_recordings_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/session_recording_playlists/{short_id}/recordings/{session_recording_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
                /**
                 * @description The session id of the recording (the `$session_id` its events carry).
                 * @example 0190f1c4-7a1b-7c2d-8e3f-4a5b6c7d8e9f
                 */
                session_recording_id: components["parameters"]["SessionRecordingId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pin a recording to a playlist
         * @description Pins the session recording to the playlist (a `collection`); pinning one that is already pinned changes
         *     nothing. A request body, if any, is ignored.
         */
        post: operations["environments_session_recording_playlists_recordings_create"];
        /**
         * Unpin a recording from a playlist
         * @description Unpins the session recording; 404 when it is not pinned to this playlist.
         */
        delete: operations["environments_session_recording_playlists_recordings_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List organizations
         * @description The organizations the caller is a member of (only the key's scoped ones, if it has any; for a key scoped
         *     to projects, those that hold them, each listing only those projects).
         */
        get: operations["organizations_list"];
        put?: never;
        /**
         * Create an organization
         * @description Creates an organization with a slug derived from its name (unique; a random suffix is added on a clash).
         *     The caller becomes its owner, and it starts with one project holding one environment, as in PostHog.
         */
        post: operations["organizations_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization's UUID.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                id: components["parameters"]["OrganizationId"];
            };
            cookie?: never;
        };
        /**
         * Read an organization
         * @description An organization the caller is a member of.
         */
        get: operations["organizations_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete an organization
         * @description Deletes the organization with its projects, environments and everything stored in them. Needs an owner
         *     membership.
         */
        delete: operations["organizations_destroy"];
        options?: never;
        head?: never;
        /**
         * Update an organization
         * @description Changes any subset of the writable fields. Needs an administrator or owner membership.
         */
        patch: operations["organizations_partial_update"];
        trace?: never;
    };
    "/api/organizations/{id}/environments_rollback/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization's UUID.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                id: components["parameters"]["OrganizationId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll environments back into their projects
         * @description For organizations that used several environments per project: the body maps source environment ids
         *     (keys) to target environment ids (values) of the same organization. In one transaction, everything that
         *     belongs to each source environment moves to its target, and the emptied source environments are removed
         *     (a project left with no environment goes with them). An empty mapping answers 400
         *     `Environment mappings are required`; ids that are not environments of this organization answer 400
         *     `Environments not found: ...`; a source that is also another pair's target answers 400. A pair whose source
         *     equals its target changes nothing.
         *
         *     The contract shows no scope; Hedgerow asks for `organization:write` and, as PostHog does, an
         *     administrator or owner membership. It answers 200 with the organization, as the contract says (PostHog
         *     answers 202 and runs the move in the background).
         */
        post: operations["organizations_environments_rollback_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List projects
         * @description Projects of every organization the caller is a member of (only the key's scoped organizations and
         *     projects, if it has any), each with its environments and their project API tokens.
         */
        get: operations["projects_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * Read a project
         * @description A project with its environments and their project API tokens.
         */
        get: operations["projects_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organization_id}/batch_exports/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
            };
            cookie?: never;
        };
        /**
         * List batch exports
         * @description The organization's batch exports that are not deleted, newest first.
         */
        get: operations["batch_exports_list"];
        put?: never;
        /**
         * Create a batch export
         * @description Creates a batch export in one environment of the organization. As PostHog, the body needs no `team_id`:
         *     the export goes into the caller's current project (the one the user last worked in), when that project
         *     is in this organization. Otherwise the organization's only environment is taken, and an organization with
         *     several asks for `team_id` (400, `attr` `team_id`, code `required`). `team_id` is an extension of this
         *     server: it names the environment explicitly and must be one of the organization's.
         */
        post: operations["batch_exports_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organization_id}/batch_exports/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        /**
         * Read a batch export
         * @description A batch export of the organization with its latest runs.
         */
        get: operations["batch_exports_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a batch export
         * @description Deletes the batch export; it disappears from list and retrieve.
         */
        delete: operations["batch_exports_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a batch export
         * @description Changes any subset of the writable fields.
         */
        patch: operations["batch_exports_partial_update"];
        trace?: never;
    };
    "/api/organizations/{organization_id}/batch_exports/{id}/backfill/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Backfill a batch export
         * @deprecated
         * @description (Deprecated in favour of a POST to the export's backfills.) Starts runs for the past window
         *     `start_at`..`end_at`. The contract shows no response; Hedgerow answers as PostHog does, 200 with the id
         *     of the backfill.
         */
        post: operations["batch_exports_backfill_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organization_id}/batch_exports/{id}/pause/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a batch export
         * @description Stops triggering runs and records when: sets `paused` and `last_paused_at`. Pausing a paused export changes
         *     nothing. A body, if any, is ignored.
         */
        post: operations["batch_exports_pause_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organization_id}/batch_exports/{id}/unpause/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unpause a batch export
         * @description Resumes triggering runs. With `{"backfill": true}` it also starts a backfill of what the pause missed: from
         *     `last_paused_at` to now, both floored to the interval (nothing when that window is empty). Unpausing an
         *     export that is not paused changes nothing.
         */
        post: operations["batch_exports_unpause_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * List the batch exports of an environment
         * @description The environment's batch exports that are not deleted, newest first, 100 a page unless `limit` says otherwise.
         */
        get: operations["environments_batch_exports_list"];
        put?: never;
        /**
         * Create a batch export in an environment
         * @description Creates a batch export of the environment the path names (a `team_id` in the body is ignored). The rules
         *     are those of the organization-level create.
         */
        post: operations["environments_batch_exports_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        /**
         * Read a batch export of an environment
         * @description A batch export of the environment with its 10 most recent runs.
         */
        get: operations["environments_batch_exports_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a batch export of an environment
         * @description Deletes the batch export (it disappears from list and retrieve) and cancels its unfinished backfills and
         *     their unfinished runs.
         */
        delete: operations["environments_batch_exports_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a batch export of an environment
         * @description Changes any subset of the writable fields; `destination.config` is merged into the stored one, so secrets
         *     need not be sent again.
         */
        patch: operations["environments_batch_exports_partial_update"];
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/backfill/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Backfill a batch export of an environment
         * @deprecated
         * @description (Deprecated in favour of `POST .../backfills/`, which it equals.) Starts a backfill of the window `start_at`..`end_at` (ISO 8601 with an offset): the window is cut into
         *     the export's intervals, which run one after another, by event time. A start before the environment's earliest
         *     data is moved forward to it (aligned to the interval: `adjusted_start_at`). Only HTTP and NoOp exports may
         *     omit `end_at`. Answers the id of the backfill, to be read at `backfills/{backfill_id}/` of the environment.
         */
        post: operations["environments_batch_exports_backfill_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/pause/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a batch export
         * @description Stops triggering runs and records when: sets `paused` and `last_paused_at`. Pausing a paused export changes
         *     nothing. A body, if any, is ignored.
         */
        post: operations["environments_batch_exports_pause_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/unpause/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unpause a batch export
         * @description Resumes triggering runs. With `{"backfill": true}` it also starts a backfill of what the pause missed: from
         *     `last_paused_at` to now, both floored to the interval (nothing when that window is empty). Unpausing an
         *     export that is not paused changes nothing.
         */
        post: operations["environments_batch_exports_unpause_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/backfills/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        /**
         * List the backfills of a batch export
         * @description The export's backfills, newest first by `created_at`. Pages are read by cursor as PostHog's (and as the
         *     runs'): follow `next` and `previous`, whose opaque `cursor` names where the page continues; a cursor this
         *     server did not write answers 404 `Invalid cursor`. 100 backfills a page unless `limit` (an extension of
         *     this server) says otherwise.
         */
        get: operations["environments_batch_exports_backfills_list"];
        put?: never;
        /**
         * Start a backfill of a batch export
         * @description Starts a backfill of the window `start_at`..`end_at` (ISO 8601 with an offset): the window is cut into
         *     the export's intervals, which run one after another, by event time. A start before the environment's earliest
         *     data is moved forward to it (aligned to the interval: `adjusted_start_at`). Only HTTP and NoOp exports may
         *     omit `end_at`. Answers the id of the backfill, to be read at `backfills/{backfill_id}/` of the environment.
         */
        post: operations["environments_batch_exports_backfills_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/backfills/{backfill_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The backfill's UUID, as `backfill_id` answered when it was started.
                 * @example 0190f1c4-9b00-7c00-8000-0000000000b1
                 */
                backfill_id: components["parameters"]["BatchExportBackfillId"];
            };
            cookie?: never;
        };
        /**
         * Read a backfill of a batch export
         * @description One backfill with its progress: how many of its runs are expected and how many have finished.
         */
        get: operations["environments_batch_exports_backfills_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/backfills/{backfill_id}/cancel/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The backfill's UUID, as `backfill_id` answered when it was started.
                 * @example 0190f1c4-9b00-7c00-8000-0000000000b1
                 */
                backfill_id: components["parameters"]["BatchExportBackfillId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a backfill
         * @description Cancels the backfill and those of its runs that have not finished. A backfill that is already over is
         *     left as it is (400).
         */
        post: operations["environments_batch_exports_backfills_cancel_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/runs/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        /**
         * List the runs of a batch export
         * @description The export's runs, as PostHog lists them: newest first by `created_at`, those created between `after` and
         *     `before` (both included; by default the last 7 days up to now). Ordered by `data_interval_start`
         *     instead, those whose interval starts at or after `start` and ends at or before `end` (the same
         *     defaults). Pages are read by cursor as PostHog's: follow `next` and `previous`, whose opaque `cursor`
         *     names where the page continues; a cursor this server did not write answers 404 `Invalid cursor`. 100
         *     runs a page unless `limit` (an extension of this server) says otherwise.
         */
        get: operations["environments_batch_exports_runs_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/runs/{run_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The run's UUID.
                 * @example 0190f1c4-9a00-7c00-8000-000000000001
                 */
                run_id: components["parameters"]["BatchExportRunId"];
            };
            cookie?: never;
        };
        /**
         * Read a run of a batch export
         * @description One run of the export.
         */
        get: operations["environments_batch_exports_runs_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/runs/{run_id}/cancel/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The run's UUID.
                 * @example 0190f1c4-9a00-7c00-8000-000000000001
                 */
                run_id: components["parameters"]["BatchExportRunId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run
         * @description Cancels a run that is `Starting` or `Running`; the worker running it stops soon after. Any other status
         *     answers 400 `Cannot cancel a run that is in '<status>' status`.
         */
        post: operations["environments_batch_exports_runs_cancel_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/batch_exports/{id}/runs/{run_id}/retry/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The run's UUID.
                 * @example 0190f1c4-9a00-7c00-8000-000000000001
                 */
                run_id: components["parameters"]["BatchExportRunId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a run
         * @description Runs the run's interval again, as a new backfill that covers exactly that interval; answers its id.
         */
        post: operations["environments_batch_exports_runs_retry_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/query/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a query
         * @description (Experimental) The twin of `POST /api/environments/{project_id}/query/`, answering the same: runs a
         *     HogQL SELECT (`query.kind: HogQLQuery`) or an event listing (`query.kind: EventsQuery`) inside the
         *     environment and answers its rows, now or asynchronously by `refresh`. The execution modes, the bounds
         *     of an answer (its size and time: 400 past the answer budget, 504 past the query timeout), and the
         *     query language (with the `HogQLQuery` schema), are described there.
         */
        post: operations["query_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/query/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a query of a named kind
         * @description (Experimental) The twin of `POST /api/environments/{project_id}/query/{id}/`: the same as `POST
         *     .../query/`, with the query's kind also in the path.
         *     The path's kind (`HogQLQuery`, `EventsQuery`) must be the body's `query.kind`, else a 400
         *     `Query kind mismatch: path kind "X" does not match body kind "Y".`; a kind that does not run is a 400
         *     naming the kinds that do.
         */
        post: operations["query_with_kind_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/events/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * List events
         * @deprecated
         * @description (Deprecated, kept for backwards compatibility: use the query endpoint to list or aggregate ad hoc, and
         *     batch exports to export in bulk.) Stored events of the project, newest first.
         *
         *     **Paging.** `next` is the absolute URL of the following page: every parameter of the request is kept,
         *     `offset` is dropped, and an opaque `cursor` marks the last event returned. Pages are keyed on
         *     (timestamp, uuid), so following `next` returns every matching event exactly once, however many events
         *     share a timestamp; `before` and `after` keep their meaning. `next` is null on the last page and with
         *     `format=csv`.
         *
         *     **Filters**, all of which must hold: `after`, `before`, `event`, `distinct_id`, `person_id` (every
         *     distinct id of the person, including ids merged into it), `properties` (PostHog's property filters) and
         *     `where` (HogQL conditions).
         *
         *     **select** turns the page into rows: `{columns, next, results}` with one list of values per event, in
         *     the order asked. When a selected expression is an aggregate (`count()`, `sum(...)`, ...), the rows are
         *     grouped by the other selected expressions and ordered by the first aggregate, largest first.
         *
         *     **HogQL** (in `select`, `where` and `hogql` property filters): literals, `+ - * / %`, comparisons,
         *     `and/or/not`, `in`, `like/ilike`, `is [not] null`, `between`, `interval`; fields `uuid`, `event`,
         *     `timestamp`, `distinct_id`, `elements_chain`, `person_id`, `$group_0`...`$group_4`,
         *     `properties.<name>` (also `properties['key with spaces']`), `person.properties.<name>`; functions
         *     `count`, `countIf`, `uniq`, `sum`, `avg`, `min`, `max`, `toDate`, `toDateTime`, `toString`, `toInt`,
         *     `toFloat`, `toUUID`, `toStartOfHour/Day/Week/Month`, `now`, `today`, `dateDiff`, `lower`, `upper`,
         *     `concat`, `length`, `coalesce`, `ifNull`, `if`, `multiIf`, `isNull`, `isNotNull`, `match`,
         *     `JSONExtractString`. Days and wall-clock times are read in the project's timezone; a number added to a
         *     datetime counts seconds (`timestamp + 60`), to a date days. A property beside a number, text or boolean
         *     in `coalesce`, `ifNull`, `if` and `multiIf` keeps its stored value and JSON type
         *     (`ifNull(properties.price, 0)` is the price, 9.5 or "9.5", or 0; grouped by, 5 and "5" are two
         *     groups). Two such values, and `min` and `max` of a property, compare as numbers when every value reads
         *     as one (booleans as 1 and 0), as text otherwise. An object or array property equals a text holding the
         *     same JSON, however spaced (`properties.tags = '["a","b"]'`). An unknown field or function, or an
         *     expression that does not parse, is a 400 naming the parameter; so is a value out of range when only one
         *     parameter holds expressions.
         *
         *     **Regular expressions** (`regex`, `not_regex`, `match`) are written as PostHog's (re2): `\b` is a word
         *     boundary and flags such as `(?i)` come first. Unicode classes (`\p{L}`) and more than 255 repetitions
         *     are a 400.
         *
         *     A query that runs longer than the server's statement timeout is cancelled (504).
         *
         *     **Bounds.** A page holds at most the answer budget of the query endpoint (`HEDGEROW_QUERY_RESULT_MAX_MB`,
         *     20 MB by default), as JSON or CSV: a larger one is answered 400 ("The page of events is larger than 20
         *     MB, the most one answer may hold. Lower `limit` or select fewer columns."). Pages are answers in flight
         *     as the query endpoint's are: 429 past the user's share, 503 past the process's, with `Retry-After`.
         */
        get: operations["events_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/events/values/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * List values of an event property
         * @deprecated
         * @description (Deprecated, kept for backwards compatibility.) Up to 10 distinct values of the property `key`, read
         *     from the newest 100,000 events of the last 7 days: most frequent first, or with `value`, the values
         *     containing it, shortest first. `key=custom_event` lists event names that do not start with `$`. The
         *     contract shows no response; Hedgerow answers as PostHog does, a list of `{name}`.
         */
        get: operations["events_values_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/events/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The event's UUID, with or without its hyphens.
                 * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
                 */
                id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        /**
         * Read an event
         * @deprecated
         * @description (Deprecated, kept for backwards compatibility.) One stored event by its UUID: 400 when `id` is not a
         *     UUID, 404 when the project has no such event.
         */
        get: operations["events_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/events/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * List events (environment path)
         * @deprecated
         * @description (Deprecated.) The same listing as `events_list` under `/api/environments/`: same parameters, same
         *     answers.
         */
        get: operations["environments_events_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/events/values/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * List values of an event property (environment path)
         * @deprecated
         * @description (Deprecated.) The same as `events_values_retrieve` under `/api/environments/`.
         */
        get: operations["environments_events_values_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/{project_id}/events/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The event's UUID, with or without its hyphens.
                 * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
                 */
                id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        /**
         * Read an event (environment path)
         * @deprecated
         * @description (Deprecated.) The same as `events_retrieve` under `/api/environments/`.
         */
        get: operations["environments_events_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The one error format of every endpoint (built by `db/core/errors.ts`, written by `handlers/server/app.ts`). */
        Error: {
            /**
             * @description The family of the error.
             * @example validation_error
             * @enum {string}
             */
            type: "authentication_error" | "invalid_request" | "validation_error" | "throttled_error" | "server_error";
            /**
             * @description A machine-readable code, stable across releases (for example `required`, `not_found`).
             * @example required
             */
            code: string;
            /**
             * @description A human-readable explanation.
             * @example This field is required.
             */
            detail: string;
            /**
             * @description The field or parameter at fault (nested fields joined with `__`), or null.
             * @example name
             */
            attr: string | null;
        };
        /** @description A user, as embedded in other resources; null when the user is gone. */
        UserBasic: {
            /** @example 1 */
            readonly id: number;
            /**
             * Format: uuid
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f01
             */
            readonly uuid: string;
            /**
             * @description The distinct id under which the user's own analytics events are captured.
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f02
             */
            distinct_id: string;
            /** @example Ada */
            first_name: string;
            /** @example Lovelace */
            last_name: string;
            /**
             * Format: email
             * @example ada@example.com
             */
            email: string;
            /**
             * @description Null when verification was never asked for.
             * @example true
             */
            is_email_verified: boolean | null;
            /**
             * @description Free-form avatar settings of the user, or null.
             * @example null
             */
            hedgehog_config: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The role the user gave themselves; PostHog's values, or empty or null when not given.
             * @example engineering
             * @enum {string|null}
             */
            role_at_organization: "engineering" | "data" | "product" | "founder" | "leadership" | "marketing" | "sales" | "other" | "" | null;
        } | null;
        /**
         * @description Recording counts as PostHog shapes them. `collection.count` is the number of pinned recordings (null when
         *     none). The `saved_filters` fields stay null until recordings matching the filters have been counted;
         *     Hedgerow does not count them yet, so they are always null.
         * @example {
         *       "collection": {
         *         "count": null,
         *         "watched_count": 0
         *       },
         *       "saved_filters": {
         *         "count": null,
         *         "has_more": null,
         *         "watched_count": null,
         *         "increased": null,
         *         "last_refreshed_at": null
         *       }
         *     }
         */
        RecordingsCounts: {
            /** @description The recordings pinned to the playlist. */
            collection: {
                /**
                 * @description How many recordings are pinned; null when none.
                 * @example 2
                 */
                count: number | null;
                /**
                 * @description How many of the pinned recordings the caller has watched.
                 * @example 0
                 */
                watched_count: number;
            };
            /** @description The recordings matching the playlist's filters, once counted. */
            saved_filters: {
                /**
                 * @description How many recordings matched when last counted.
                 * @example null
                 */
                count: number | null;
                /**
                 * @description Whether more recordings matched than were counted.
                 * @example null
                 */
                has_more: boolean | null;
                /**
                 * @description How many of the matching recordings the caller has watched.
                 * @example null
                 */
                watched_count: number | null;
                /**
                 * @description Whether the count grew since the count before.
                 * @example null
                 */
                increased: boolean | null;
                /**
                 * Format: date-time
                 * @description When the matching recordings were last counted.
                 * @example null
                 */
                last_refreshed_at: string | null;
            };
        };
        /**
         * @description `collection` (hand-picked recordings) or `filters` (a saved search); set at creation only.
         * @example collection
         * @enum {string}
         */
        PlaylistType: "collection" | "filters";
        /** @description A saved filter or collection of session recordings. */
        SessionRecordingPlaylist: {
            /** @example 12 */
            readonly id: number;
            /**
             * @description Eight random letters and digits, unique in the environment; the key used in paths.
             * @example aB3dE5gH
             */
            readonly short_id: string;
            /** @example Checkout drop-offs */
            name: string | null;
            /**
             * @description A name derived from the filters, free text.
             * @example null
             */
            derived_name: string | null;
            /** @example Sessions that left at the payment step. */
            description: string;
            /** @example false */
            pinned: boolean;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            readonly created_at: string;
            created_by: components["schemas"]["UserBasic"];
            /**
             * @description True once soft-deleted; setting it is the way to delete.
             * @example false
             */
            deleted: boolean;
            /**
             * @description Any JSON value describing the saved search.
             * @example {}
             */
            filters: unknown;
            /**
             * Format: date-time
             * @description When `name`, `description` or `filters` last changed.
             * @example 2026-11-21T10:00:00Z
             */
            readonly last_modified_at: string;
            last_modified_by: components["schemas"]["UserBasic"];
            recordings_counts: components["schemas"]["RecordingsCounts"];
            type: components["schemas"]["PlaylistType"];
            /**
             * @description Whether the playlist is one the product makes up (PostHog's built-in lists, such as recordings with
             *     comments) rather than one a user made. Hedgerow makes up none, so every playlist here answers false.
             * @example false
             */
            readonly is_synthetic: boolean;
        };
        /**
         * @description The writable playlist fields, and `type`, which must be given here and cannot change afterwards. Other
         *     fields are ignored.
         */
        SessionRecordingPlaylistCreate: {
            /** @example Checkout drop-offs */
            name?: string | null;
            /** @example null */
            derived_name?: string | null;
            /** @example Sessions that left at the payment step. */
            description?: string;
            /** @example false */
            pinned?: boolean;
            /** @example false */
            deleted?: boolean;
            /**
             * @description Any JSON value describing the saved search.
             * @example {}
             */
            filters?: unknown;
            /**
             * @description Required: `collection` (hand-picked recordings) or `filters` (a saved search). Anything else,
             *     including a missing value, is answered 400 "Must provide a valid playlist type: either filters or
             *     collection" with `attr` null.
             * @example collection
             */
            type?: unknown;
            /**
             * @description The folder to file the new playlist in; stored, never returned.
             * @example Replay/Checkout
             */
            _create_in_folder?: string;
        };
        /**
         * @description Any subset of the writable playlist fields. Read-only fields sent here (`short_id`, `type`, ...) are
         *     ignored, and so is `_create_in_folder`, which only means something at creation.
         */
        PatchedSessionRecordingPlaylist: {
            /** @example Checkout drop-offs (EU) */
            name?: string | null;
            /** @example null */
            derived_name?: string | null;
            /** @example Sessions that left at the payment step. */
            description?: string;
            /** @example true */
            pinned?: boolean;
            /** @example false */
            deleted?: boolean;
            /**
             * @description Any JSON value describing the saved search.
             * @example {}
             */
            filters?: unknown;
            /** @example Replay/Checkout */
            _create_in_folder?: string;
        };
        PaginatedSessionRecordingPlaylistList: components["schemas"]["PageLinks"] & {
            results: components["schemas"]["SessionRecordingPlaylist"][];
        };
        /** @description One page of the recordings pinned to a playlist, in PostHog's recordings-list shape. */
        PlaylistRecordings: {
            results: components["schemas"]["PlaylistRecording"][];
            /**
             * @description Whether more pinned recordings follow this page.
             * @example false
             */
            has_next: boolean;
        };
        /**
         * @description A recording pinned to a playlist. Hedgerow does not store the recordings themselves, so only the
         *     session id is known.
         */
        PlaylistRecording: {
            /**
             * @description The recording's session id.
             * @example 0190f1c4-7a1b-7c2d-8e3f-4a5b6c7d8e9f
             */
            id: string;
        };
        /** @description The acknowledgement of pinning or unpinning a recording. */
        PlaylistRecordingChange: {
            /**
             * @example true
             * @enum {boolean}
             */
            success: true;
        };
        /** @description The envelope of every paginated list (limit/offset pagination). */
        PageLinks: {
            /**
             * @description Total number of items across all pages.
             * @example 1
             */
            count: number;
            /**
             * Format: uri
             * @description The absolute URL of the following page, or null on the last page.
             * @example null
             */
            next: string | null;
            /**
             * Format: uri
             * @description The absolute URL of the preceding page, or null on the first page.
             * @example null
             */
            previous: string | null;
        };
        /** @description An environment (PostHog's team) inside a project. */
        TeamBasic: {
            /**
             * @description The environment id used in `/api/environments/{project_id}/...` paths.
             * @example 2
             */
            id: number;
            /**
             * Format: uuid
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f03
             */
            uuid: string;
            /**
             * Format: uuid
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
             */
            organization: string;
            /** @example 2 */
            project_id: number;
            /**
             * @description The project API key (`phc_...`) that capture requests carry.
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            api_token: string;
            /** @example Default project */
            name: string;
            /** @example UTC */
            timezone: string;
            /** @example false */
            is_demo: boolean;
            /**
             * @description Whether any event has been captured into this environment.
             * @example false
             */
            ingested_event: boolean;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            created_at: string;
        };
        /** @description A project as listed inside its organization. */
        ProjectBasic: {
            /** @example 2 */
            id: number;
            /**
             * Format: uuid
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
             */
            organization_id: string;
            /** @example Default project */
            name: string;
        };
        /** @description A project with its environments. Its id is also the id of its first environment, as in PostHog. */
        Project: {
            /** @example 2 */
            id: number;
            /**
             * Format: uuid
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f04
             */
            uuid: string;
            /**
             * Format: uuid
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
             */
            organization: string;
            /** @example Default project */
            name: string;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            created_at: string;
            environments: components["schemas"]["TeamBasic"][];
        };
        PaginatedProjectList: components["schemas"]["PageLinks"] & {
            results: components["schemas"]["Project"][];
        };
        /**
         * @description The default statistical method for new experiments of the organization.
         * @example bayesian
         * @enum {string}
         */
        StatsMethod: "bayesian" | "frequentist";
        /** @description An organization, as seen by the caller. */
        Organization: {
            /**
             * Format: uuid
             * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
             */
            readonly id: string;
            /** @example Acme */
            name: string;
            /**
             * @description Derived from the name at creation, lower-case, unique; never changes afterwards.
             * @example acme
             */
            readonly slug: string;
            /**
             * Format: uuid
             * @description The UUID of the organization's logo, or null.
             * @example null
             */
            logo_media_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            readonly created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            readonly updated_at: string;
            /**
             * @description The caller's membership level in this organization: 1 member, 8 administrator, 15 owner.
             * @example 15
             * @enum {integer}
             */
            readonly membership_level: 1 | 8 | 15;
            /**
             * @description 0 none, 3 config, 6 install, 9 root; a self-hosted organization has root access (9).
             * @example 9
             * @enum {integer}
             */
            readonly plugins_access_level: 0 | 3 | 6 | 9;
            /** @description The organization's environments. */
            readonly teams: components["schemas"]["TeamBasic"][];
            /** @description The organization's projects. */
            readonly projects: components["schemas"]["ProjectBasic"][];
            /**
             * @description Paid features available to the organization; a self-hosted Hedgerow has none.
             * @example []
             */
            readonly available_product_features: {
                [key: string]: unknown;
            }[];
            /** @example true */
            is_member_join_email_enabled: boolean;
            /**
             * @description Instance metadata as a JSON-encoded string (`{"instance_tag": ...}`). PostHog returns the object itself;
             *     Hedgerow keeps the contract's string type.
             * @example {"instance_tag":"hedgerow"}
             */
            readonly metadata: string;
            /**
             * @description The billing customer id; null on a self-hosted instance.
             * @example null
             */
            readonly customer_id: string | null;
            /**
             * @description Whether members must use two-factor authentication; null until set.
             * @example null
             */
            enforce_2fa: boolean | null;
            /** @example true */
            members_can_invite: boolean;
            /**
             * @description The number of members, as a decimal string (the contract's type; PostHog returns an integer).
             * @example 1
             */
            readonly member_count: string;
            /**
             * @description Whether members may send data to AI features; null until decided.
             * @example null
             */
            is_ai_data_processing_approved: boolean | null;
            default_experiment_stats_method: components["schemas"]["StatsMethod"];
        };
        /** @description The writable organization fields; `name` is required. */
        OrganizationCreate: {
            /** @example Acme */
            name: string;
            /**
             * Format: uuid
             * @example null
             */
            logo_media_id?: string | null;
            /** @example true */
            is_member_join_email_enabled?: boolean;
            /** @example false */
            enforce_2fa?: boolean | null;
            /** @example true */
            members_can_invite?: boolean;
            /** @example false */
            is_ai_data_processing_approved?: boolean | null;
            default_experiment_stats_method?: components["schemas"]["StatsMethod"];
        };
        /** @description Any subset of the writable organization fields; read-only fields sent here are ignored. */
        PatchedOrganization: {
            /** @example Acme Europe */
            name?: string;
            /**
             * Format: uuid
             * @example null
             */
            logo_media_id?: string | null;
            /** @example false */
            is_member_join_email_enabled?: boolean;
            /** @example true */
            enforce_2fa?: boolean | null;
            /** @example false */
            members_can_invite?: boolean;
            /** @example true */
            is_ai_data_processing_approved?: boolean | null;
            default_experiment_stats_method?: components["schemas"]["StatsMethod"];
        };
        /**
         * @description A mapping from source environment id (the key, digits) to target environment id (an integer, or a string
         *     of digits).
         * @example {
         *       "3": 2
         *     }
         */
        EnvironmentsRollbackRequest: {
            [key: string]: number | string;
        };
        PaginatedOrganizationList: components["schemas"]["PageLinks"] & {
            results: components["schemas"]["Organization"][];
        };
        /** @description The state of an asynchronous query; `complete` is true once it finished, even with an error. */
        QueryStatus: {
            /** @example 4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f */
            id: string;
            /** @example 2 */
            team_id: number;
            /** @example true */
            query_async: boolean;
            /** @example false */
            complete: boolean;
            /** @example false */
            error: boolean;
            /** @example null */
            error_message: string | null;
            /**
             * @description The full query response once complete without error (as the synchronous answer), else null.
             * @example null
             */
            results: unknown;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            start_time: string | null;
            /**
             * Format: date-time
             * @example null
             */
            pickup_time: string | null;
            /**
             * Format: date-time
             * @example null
             */
            end_time: string | null;
            /**
             * Format: date-time
             * @example null
             */
            expiration_time: string | null;
            /**
             * @description The id of the job that runs the query.
             * @example 0190f1c4-9a00-7c00-8000-000000000002
             */
            task_id: string | null;
            /** @example null */
            insight_id: number | null;
            /** @example null */
            dashboard_id: number | null;
            /** @example null */
            labels: string[] | null;
            query_progress: components["schemas"]["QueryProgress"];
        };
        /** @description How far a running query has got, as PostHog reports it from ClickHouse; Hedgerow does not measure it, and it is always null. */
        QueryProgress: {
            /** @example 1048576 */
            bytes_read: number;
            /** @example 10000 */
            rows_read: number;
            /** @example 50000 */
            estimated_rows_total: number;
            /** @example 120 */
            time_elapsed: number;
            /** @example 90 */
            active_cpu_time: number;
        } | null;
        /**
         * @description A query to run, as PostHog's QueryRequest: `query` is a `HogQLQuery` or an `EventsQuery` (by its
         *     `kind`). `refresh` (or the legacy `async`) chooses whether it runs now or asynchronously, and
         *     `client_query_id` names an asynchronous run; `name` and `limit_context` are accepted. Hedgerow has no
         *     dashboards or insight variables: `filters_override` and `variables_override` are accepted for
         *     PostHog's clients and change nothing.
         */
        QueryRequest: {
            query: components["schemas"]["HogQLQuery"] | components["schemas"]["EventsQuery"];
            /**
             * @description The id of the query's status when it runs asynchronously (a fresh uuid7 in hex without it).
             * @example 0b3cd2f1-7a53-4e7c-8d1f-6a2f1c9e0b44
             */
            client_query_id?: string | null;
            /**
             * @description The execution mode: `async`, `lazy_async` and `force_async` run the query asynchronously (202, or
             *     200 when its status exists and is complete);
             *     any other value, or none, runs it now.
             * @example blocking
             */
            refresh?: boolean | ("blocking" | "async" | "lazy_async" | "force_blocking" | "force_async" | "force_cache" | "async_except_on_cache_miss");
            /**
             * @description For older clients; true runs the query asynchronously, as PostHog, whatever `refresh` says.
             * @example false
             */
            async?: boolean | null;
            /**
             * @description A dashboard's filters in PostHog; accepted and not used.
             * @example null
             */
            filters_override?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Insight variables' values in PostHog; accepted and not used.
             * @example null
             */
            variables_override?: {
                [key: string]: unknown;
            } | null;
            /** @example Events by name */
            name?: string | null;
            /**
             * @description The one value PostHog accepts from clients; it does not change the row limits here.
             * @example posthog_ai
             * @enum {string|null}
             */
            limit_context?: "posthog_ai" | null;
        };
        /**
         * @description A HogQL SELECT and the values of its `{name}` placeholders.
         *
         *     **The SELECT.** `[WITH name AS (query) | expr AS name, ...] SELECT [DISTINCT] [TOP n] expr [AS alias], ... [FROM source
         *     [AS alias] [join ...] [[LEFT] ARRAY JOIN array AS name, ...]] [PREWHERE ...] [WHERE ...] [GROUP BY ...]
         *     [HAVING ...] [WINDOW name AS (window), ...] [ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST], ...] [LIMIT n
         *     [OFFSET m] BY expr, ...] [LIMIT n [WITH TIES] [OFFSET m] | OFFSET m] [UNION ALL|UNION DISTINCT|INTERSECT
         *     [DISTINCT]|EXCEPT [DISTINCT] SELECT ...]`. Without FROM a SELECT is one row. A source is the table
         *     `events`, `persons`, `person_distinct_ids`, `sessions` or `groups` (`SAMPLE 1` and `FINAL` accepted), a WITH query's name, a
         *     query in parentheses, or `numbers(n)` / `numbers(offset, n)` (the column `number`, at most 1,000,000
         *     rows). A join is `, source`, `CROSS JOIN source`, or `[INNER|LEFT|RIGHT|FULL] [OUTER] JOIN source ON
         *     condition | USING (names)` (FULL only on equalities), with `ANY`, `SEMI` or `ANTI` on LEFT joins; where
         *     an outer join finds no row, the other side's fields are their type's default (`''`, 0, ...) and its
         *     properties null, as in PostHog. ARRAY JOIN gives a row per element of its arrays (zipped; LEFT keeps
         *     empty ones with a default element). `x [NOT] IN (SELECT ...)` and `(SELECT ...)` (its first row's one
         *     column) hold in expressions, and `(expr AS name)` names expr for the whole SELECT, as a column's alias
         *     does. `GROUP BY 1` and `ORDER BY 2` name columns by position. `*` is every field of the table (of each
         *     joined one, in turn), `alias.*` every field of one; `alias.field` names a joined table's field. Every table a query reads, however
         *     nested or joined (implicit joins included), is read within the environment. ASOF joins, QUALIFY,
         *     `WITH FILL`, `SETTINGS` and other SAMPLE ratios are a 400. `LIMIT n BY x` keeps the first
         *     n rows of each value of x in the query's order.
         *
         *     **Comments.** `-- ...` and `// ...` to the end of the line and `/* ... *\/` (not nested: the first `*\/`
         *     ends it; an unterminated one is a 400) are white space, as in PostHog's HogQL, except inside quotes;
         *     `#` is not a comment. The same holds wherever HogQL is read.
         *
         *     **Fields.** `events`: `uuid`, `event`, `timestamp`, `distinct_id`, `elements_chain`, `created_at`,
         *     `properties.<name>`, `person_id`, `event_person_id` (the person the event was stored with),
         *     `$session_id`, `$window_id`, `$group_0`...`$group_4`, `elements_chain_href`, `elements_chain_texts`,
         *     `elements_chain_ids`, `elements_chain_elements` (as PostHog extracts them from elements_chain); through the event's person `person.id`,
         *     `person.created_at`, `person.is_identified` and `person.properties.<name>`; the person as stored on the
         *     event at capture `poe.id`, `poe.created_at` and `poe.properties.<name>` (the person's properties once
         *     the event was processed; null for an event without a person); through its distinct id
         *     `pdi.distinct_id`, `pdi.person_id` and `pdi.person.<persons field>`; through its groups
         *     `group_0`...`group_4.<groups field>`; through its session `session.<sessions field>`. `persons`: `id`,
         *     `created_at`, `is_identified`, `properties.<name>`. `person_distinct_ids`: `distinct_id`, `person_id`,
         *     `person.<persons field>`. `groups`: `index`, `key`, `created_at`, `properties.<name>`. `sessions` (one
         *     row per `$session_id` of the events, computed as PostHog's sessions table): `session_id` (also `id`),
         *     `distinct_id` (the latest), `$start_timestamp`, `$end_timestamp`, `max_inserted_at`,
         *     `$session_duration` (also `duration`: the second boundaries crossed), `$urls` (distinct, in the order
         *     first visited), `$num_uniq_urls`, `$entry_current_url`, `$entry_pathname`, `$entry_hostname`,
         *     `$end_current_url`, `$end_pathname`, `$end_hostname`, `$exit_current_url`, `$exit_pathname` (the first
         *     and last URLs of the session), `$last_external_click_url`, `$entry_referring_domain`,
         *     `$entry_referrer`, `$entry_utm_source`, `$entry_utm_campaign`, `$entry_utm_medium`, `$entry_utm_term`,
         *     `$entry_utm_content` and `$entry_<ad id>` for `gclid`, `gad_source`, `gclsrc`, `dclid`, `gbraid`,
         *     `wbraid`, `fbclid`, `msclkid`, `twclid`, `li_fat_id`, `mc_cid`, `igshid`, `ttclid`, `_kx`, `irclid`
         *     (the first event's), `$pageview_count`, `$autocapture_count`, `$screen_count`,
         *     `$page_screen_autocapture_count_up_to`, `$is_bounce` (null without a pageview; a bounce is one
         *     pageview, no autocapture and less than 10 seconds), `$vitals_lcp`. `$channel_type` and `goe_N` are
         *     a 400 that says why.
         *
         *     **Functions.** Those of the event listing's HogQL, and `uniqExact`, `countDistinct`, `any`, `argMax`,
         *     `argMin`, `groupArray`, `median`, `quantile(p)(x)`, `sumIf`, `avgIf`, `minIf`, `maxIf`, `uniqIf`,
         *     `toYear`, `toQuarter`, `toMonth`, `toDayOfMonth`, `toDayOfWeek` (Monday is 1), `toHour`, `toMinute`,
         *     `toSecond`, `dateTrunc`, `dateAdd`, `dateSub`, `toTimeZone` (later date functions and a nested query's
         *     column read the wall clock of that zone; the value is still shown in UTC), `formatDateTime` (ClickHouse codes `%Y %y %C %m %c %d %e %H %k %I %h %l %i %S %s %f %F %D %T %R %r %j %u
         *     %w %V %G %g %Q %p %a %b %W %M %z %% %n %t`; another code is a 400), `round`, `floor`, `ceil`, `abs`, `startsWith`,
         *     `endsWith`, `position`, `replaceAll`, `splitByChar`, `trim`, `substring`, `extract` (a regular
         *     expression's first group, or its match), `JSONExtractString`, `JSONExtractInt`, `JSONExtractFloat`,
         *     `JSONExtractBool`, `JSONExtractRaw`, and `arrayJoin` as a whole column of the SELECT. Window functions
         *     `row_number`, `rank`, `dense_rank`, `lag`, `lead`, `first_value`, `last_value` and `count`, `sum`,
         *     `avg`, `min`, `max` take `OVER ([PARTITION BY ...] [ORDER BY ...] [ROWS|RANGE BETWEEN ... AND ...])`
         *     in SELECT and ORDER BY, or `OVER w` / `OVER (w ORDER BY ...)` naming a window of the WINDOW clause; so
         *     does any other aggregate function PostgreSQL can compute over a window (`groupArray`, `countIf`, ...;
         *     not `uniq`, `argMax`, `argMin`, `any` or the quantiles, a 400). The string, number, conversion, JSON and
         *     URL functions of PostHog's HogQL run as well, with ClickHouse's semantics (`lower` changes ASCII letters
         *     only, `length` counts bytes, `toInt('1.5')` is null, floats round half to even);
         *     `generated/hogql-functions.md` of the repository lists every function that runs and why each refused one
         *     does not. Any other table, field or function is a 400 naming it.
         *
         *     **Arrays, tuples and lambdas.** `[a, b]` and `array(a, b)`, tuples `(a, b)` and `tuple(a)`, `x[i]` on
         *     any array (from 1, negative from the end; a missing element is its type's default, 0 or '', or null
         *     where the elements may be null, as ClickHouse's arrayElement), `t.1` on a tuple, `(a, b) IN ((1, 2), ...)`
         *     and `(a, b) IN (SELECT x, y ...)`, `(expr AS name)` inside an expression, and lambdas `x -> ...`,
         *     `(x, y) -> ...` as the first argument of the array functions (arrayMap, arrayFilter, arraySort, ...).
         *     Arrays are answered as JSON arrays of type `Array(T)`, tuples as JSON arrays of type `Tuple(...)`. An
         *     array literal lists at most 10,000 items; `range()` builds at most 1,000,000 elements (10,000 inside a
         *     lambda, where one is built per element); arrays compare only with `=` and `!=`. The array functions
         *     are those of PostHog's mapping, listed in generated/hogql-functions.md with those refused and why.
         *
         *     **Dates and times.** PostHog's date functions (`toStartOfInterval`, `toWeek(t, mode)`, `toYearWeek`,
         *     `addMonths`, `age`, `toIntervalDay`, ... each in generated/hogql-functions.md) read days and wall-clock
         *     times in the project's timezone, or in a function's timezone argument (an IANA name; another is a
         *     400). `toStartOfMonth`, `toStartOfWeek`, `toMonday` and the other starts of a day or longer answer a
         *     Date; week numbers follow ClickHouse's modes 0 to 9. An interval (`INTERVAL n unit`, `toIntervalDay(n)`,
         *     their sums and multiples, an amount from a property included) moves a datetime by days, weeks, months
         *     and years on the wall clock (a month after 31 January is 29 February; a day keeps 09:00 across a change
         *     to summer time) and by hours, minutes and seconds as elapsed time; a Date moved by whole days or longer
         *     stays a Date. A value that would leave the representable range is null, never an error.
         *
         *     **Placeholders.** `{name}` in the query is the constant `values.name` (a string, number, boolean or
         *     null), never query text; a placeholder without a value is a 400. `{variables.<code_name>}` is the
         *     `value` of the entry of `variables` with that `code_name` (null when `isNull`); a variable the request
         *     does not give is a 400. `{filters}` is the condition of `filters` on the table its SELECT reads (see
         *     `HogQLFilters`), `true` without filters; `{filters.dateRange.from}` and `{filters.dateRange.to}` are
         *     the bounds, and a comparison with one that is not given always holds. Every value is bound, never
         *     query text.
         *
         *     **Operators.** Besides SQL's, HogQL's `a ?? b` (ifNull), `c ? a : b` (if), and the regular expression
         *     matches `=~` and `~` (match), `!~` (no match), `=~*`, `~*` and `!~*` (ignoring case). The operators
         *     written as functions, as PostHog's insights write them (`and(...)`, `or(...)`, `not(...)`, `equals`,
         *     `notEquals`, `less`, `greater`, `lessOrEquals`, `greaterOrEquals`, `like`, `ilike`, `notLike`,
         *     `notILike`, `in`, `notIn`, `plus`, `minus`, `multiply`, `divide`, `modulo`, `negate`), are their
         *     operators and compile to the same SQL.
         *
         *     **Rows.** Without a LIMIT, at most 100 rows, with `hasMore`, `limit` (100) and `offset` (0); a LIMIT
         *     above 50,000 is lowered to it, and then `hasMore`, `limit` and `offset` are absent. A query that runs
         *     longer than the server's statement timeout is cancelled (504).
         *
         *     **Types** are the ClickHouse names PostHog gives PostgreSQL's types: `String`, `Int64`, `Float64`,
         *     `Bool`, `UUID`, `Date`, `DateTime64(6, 'UTC')`, `Array(String)`, in `Nullable(...)` when a value may be
         *     missing. A property is shown as text, as in PostHog.
         */
        HogQLQuery: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "HogQLQuery";
            /** @example select event, count() from events group by event */
            query: string;
            /**
             * @description Each placeholder's constant (a string, number, boolean or null).
             * @example {
             *       "name": "$pageview"
             *     }
             */
            values?: {
                [key: string]: unknown;
            };
            filters?: components["schemas"]["HogQLFilters"];
            /**
             * @description The values of the query's `{variables.<code_name>}`, by the variable's id, as PostHog's insights send them.
             * @example {
             *       "0190a3f2-5b6c-7d8e-9f01-234567890abc": {
             *         "variableId": "0190a3f2-5b6c-7d8e-9f01-234567890abc",
             *         "code_name": "browser",
             *         "value": "Chrome"
             *       }
             *     }
             */
            variables?: {
                [key: string]: components["schemas"]["HogQLVariable"];
            };
            /** @example Events by name */
            name?: string;
        };
        /**
         * @description What a HogQL query's `{filters}` stands for, as PostHog fills it: the property filters, then
         *     `timestamp < date_to`, then `timestamp >= date_from` (none for `all`), all of which must hold; `true`
         *     when none is given. The timestamp is the events' `timestamp` in a SELECT from events (joins
         *     included), the sessions' `$start_timestamp` from sessions alone, the groups' `created_at` from groups;
         *     `{filters}` in a SELECT from any other table or a nested query is a 400. Property filters apply to the
         *     events (event, person, group, event_metadata and hogql filters; element filters are a 400 here) or,
         *     from groups, group filters to the group's properties. `filterTestAccounts`: PostHog adds the team's
         *     test-account filters, a team setting; environments here have none, PostHog's default, so it filters
         *     nothing.
         */
        HogQLFilters: {
            /**
             * @description Property filters in the event listing's format (a list of filters, or a group `{type: AND|OR, values}`), all of which must hold; null for none.
             * @example [
             *       {
             *         "key": "$browser",
             *         "value": "Chrome",
             *         "operator": "exact",
             *         "type": "event"
             *       }
             *     ]
             */
            properties?: unknown;
            dateRange?: {
                /**
                 * @description ISO 8601 (without an offset, in the environment's timezone), a relative date (`-7d`, `-1mStart`) or `all`.
                 * @example -7d
                 */
                date_from?: string | null;
                /**
                 * @description Same forms as date_from; absent or null for no upper bound.
                 * @example 2024-02-01
                 */
                date_to?: string | null;
                /** @description Accepted; dates are always used as given. */
                explicitDate?: boolean | null;
            } | null;
            /** @description Accepted; environments have no test-account filters (see above). */
            filterTestAccounts?: boolean | null;
        };
        /** @description One variable's value, as PostHog's insights send it. */
        HogQLVariable: {
            /** @example 0190a3f2-5b6c-7d8e-9f01-234567890abc */
            variableId: string;
            /**
             * @description The name the query writes, `{variables.<code_name>}`.
             * @example browser
             */
            code_name: string;
            /**
             * @description A string, number, boolean or null, or a list of at most 1000 of them.
             * @example Chrome
             */
            value?: unknown;
            /** @description When true, the value is null whatever `value` says. */
            isNull?: boolean;
        };
        /** @description The rows of a HogQL SELECT, as PostHog answers a HogQLQuery. */
        HogQLQueryResponse: {
            /**
             * @description One list of values per row, in the order of `columns`.
             * @example [
             *       [
             *         "$pageview",
             *         12
             *       ]
             *     ]
             */
            results: unknown[][];
            /**
             * @description Each column's alias, or its expression printed as HogQL.
             * @example [
             *       "event",
             *       "count()"
             *     ]
             */
            columns: string[];
            /**
             * @description Pairs of a column's name and its ClickHouse type name.
             * @example [
             *       [
             *         "event",
             *         "String"
             *       ],
             *       [
             *         "count()",
             *         "Int64"
             *       ]
             *     ]
             */
            types: string[][];
            /**
             * @description The query as sent.
             * @example select event, count() from events group by event
             */
            query: string;
            /**
             * @description The query as it ran, printed as HogQL, with placeholders as their values and its row limit.
             * @example SELECT event, count() FROM events GROUP BY event LIMIT 100
             */
            hogql: string;
            /** @description Where the time went, in seconds. */
            timings: {
                /** @example ./execute */
                k: string;
                /** @example 0.004 */
                t: number;
            }[];
            /**
             * @description Only without a LIMIT; whether more than `limit` rows matched.
             * @example false
             */
            hasMore?: boolean;
            /**
             * @description Only without a LIMIT; the rows a page holds (100).
             * @example 100
             */
            limit?: number;
            /**
             * @description Only without a LIMIT; 0.
             * @example 0
             */
            offset?: number;
            /**
             * @description Always null in a query's response (also when it is the `results` of an asynchronous run's status).
             * @example null
             */
            query_status: Record<string, never> | null;
        };
        /**
         * @description Events of the environment, as PostHog's EventsQuery: each `select` entry is a HogQL expression over
         *     the events (the fields and functions of a HogQLQuery on `events`), `where` entries are conditions,
         *     and they run as one SELECT. Entries with an aggregate function go to HAVING, and then the rows are
         *     grouped by every selected entry without one.
         *
         *     **Special entries.** `*` comes back as an object of the event (`uuid`, `event`, `properties` as an
         *     object, `timestamp`, `team_id`, `distinct_id`, `elements_chain`, `created_at`); `person` as its
         *     person (`uuid`, `created_at`, `properties`, `distinct_id`), or `{distinct_id}` when it has none. An
         *     entry may hold comments, as a HogQLQuery (PostHog's clients label entries with a trailing `-- comment`);
         *     they are ignored, and the entry is kept as written in `columns`. An alias may not be
         *     `timestamp`, `event` or `person` (the node's own conditions read them) unless it names that field.
         *
         *     **Window.** `timestamp > after` and `timestamp < before`; `after` defaults to `-24h` (`all` removes
         *     the bound), `before` to 5 seconds from now. Both take ISO 8601 (a date or time without an offset is
         *     in the environment's timezone) or a relative date: `-<n><unit>`, unit s, M (minutes), h, d, w, m
         *     (months), q, y.
         *
         *     **Order.** `orderBy` (`expr [ASC|DESC]`) when given; else `count()` descending when selected, else
         *     the first aggregate descending, else `timestamp` descending when selected, else the first entry
         *     ascending.
         *
         *     **Page.** `limit` rows (100 when absent or 0, at most 50,000) from `offset`; `hasMore` says whether
         *     more follow.
         */
        EventsQuery: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "EventsQuery";
            /**
             * @example [
             *       "*",
             *       "event",
             *       "timestamp"
             *     ]
             */
            select: string[];
            /**
             * @example [
             *       "properties.$browser = 'Chrome'"
             *     ]
             */
            where?: string[];
            /**
             * @example [
             *       "timestamp DESC"
             *     ]
             */
            orderBy?: string[];
            /**
             * @description Rows of the page; 0 or absent is 100, and more than 50,000 is lowered to it, as PostHog.
             * @example 100
             */
            limit?: number;
            /** @example 0 */
            offset?: number;
            /**
             * @description The window's lower bound (exclusive); `all` for none.
             * @example -7d
             */
            after?: string;
            /**
             * @description The window's upper bound (exclusive).
             * @example 2024-01-08T00:00:00Z
             */
            before?: string;
            /**
             * @description Only events of this name.
             * @example $pageview
             */
            event?: string | null;
            /**
             * @description Only events of one of these names.
             * @example [
             *       "$pageview",
             *       "signup"
             *     ]
             */
            events?: string[];
            /**
             * @description Property filters in the event listing's format (a list of filters, or a group `{type: AND|OR, values}`), all of which must hold.
             * @example [
             *       {
             *         "key": "$browser",
             *         "value": "Chrome",
             *         "operator": "exact",
             *         "type": "event"
             *       }
             *     ]
             */
            properties?: unknown;
            /**
             * Format: uuid
             * @description Only events of this person (any of its distinct ids).
             * @example 0190a3f2-5b6c-7d8e-9f01-234567890abc
             */
            personId?: string;
        };
        /** @description The rows of an EventsQuery, as PostHog answers one. */
        EventsQueryResponse: {
            /**
             * @description One list of values per row, in the order of `select` (`*` and `person` as objects).
             * @example [
             *       [
             *         "$pageview",
             *         12
             *       ]
             *     ]
             */
            results: unknown[][];
            /**
             * @description The `select` entries as sent, or an entry's alias.
             * @example [
             *       "event",
             *       "count()"
             *     ]
             */
            columns: string[];
            /**
             * @description Each column's ClickHouse type name (`Tuple(...)` for `*` and `person`).
             * @example [
             *       "String",
             *       "Int64"
             *     ]
             */
            types: string[];
            /**
             * @description The SELECT that ran, printed as HogQL, with its window and row limit; property filters are not HogQL and are not shown.
             * @example SELECT event, count() FROM events WHERE (timestamp > '2024-01-01T00:00:00.000Z') AND (timestamp < '2024-01-08T00:00:05.000Z') GROUP BY event ORDER BY count() DESC LIMIT 100
             */
            hogql: string;
            /** @description Where the time went, in seconds. */
            timings: {
                /** @example ./execute */
                k: string;
                /** @example 0.004 */
                t: number;
            }[];
            /**
             * @description Whether more than `limit` rows follow `offset`.
             * @example false
             */
            hasMore: boolean;
            /** @example 100 */
            limit: number;
            /** @example 0 */
            offset: number;
            /**
             * @description Always null in a query's response (also when it is the `results` of an asynchronous run's status).
             * @example null
             */
            query_status: Record<string, never> | null;
        };
        /** @description The answer of the query's kind. */
        QueryResponse: components["schemas"]["HogQLQueryResponse"] | components["schemas"]["EventsQueryResponse"];
        /** @description A drafted HogQL query. */
        DraftSql: {
            /** @example SELECT toStartOfDay(timestamp) AS day, count() FROM events WHERE event = '$pageview' GROUP BY day ORDER BY day ASC LIMIT 100 */
            sql: string;
        };
        /** @description The wrapper of a query status. */
        QueryStatusResponse: {
            query_status: components["schemas"]["QueryStatus"];
        };
        /**
         * @description What is exported.
         * @example events
         * @enum {string}
         */
        BatchExportModel: "events" | "persons" | "sessions";
        /**
         * @description How often a run is triggered; each run exports one interval of data.
         * @example hour
         * @enum {string}
         */
        BatchExportInterval: "hour" | "day" | "week" | "every 5 minutes" | "every 15 minutes";
        /**
         * @description Where the data goes. `config` holds the destination's settings; its secret settings (S3
         *     `aws_access_key_id` and `aws_secret_access_key`, Postgres `user` and `password`, HTTP `token`) are never
         *     returned.
         */
        BatchExportDestination: {
            /**
             * @description One of the destination types this server runs.
             * @example AwsS3
             * @enum {string}
             */
            type: "S3" | "AwsS3" | "S3Compatible" | "Postgres" | "HTTP" | "NoOp";
            /**
             * @example {
             *       "bucket_name": "analytics-exports",
             *       "region": "eu-west-1",
             *       "prefix": "events/"
             *     }
             */
            config: {
                [key: string]: unknown;
            };
        };
        /**
         * @description Where the data goes: `type` and its `config`. Hedgerow runs the types `S3` (legacy name of `AwsS3`),
         *     `AwsS3`, `S3Compatible`, `Postgres`, `HTTP` and `NoOp`; any other type (PostHog's `Snowflake`, `Redshift`,
         *     `BigQuery`, `Databricks`, `AzureBlob`, ...) answers 400 with attr `destination`.
         *
         *     Config keys, as PostHog's (required ones in bold). Every type: `include_events`, `exclude_events` (lists
         *     of event names). `S3`/`AwsS3`/`S3Compatible`: **`bucket_name`**, **`region`**, **`prefix`**,
         *     **`aws_access_key_id`**, **`aws_secret_access_key`** (PostHog lets them be left out and then signs with its
         *     own workers' credentials; this server never lends its own AWS identity to an export, so an S3 destination
         *     without both answers 400 with attr `destination`), `compression` (JSONLines: `gzip`, `brotli`; Parquet:
         *     `zstd`, `lz4`, `snappy`, `gzip`, `brotli`, inside the file as pyarrow writes them, `lz4` as LZ4_RAW),
         *     `encryption`, `kms_key_id`, `endpoint_url` (required for `S3Compatible`), `file_format` (`JSONLines` or
         *     `Parquet`), `max_file_size_mb` (integer), `use_virtual_style_addressing` (boolean). `Postgres`:
         *     **`user`**, **`password`**, **`host`**, **`database`**, `schema`, `table_name`, `port` (integer),
         *     `has_self_signed_cert` (boolean); the role needs USAGE on the schema and SELECT, INSERT and UPDATE on an
         *     existing table (as PostHog's), CREATE on the schema only when the table is missing. Each run is loaded
         *     once, in one transaction: its marker is kept in `hedgerow_batch_export_runs` of the same schema when that
         *     table exists or the role may create it, and otherwise events are merged by `uuid` and persons and
         *     sessions by their primary key. `HTTP` (events only): **`url`** (an http or https URL), **`token`**.
         *     `NoOp`: `arg`. Unknown keys, missing required keys (not on PATCH) and values of the wrong type answer 400
         *     with PostHog's messages; strings are read as integers or booleans where they can be.
         *
         *     Timestamps in S3 files are written as PostHog writes them: JSONLines as RFC 3339 in UTC with `+00:00` and
         *     the stored microseconds as six digits of fraction (none when they are zero), Parquet as TIMESTAMP
         *     (microseconds, UTC).
         *
         *     What a destination may reach: public addresses only. An HTTP `url`, an S3 `endpoint_url` or a Postgres
         *     `host` that is, or whose name resolves to, a loopback, private, link-local, carrier-grade NAT,
         *     unspecified, multicast, broadcast, reserved or other special-purpose address (in any spelling: `127.1`,
         *     `0x7f000001`, `[::ffff:127.0.0.1]`, `localhost`, ...) answers 400 with attr `destination`, unless the
         *     server's operator allows it (`HEDGEROW_DESTINATION_ALLOWLIST`). A Postgres `host` that is a socket path or
         *     a list of hosts, or no host name or address (a `:port` suffix, a `%zone`, empty labels, control characters,
         *     backslashes), is always refused. A name that does not resolve when the export is written is accepted;
         *     every connection a run makes checks again the address it resolved to, and a refused one fails the run
         *     (`latest_error` says so) before it connects. HTTP runs follow no redirects (a 3xx fails the run). One
         *     request to a destination (an HTTP POST, an S3 request) that takes more than five minutes in all is aborted
         *     and the run retried. A Postgres destination that is the server's own database, or that signs in as a superuser of the
         *     server's own PostgreSQL cluster, is refused by every run, whatever the allowlist.
         */
        BatchExportDestinationInput: {
            /** @example AwsS3 */
            type: string;
            /**
             * @example {
             *       "bucket_name": "analytics-exports",
             *       "region": "eu-west-1",
             *       "prefix": "events/"
             *     }
             */
            config?: {
                [key: string]: unknown;
            };
        };
        /** @description One run of a batch export over one data interval. */
        BatchExportRun: {
            /**
             * Format: uuid
             * @example 0190f1c4-9a00-7c00-8000-000000000001
             */
            id: string;
            /**
             * @example Completed
             * @enum {string}
             */
            status: "Cancelled" | "Completed" | "ContinuedAsNew" | "Failed" | "FailedRetryable" | "FailedBilling" | "Terminated" | "TimedOut" | "Running" | "Starting";
            /**
             * Format: int32
             * @example 1200
             */
            records_completed: number | null;
            /**
             * Format: int32
             * @description The number of records that could not be written. Every destination here writes a batch whole or fails
             *     the run, so a run never skips records: null, as PostHog answers for destinations that do not count them.
             * @example null
             */
            records_failed: number | null;
            /**
             * @description Why the run's last attempt failed, in a few hundred characters at most and without the destination's
             *     secrets: an error class and status as PostHog words them (`RetryableResponseError (status: 503)`), at
             *     most a short excerpt of what the destination answered, and one message for every failure to connect.
             * @example null
             */
            latest_error: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:00:00Z
             */
            data_interval_start: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            data_interval_end: string;
            /** @example null */
            cursor: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:05Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T10:01:00Z
             */
            finished_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T10:01:00Z
             */
            last_updated_at: string;
            /**
             * Format: int32
             * @example 1200
             */
            records_total_count: number | null;
            /**
             * @description The size of what was written, after format and compression.
             * @example 183204
             */
            bytes_exported: number | null;
            /**
             * Format: uuid
             * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
             */
            batch_export: string;
            /**
             * Format: uuid
             * @example null
             */
            backfill: string | null;
        };
        /** @description A scheduled export. */
        BatchExport: {
            /**
             * Format: uuid
             * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
             */
            readonly id: string;
            /** @example 2 */
            readonly team_id: number;
            /** @example Events to S3 */
            name: string;
            model: components["schemas"]["BatchExportModel"];
            destination: components["schemas"]["BatchExportDestination"];
            interval: components["schemas"]["BatchExportInterval"];
            /** @example false */
            paused: boolean;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            readonly created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            readonly last_updated_at: string;
            /**
             * Format: date-time
             * @example null
             */
            last_paused_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            start_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            end_at: string | null;
            /** @description The 10 most recent runs, newest (by `created_at`) first. */
            readonly latest_runs: components["schemas"]["BatchExportRun"][];
            /**
             * @description The HogQL query that chose the exported columns, as written; '' for the model's defaults.
             * @example
             */
            hogql_query: string;
            /**
             * @description The exported columns, derived from `hogql_query`: `{fields: [{expression, alias}], values: {},
             *     hogql_query}`, where `expression` is the HogQL text of a select item and `alias` its `AS` name (or the
             *     expression); null for the model's defaults.
             * @example null
             */
            readonly schema: unknown;
            /**
             * @description Property filters on what is exported (`[{key, operator, type, value}]`), or null for none.
             * @example null
             */
            filters: unknown;
            /**
             * @description The IANA time zone in which day and week intervals begin.
             * @example UTC
             */
            timezone: string;
            /**
             * @description For weekly exports, the day the week begins (0 = Sunday ... 6); null for other intervals.
             * @example null
             */
            offset_day: number | null;
            /**
             * @description For daily and weekly exports, the hour (0-23) the interval begins; null for shorter ones.
             * @example null
             */
            offset_hour: number | null;
        };
        /**
         * @description The writable batch export fields. `hogql_query` must be `SELECT ... FROM events` without JOIN, UNION or
         *     subqueries; its select items become the exported columns.
         */
        BatchExportCreate: {
            /** @example Events to S3 */
            name: string;
            model?: components["schemas"]["BatchExportModel"];
            destination: components["schemas"]["BatchExportDestinationInput"];
            interval: components["schemas"]["BatchExportInterval"];
            /** @example false */
            paused?: boolean;
            /**
             * Format: date-time
             * @example null
             */
            last_paused_at?: string | null;
            /**
             * Format: date-time
             * @example null
             */
            start_at?: string | null;
            /**
             * Format: date-time
             * @example null
             */
            end_at?: string | null;
            /** @example  */
            hogql_query?: string;
            /** @example null */
            filters?: unknown;
            /**
             * @description An IANA time zone name (default `UTC`).
             * @example UTC
             */
            timezone?: string;
            /**
             * @description Weekly exports only; 0 (Sunday) to 6.
             * @example null
             */
            offset_day?: number | null;
            /**
             * @description Daily and weekly exports only; 0 to 23.
             * @example null
             */
            offset_hour?: number | null;
            /**
             * @description Organization-level create only, an extension of this server: the environment of the organization the
             *     export belongs to. Left out, the export goes into the caller's current project (as PostHog), or the
             *     organization's only environment when the current project is not in this organization.
             * @example 2
             */
            team_id?: number;
        };
        /** @description Any subset of the writable batch export fields; `destination.config` is merged into the stored one. */
        PatchedBatchExport: {
            /** @example Events to S3 */
            name?: string;
            model?: components["schemas"]["BatchExportModel"];
            destination?: components["schemas"]["BatchExportDestinationInput"];
            interval?: components["schemas"]["BatchExportInterval"];
            /** @example true */
            paused?: boolean;
            /**
             * Format: date-time
             * @example null
             */
            last_paused_at?: string | null;
            /**
             * Format: date-time
             * @example null
             */
            start_at?: string | null;
            /**
             * Format: date-time
             * @example null
             */
            end_at?: string | null;
            /** @example  */
            hogql_query?: string;
            /** @example null */
            filters?: unknown;
            /** @example UTC */
            timezone?: string;
            /** @example null */
            offset_day?: number | null;
            /** @example null */
            offset_hour?: number | null;
        };
        /**
         * @description The window to backfill, as ISO 8601 date-times with an offset; the create fields are accepted too and
         *     ignored.
         */
        BatchExportBackfillRequest: {
            /** @example 2026-11-20T00:00:00Z */
            start_at?: string | null;
            /** @example 2026-11-21T00:00:00Z */
            end_at?: string | null;
        };
        /** @description The backfill that was started. */
        BatchExportBackfillStarted: {
            /** @example 0190f1c4-9b00-7c00-8000-0000000000b1 */
            backfill_id: string;
        };
        /** @description Whether to backfill what the pause missed. */
        BatchExportUnpauseRequest: {
            /** @example true */
            backfill?: boolean;
        };
        /** @description Whether the export is now paused. */
        BatchExportPaused: {
            /** @example true */
            paused: boolean;
        };
        /** @description The cancellation was recorded. */
        BatchExportCancelled: {
            /** @example true */
            cancelled: boolean;
        };
        /** @description How far a backfill got; null while the number of its runs is not known. */
        BatchExportBackfillProgress: {
            /** @example 24 */
            total_runs: number;
            /** @example 6 */
            finished_runs: number;
            /**
             * @description finished_runs / total_runs, from 0 to 1.
             * @example 0.25
             */
            progress: number;
        } | null;
        /** @description A backfill of a batch export over a past window. */
        BatchExportBackfill: {
            /**
             * Format: uuid
             * @example 0190f1c4-9b00-7c00-8000-0000000000b1
             */
            id: string;
            /**
             * Format: uuid
             * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
             */
            batch_export: string;
            /**
             * @description The environment (PostHog's team) the backfill's export belongs to.
             * @example 2
             */
            team: number;
            /**
             * Format: date-time
             * @example 2026-11-20T00:00:00Z
             */
            start_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T00:00:00Z
             */
            end_at: string | null;
            /**
             * Format: date-time
             * @description start_at moved forward to the earliest data, aligned to the interval.
             * @example 2026-11-20T00:00:00Z
             */
            adjusted_start_at: string | null;
            /**
             * @example Running
             * @enum {string}
             */
            status: "Cancelled" | "Completed" | "ContinuedAsNew" | "Failed" | "FailedRetryable" | "FailedBilling" | "Terminated" | "TimedOut" | "Running" | "Starting";
            /** @example null */
            total_records_count: number | null;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example null
             */
            finished_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00Z
             */
            last_updated_at: string;
            progress: components["schemas"]["BatchExportBackfillProgress"];
        };
        PaginatedBatchExportList: components["schemas"]["PageLinks"] & {
            results: components["schemas"]["BatchExport"][];
        };
        /** @description One page of runs read by cursor, as PostHog's CursorPagination answers it (no count). */
        PaginatedBatchExportRunList: {
            /**
             * Format: uri
             * @description The absolute URL of the page of older runs, or null when there is none.
             * @example null
             */
            next: string | null;
            /**
             * Format: uri
             * @description The absolute URL of the page of newer runs, or null on the first page.
             * @example null
             */
            previous: string | null;
            results: components["schemas"]["BatchExportRun"][];
        };
        /** @description One page of backfills read by cursor, as PostHog's CursorPagination answers it (no count). */
        PaginatedBatchExportBackfillList: {
            /**
             * Format: uri
             * @description The absolute URL of the page of older backfills, or null when there is none.
             * @example null
             */
            next: string | null;
            /**
             * Format: uri
             * @description The absolute URL of the page of newer backfills, or null on the first page.
             * @example null
             */
            previous: string | null;
            results: components["schemas"]["BatchExportBackfill"][];
        };
        /** @description The person behind an event; null for an event without a person. */
        LegacyEventPerson: {
            /** @example true */
            is_identified: boolean;
            /**
             * @example [
             *       "user-1"
             *     ]
             */
            distinct_ids: string[];
            /**
             * @example {
             *       "email": "ada@example.com"
             *     }
             */
            properties: {
                [key: string]: unknown;
            };
        } | null;
        /** @description One element of the autocaptured element chain, innermost first. */
        LegacyEventElement: {
            /** @example null */
            event?: string | null;
            /** @example Buy */
            text?: string | null;
            /** @example button */
            tag_name?: string | null;
            /**
             * @example [
             *       "primary"
             *     ]
             */
            attr_class?: string[] | null;
            /** @example null */
            href?: string | null;
            /** @example null */
            attr_id?: string | null;
            /** @example 1 */
            nth_child?: number | null;
            /** @example 1 */
            nth_of_type?: number | null;
            /**
             * @example {
             *       "attr__class": "primary"
             *     }
             */
            attributes?: {
                [key: string]: unknown;
            };
            /** @example 0 */
            order?: number | null;
        };
        /**
         * @description A stored event. `properties` is an object, `person` an object or null and `elements` an array, as
         *     PostHog's server returns them (the contract's sample shows every field as a string).
         */
        LegacyEvent: {
            /**
             * Format: uuid
             * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
             */
            id: string;
            /** @example user-1 */
            distinct_id: string;
            /**
             * @example {
             *       "$current_url": "https://example.com/"
             *     }
             */
            properties: {
                [key: string]: unknown;
            };
            /** @example $pageview */
            event: string;
            /**
             * Format: date-time
             * @example 2026-11-21T10:00:00.000Z
             */
            timestamp: string;
            person: components["schemas"]["LegacyEventPerson"];
            elements: components["schemas"]["LegacyEventElement"][];
            /** @example  */
            elements_chain: string;
        };
        /** @description One page of the legacy event listing; there is no count and no previous link. */
        LegacyEventList: {
            /**
             * Format: uri
             * @description The absolute URL of the following page with every other parameter kept, or null.
             * @example null
             */
            next: string | null;
            results: components["schemas"]["LegacyEvent"][];
        };
        /** @description The answer of a probe. */
        HealthStatus: {
            /**
             * @example ok
             * @enum {string}
             */
            status: "ok";
        };
        /** @description The answer of the liveness probe. */
        LivenessStatus: {
            /**
             * @example ok
             * @enum {string}
             */
            status: "ok";
            /**
             * @description The host that answered: `HEDGEROW_HOST_ID`, by default the machine's name and the port. Every worker of
             *     one server gives the same; `/_metrics` gives it too, as the `host` label of `hedgerow_host_info`.
             * @example web-1:8000
             */
            host: string;
            /** @description The worker process that answered (only under `npm start`'s supervisor). */
            worker?: {
                /**
                 * @description The worker's number, counted from 1 by the supervisor; a worker started again gets a new one.
                 * @example 1
                 */
                id: number;
                /**
                 * @description Its operating-system process id.
                 * @example 4242
                 */
                pid: number;
            };
            /** @description The worker processes, as the supervisor last told the answering worker (only under `npm start`). */
            workers?: {
                /**
                 * @description Workers the supervisor keeps running (HEDGEROW_WORKERS, or one per CPU as the database allows).
                 * @example 2
                 */
                configured: number;
                /**
                 * @description Of those, the ones listening now.
                 * @example 2
                 */
                alive: number;
                /**
                 * @description Workers started again after one died, since the supervisor started.
                 * @example 0
                 */
                restarts: number;
            };
        };
        /**
         * @description A page of `select` results: one row per event, or with aggregates one row per group, each row holding
         *     the values in the order of `columns`.
         */
        LegacyEventRows: {
            /**
             * @description The column names, each expression's `AS` name or its text.
             * @example [
             *       "event",
             *       "count()"
             *     ]
             */
            columns: string[];
            /**
             * Format: uri
             * @description The absolute URL of the following page with every other parameter kept, or null.
             * @example null
             */
            next: string | null;
            /**
             * @example [
             *       [
             *         "$pageview",
             *         120
             *       ]
             *     ]
             */
            results: unknown[][];
        };
        /** @description A page of the listing, of events or, with `select`, of rows. */
        LegacyEventPage: components["schemas"]["LegacyEventList"] | components["schemas"]["LegacyEventRows"];
        /** @description One value of a property. */
        PropertyValue: {
            /**
             * @description The value.
             * @example Chrome
             */
            name: unknown;
        };
        /**
         * @description One event. The project API key may be given as `api_key`, `token`, `$token` or `properties.token`.
         *     `distinct_id` (or `$distinct_id`) may be given inside `properties` instead; any JSON value is accepted,
         *     stringified and cut to 200 characters. A field that is null is read as absent; fields not listed here
         *     are ignored.
         */
        CaptureEvent: {
            /**
             * @description The project API key (`phc_...`).
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            api_key?: string | null;
            /**
             * @description The project API key, as `api_key`.
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            token?: string | null;
            /**
             * @description The project API key, as `api_key`.
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            $token?: string | null;
            /**
             * @description The event name; names starting with `$` are PostHog's reserved ones (section "Events" of the
             *     `capture` tag). An event without a name is answered 200 and not ingested.
             * @example $pageview
             */
            event?: string | null;
            /**
             * @description Who did it: a string, or any other JSON value (stringified; an integer as its digits, exact beyond
             *     2^53 too). An event without one, or with an empty one, is answered 200 and not ingested.
             * @example user-1
             */
            distinct_id?: unknown;
            /**
             * @description The same as `distinct_id`.
             * @example user-1
             */
            $distinct_id?: unknown;
            /**
             * @description The event's properties. `$set`, `$set_once` and `$unset` change the person's properties, `$groups`
             *     names the event's groups, and `$process_person_profile: false` makes the event personless. Integers
             *     are stored as written, exact beyond 2^53 too, here and in person and group properties.
             * @example {
             *       "$current_url": "https://example.com/"
             *     }
             */
            properties?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description When it happened: ISO 8601 (without a zone it is UTC), RFC 2822, or an epoch in seconds or
             *     milliseconds. With `sent_at` it is corrected for the client's clock skew; more than 23 hours in the
             *     future becomes the time it was received. The time it was received when absent.
             * @example 2026-11-21T10:00:00Z
             */
            timestamp?: string | null;
            /**
             * @description How many milliseconds before the request it happened; takes precedence over `timestamp`.
             * @example 1200
             */
            offset?: number | null;
            /**
             * @description The event's id; SDKs send a UUIDv7 and one is generated when it is absent or empty. An event whose
             *     uuid is already stored for the project is not stored again, so retries are harmless.
             * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
             */
            uuid?: string | null;
            /**
             * @description Person properties to set, as `properties.$set` (this one wins).
             * @example {
             *       "email": "ada@example.com"
             *     }
             */
            $set?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Person properties to set unless already set, as `properties.$set_once`.
             * @example {
             *       "first_seen_plan": "free"
             *     }
             */
            $set_once?: {
                [key: string]: unknown;
            } | null;
            /** @description Never part of an event; an object with `batch` is a batch envelope (`CaptureBatch`). */
            batch?: unknown;
        };
        /** @description Events, each with its own project API key (all the same). */
        CaptureEventList: components["schemas"]["CaptureEvent"][];
        /** @description A batch of events for one project. */
        CaptureBatch: {
            /**
             * @description The project API key (`phc_...`); it takes precedence over any key inside the events.
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            api_key?: string | null;
            /**
             * @description The project API key, as `api_key`.
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            token?: string | null;
            /**
             * @description True when importing historical data: the stored events are flagged so, and processed in request
             *     order.
             * @example false
             */
            historical_migration?: boolean;
            /**
             * @description When the client sent the batch, ISO 8601; corrects the events' timestamps for the client's clock skew.
             * @example 2026-11-21T10:00:01Z
             */
            sent_at?: string | null;
            batch: components["schemas"]["CaptureEventList"];
        };
        /** @description What a capture request carries once decoded. */
        CapturePayload: components["schemas"]["CaptureBatch"] | components["schemas"]["CaptureEventList"] | components["schemas"]["CaptureEvent"];
        /** @description A form-encoded capture request, as posthog-js sends it with `navigator.sendBeacon`. */
        CaptureForm: {
            /**
             * @description The payload, JSON or base64 (or lz64 with `compression=lz64`) of it.
             * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
             */
            data: string;
            /**
             * @description As the `compression` query parameter.
             * @example base64
             */
            compression?: string;
            /**
             * @description The SDK's version. Accepted and ignored.
             * @example 1.290.0
             */
            ver?: string;
        };
        /**
         * @description Who asks for flags. Only the project API key is used; the rest is accepted and ignored. A field that is
         *     null is read as absent.
         */
        FlagsRequest: {
            /**
             * @description The project API key (`phc_...`).
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            token?: string | null;
            /**
             * @description The project API key, as `token`.
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            api_key?: string | null;
            /**
             * @description Who asks.
             * @example user-1
             */
            distinct_id?: unknown;
            /**
             * @description The caller's groups, by group type.
             * @example {
             *       "company": "acme"
             *     }
             */
            groups?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Person properties the SDK knows locally.
             * @example {}
             */
            person_properties?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Group properties the SDK knows locally, by group type.
             * @example {}
             */
            group_properties?: {
                [key: string]: unknown;
            } | null;
        };
        /** @description Feature flags of the caller, in the shape posthog-js expects from `/flags/?v=2`. */
        FlagsResponse: {
            /**
             * @description Flags by key; always empty, as Hedgerow defines no feature flags.
             * @example {}
             */
            flags: {
                [key: string]: {
                    [key: string]: unknown;
                };
            };
            /**
             * @description Always false.
             * @example false
             */
            errorsWhileComputingFlags: boolean;
            /**
             * Format: uuid
             * @description An id for this answer.
             * @example 0190f1c4-bbbb-7ccc-8ddd-eeeeeeeeeeee
             */
            requestId: string;
        };
        /** @description The remote configuration posthog-js reads at start-up. */
        RemoteConfig: {
            /**
             * @description The project API key.
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            token: string;
            /**
             * @description Encodings capture reads; posthog-js then gzips its requests.
             * @example [
             *       "gzip",
             *       "gzip-js"
             *     ]
             */
            supportedCompression: string[];
            /**
             * @description Always false, so posthog-js skips the first `/flags/` call.
             * @example false
             */
            hasFeatureFlags: boolean;
            /** @description Where posthog-js sends events. */
            analytics: {
                /**
                 * @description The capture path.
                 * @example /i/v0/e/
                 */
                endpoint: string;
            };
            /**
             * @description Always false; Hedgerow does not store recordings.
             * @example false
             */
            sessionRecording: boolean;
            /**
             * @description Always false.
             * @example false
             */
            surveys: boolean;
            /**
             * @description Always false.
             * @example false
             */
            heatmaps: boolean;
            /**
             * @description Always false.
             * @example false
             */
            autocaptureExceptions?: boolean;
            /**
             * @description Always false.
             * @example false
             */
            captureDeadClicks?: boolean;
            /**
             * @description Always false.
             * @example false
             */
            capturePerformance?: boolean;
            /**
             * @description Persons are created for identified users only unless the SDK is told otherwise.
             * @example true
             */
            defaultIdentifiedOnly?: boolean;
            /**
             * @description Autocapture may send its elements as `$elements_chain`.
             * @example true
             */
            elementsChainAsString?: boolean;
            /**
             * @description Always empty.
             * @example []
             */
            siteApps: Record<string, never>[];
        };
        /** @description The acknowledgement of a capture request. */
        CaptureResponse: {
            /**
             * @example 1
             * @enum {integer}
             */
            status: 1;
        };
    };
    responses: {
        /**
         * @description The request is malformed (a JSON body that cannot be parsed, nests more than 127 levels deep or holds a
         *     number beyond the double range is `parse_error`) or a field fails validation; `attr` names the field.
         */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The body is malformed, a field fails validation (`attr` names it), or the playlist's `type` and `filters`
         *     do not go together (`attr` null).
         */
        PlaylistBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No personal API key was given, or it is not valid. */
        Unauthorized: {
            headers: {
                /** @description Always `Bearer`. */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The project API key is missing, malformed, unknown, a personal API key (`phx_...`), or not the same in
         *     every event of the request.
         */
        CaptureUnauthorized: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["CorsAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The key lacks the operation's scope, the caller's membership level is too low, or a key scoped to
         *     projects asks to create, change or delete an organization.
         */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such resource visible to this key. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than the endpoint accepts. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body's content type is not one the operation accepts. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The key sent more requests than its rate limit allows, or (operations that read events) the
         *     environment, or the key's user across its environments, already holds all of a process's database
         *     sessions it may and none came back in time; or (the event listing, a query's status) the key's user
         *     holds its share of the process's answers in flight; retry after `Retry-After` seconds.
         */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The environment, or the key's user across all of its environments, already runs as many synchronous
         *     queries as it may (`HEDGEROW_QUERY_CONCURRENCY_PER_ENVIRONMENT`, `HEDGEROW_QUERY_CONCURRENCY_PER_USER`,
         *     across every process), or has as many asynchronous queries queued or running
         *     (`HEDGEROW_ASYNC_QUERIES_PER_ENVIRONMENT`, `HEDGEROW_ASYNC_QUERIES_PER_USER`), as PostHog answers a
         *     team over its concurrency limit; or the key sent more requests than its rate limit allows; or the key's
         *     user holds its share of the process's answers in flight (`HEDGEROW_ANSWER_MEMORY_PER_USER_MB`). Retry
         *     after `Retry-After` seconds.
         */
        QueryTooManyRequests: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected error; the detail is generic and the cause is in the server log. */
        ServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The database cannot be reached or did not answer in time, or (queries, the event listing) the process
         *     holds as many answers in flight as it may; nothing was changed that was not answered. Retry after
         *     `Retry-After` seconds.
         */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Any other error, in the same format: for example 501 for an operation whose implementation has not been
         *     built yet (the README lists them).
         */
        OtherError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Every event of the request that could be ingested is committed to the database (an event whose uuid was
         *     already stored counts as stored). Events without a name or `distinct_id` are not ingested; they are
         *     counted by reason and recorded as ingestion warnings.
         */
        CaptureAccepted: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["CorsAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CaptureResponse"];
            };
        };
        /**
         * @description The payload could not be decoded or parsed, holds no event, nests more than 127 levels deep, holds a
         *     number beyond the double range, or an event breaks the `CaptureEvent` schema (`attr` names the field,
         *     such as `batch__2__uuid`).
         */
        CaptureBadRequest: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["CorsAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request body is 20 MB or more (refused while it is read), the payload decodes (gunzip, base64,
         *     lz64) to more than 25 MiB, or one of its events is larger than 1,000,000 bytes.
         */
        CapturePayloadTooLarge: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["CorsAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The events could not be stored (the database is unreachable, or did not commit them in time), or
         *     capture's memory budget had no room for the request in time (`capture_busy`); none of them was
         *     acknowledged, and the SDKs retry.
         */
        CaptureUnavailable: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["CorsAllowOrigin"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The pre-flight is allowed, whatever its query string: it carries the query of the request it asks
         *     about, whose parameters are checked when that request arrives.
         */
        CapturePreflight: {
            headers: {
                "Access-Control-Allow-Origin": components["headers"]["CorsAllowOrigin"];
                /** @description Always `true` when the request has an `Origin`. */
                "Access-Control-Allow-Credentials"?: string;
                /** @description `GET, POST, OPTIONS`. */
                "Access-Control-Allow-Methods"?: string;
                /**
                 * @description The request's `Access-Control-Request-Headers`, or `Content-Type, Content-Encoding,
                 *     X-Requested-With` when it has none.
                 */
                "Access-Control-Allow-Headers"?: string;
                /** @description How long browsers may cache the answer, in seconds. */
                "Access-Control-Max-Age"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CaptureResponse"];
            };
        };
        /**
         * @description One page: stored events (`{next, results}`), or with `select` rows of values (`{columns, next,
         *     results}`). With `format=csv`, the same as CSV with a header row, nested objects flattened to dotted
         *     columns (`properties.$browser`, `person.properties.email`, `elements.0.tag_name`).
         */
        EventPage: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["LegacyEventPage"];
                "text/csv": string;
            };
        };
        /** @description The event (with `format=csv`, one CSV row under a header row). */
        OneEvent: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["LegacyEvent"];
                "text/csv": string;
            };
        };
        /** @description Up to 10 values (with `format=csv`, a `name` column). */
        PropertyValues: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["PropertyValue"][];
                "text/csv": string;
            };
        };
        /** @description The query ran longer than the server's statement timeout and was cancelled. */
        QueryTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Number of results per page (default 100, at most 1000). */
        Limit: number;
        /** @description The index of the first result to return (default 0). */
        Offset: number;
        /**
         * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
         *     project.
         * @example 2
         */
        ProjectId: string;
        /**
         * @description The organization's UUID.
         * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
         */
        OrganizationId: string;
        /**
         * @description The UUID of the organization that owns the batch exports.
         * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
         */
        BatchExportOrganizationId: string;
        /** @description The pagination cursor value, from a `next` or `previous` link. */
        PageCursor: string;
        /**
         * @description The batch export's UUID.
         * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
         */
        BatchExportId: string;
        /**
         * @description The backfill's UUID, as `backfill_id` answered when it was started.
         * @example 0190f1c4-9b00-7c00-8000-0000000000b1
         */
        BatchExportBackfillId: string;
        /**
         * @description The run's UUID.
         * @example 0190f1c4-9a00-7c00-8000-000000000001
         */
        BatchExportRunId: string;
        /**
         * @description The query's kind (`HogQLQuery`, `EventsQuery`); named `id` because the path is shared with a query's status.
         * @example EventsQuery
         */
        QueryKind: string;
        /**
         * @description The query's id.
         * @example 4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f
         */
        QueryId: string;
        /**
         * @description The playlist's short id.
         * @example aB3dE5gH
         */
        ShortId: string;
        /**
         * @description The session id of the recording (the `$session_id` its events carry).
         * @example 0190f1c4-7a1b-7c2d-8e3f-4a5b6c7d8e9f
         */
        SessionRecordingId: string;
        /**
         * @description Any query parameters, ignored: supervisors and load balancers may add their own (a cache buster, a
         *     probe name), and a probe must not fail over them.
         */
        ProbeIgnoredQuery: {
            [key: string]: unknown;
        };
        /**
         * @description The response format. Without it, the Accept header chooses, as PostHog's REST framework negotiates it:
         *     the most specific media ranges first, JSON winning a tie, so `text/csv` or `text/*` asks for CSV and
         *     `*\/*` or `application/json` for JSON (quality values are not read).
         *
         *     CSV is written for spreadsheets, so that stored text cannot become a formula there (OWASP's CSV
         *     Injection advice): a text cell, column names included, that starts with `=`, `+`, `-`, `@`, a tab, a
         *     carriage return or a line feed is written with a single quote in front and quoted (`-2+3` as
         *     `"'-2+3"`). Numbers are written as they are, a negative one with its minus sign (`-12.5`): they cannot
         *     hold a formula, and a quote would make them text. Text that looks like a number is still text
         *     (`"'-12.5"`).
         */
        EventFormat: "csv" | "json";
        /**
         * @description The event's UUID, with or without its hyphens.
         * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
         */
        EventId: string;
        /**
         * @description Only events after this time (exclusive): ISO 8601, or relative to now such as `-7d`, `-12h`, `-30M`
         *     (units s, M, h, d, w, m, q, y), where `Start` or `End` after an hour, day, month or year moves it to
         *     the start or end of that period in the project's timezone (`-1dStart`, `mEnd`). A time without an
         *     offset is read in the project's timezone. No lower bound by default.
         * @example -7d
         */
        EventsAfter: string;
        /**
         * @description Only events before this time (exclusive), in the same forms as `after`. No upper bound by default.
         * @example 2026-11-21T12:00:00Z
         */
        EventsBefore: string;
        /**
         * @description Only events of this distinct id.
         * @example user-1
         */
        EventsDistinctId: string;
        /**
         * @description Only events with this name.
         * @example $pageview
         */
        EventsEvent: string;
        /**
         * @description Events per page: 100 by default (1,000 for CSV). At most 1,000: a larger value is lowered to
         *     1,000, as PostHog does.
         * @example 100
         */
        EventsLimit: number;
        /**
         * @deprecated
         * @description Skips this many matching events before the page (at most 100,000). Prefer following `next`.
         * @example 0
         */
        EventsOffset: number;
        /**
         * @description Only events of this person (its numeric id or UUID): events of every distinct id it has now, including
         *     ids merged into it by an alias.
         * @example 42
         */
        EventsPersonId: string;
        /**
         * @description JSON property filters: a list (all must hold) or a group `{"type": "AND"|"OR", "values": [...]}` nested
         *     to any depth (100 levels). A filter is `{"key", "value", "operator", "type"}`: `type` is `event`
         *     (default), `person`, `element` (key `tag_name`, `text`, `href` or `selector`), `group` (with
         *     `group_type_index` 0-4), `event_metadata` (an event field) or `hogql` (`key` is a HogQL condition);
         *     `operator` is `exact` (default), `is_not`, `icontains`, `not_icontains`, `regex`, `not_regex`, `gt`,
         *     `lt`, `gte`, `lte`, `is_set`, `is_not_set`, `is_date_exact`, `is_date_before`, `is_date_after`, `in`
         *     or `not_in`. A list `value` with `exact`/`in` means any of them, with `is_not`/`not_in` none of them.
         *     Negative operators hold for events without the property. PostHog's old style is read too: an object of
         *     `<key>` or `<key>__<operator>` to values, each an event property filter (`{"$browser__icontains": "chr"}`).
         * @example [{"key": "$browser", "value": "Chrome", "operator": "exact", "type": "event"}]
         */
        EventsProperties: string;
        /**
         * @description (Experimental) A JSON list of HogQL expressions to return instead of events, each optionally
         *     `... AS name`; the response then has `columns` and rows of values.
         * @example ["event", "count()"]
         */
        EventsSelect: string;
        /**
         * @description (Experimental) A JSON list of HogQL conditions that every event returned must pass.
         * @example ["properties.$browser = 'Chrome'"]
         */
        EventsWhere: string;
        /**
         * @description `["-timestamp"]` (newest first, the default) or `["timestamp"]` (oldest first).
         * @example ["timestamp"]
         */
        EventsOrderBy: string;
        /**
         * @description Where the page starts; set by the `next` link, not to be written by hand.
         * @example eyJ0IjoiMjAyNi0xMS0yMVQxMDowMDowMC4wMDAwMDBaIiwidSI6IjAxOTBmMWM0LWFhYWEtN2JiYi04Y2NjLWRkZGRkZGRkZGRkZCJ9
         */
        EventsCursor: string;
        /**
         * @description The property whose values to list (an event column's name with `is_column=true`).
         * @example $browser
         */
        PropertyValuesKey: string;
        /**
         * @description Only values containing this text (case-insensitive).
         * @example chr
         */
        PropertyValuesValue: string;
        /**
         * @description Only values seen on events with these names; repeat the parameter for several.
         * @example [
         *       "$pageview"
         *     ]
         */
        PropertyValuesEventName: string[];
        /**
         * @description `true` to list values of the event column `key` (`event`, `distinct_id`, `elements_chain`).
         * @example false
         */
        PropertyValuesIsColumn: boolean;
        /**
         * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
         *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
         *     seconds) are ignored.
         * @example 1763719200000
         */
        CaptureSentAt: number;
        /**
         * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
         * @example 1.290.0
         */
        CaptureLibVersion: string;
        /**
         * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
         *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
         *     made only of base64 characters is decoded as base64.
         * @example gzip-js
         */
        CaptureCompression: string;
        /**
         * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
         * @example 0
         */
        CaptureIp: string;
        /**
         * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
         *     the same 200 as for any other request.
         * @example 1
         */
        CaptureBeacon: string;
        /**
         * @description How many times posthog-js has already sent this request.
         * @example 1
         */
        CaptureRetryCount: number;
        /**
         * @description The payload of a GET capture request: JSON (URL-encoded), or base64 or lz64 of it (see `compression`).
         *     When it is missing or empty the request has no payload (400).
         * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
         */
        CaptureData: string;
        /**
         * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
         *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
         * @example gzip
         */
        CaptureContentEncoding: string;
        /**
         * @description The version of the answer the SDK expects; posthog-js asks for `2`.
         * @example 2
         */
        FlagsVersion: number;
        /**
         * @description The project API key (`phc_...`).
         * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
         */
        ProjectToken: string;
    };
    requestBodies: {
        /**
         * @description One event, an array of events, or a batch envelope. The same JSON may arrive gzipped, as base64 or lz64,
         *     or in the `data` field of a form; the media type does not decide how it is decoded.
         */
        CapturePayload: {
            content: {
                "application/json": components["schemas"]["CapturePayload"];
                "text/plain": string;
                "application/x-www-form-urlencoded": components["schemas"]["CaptureForm"];
            };
        };
    };
    headers: {
        /**
         * @description The methods the path allows, in the order `GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS`: HEAD wherever
         *     GET is, OPTIONS on the capture paths, and never a method the path only refuses.
         * @example GET, HEAD, PATCH
         */
        Allow: string;
        /** @description The request's `Origin`, mirrored when it has one (with `Access-Control-Allow-Credentials`). */
        CorsAllowOrigin: string;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description Any query parameters, ignored: supervisors and load balancers may add their own (a cache buster, a
                 *     probe name), and a probe must not fail over them.
                 */
                probe_query?: components["parameters"]["ProbeIgnoredQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LivenessStatus"];
                };
            };
            500: components["responses"]["ServerError"];
            default: components["responses"]["OtherError"];
        };
    };
    readiness_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description Any query parameters, ignored: supervisors and load balancers may add their own (a cache buster, a
                 *     probe name), and a probe must not fail over them.
                 */
                probe_query?: components["parameters"]["ProbeIgnoredQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            500: components["responses"]["ServerError"];
            /** @description The database is unreachable, or did not answer within the readiness deadline. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            default: components["responses"]["OtherError"];
        };
    };
    openapi_yaml_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example openapi: 3.0.3
                     *     info:
                     *       title: Hedgerow product-analytics API
                     */
                    "application/yaml": string;
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["ServerError"];
        };
    };
    openapi_json_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 3.0.3 */
                        openapi: string;
                        /**
                         * @example {
                         *       "title": "Hedgerow product-analytics API",
                         *       "version": "0.1.0"
                         *     }
                         */
                        info: Record<string, never>;
                        /** @example {} */
                        paths: Record<string, never>;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["ServerError"];
        };
    };
    docs_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html><head><title>Hedgerow API reference</title></head>...</html> */
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["ServerError"];
        };
    };
    docs_renderer_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example /*! For license information please see redoc.standalone.js.LICENSE.txt *\/ */
                    "text/javascript": string;
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["ServerError"];
        };
    };
    metrics_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counters. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            500: components["responses"]["ServerError"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_event_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
                /**
                 * @description The payload of a GET capture request: JSON (URL-encoded), or base64 or lz64 of it (see `compression`).
                 *     When it is missing or empty the request has no payload (400).
                 * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
                 */
                data?: components["parameters"]["CaptureData"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_event_create: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: {
                /**
                 * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
                 *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
                 * @example gzip
                 */
                "Content-Encoding"?: components["parameters"]["CaptureContentEncoding"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CapturePayload"];
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_event_options: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CapturePreflight"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_e_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
                /**
                 * @description The payload of a GET capture request: JSON (URL-encoded), or base64 or lz64 of it (see `compression`).
                 *     When it is missing or empty the request has no payload (400).
                 * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
                 */
                data?: components["parameters"]["CaptureData"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_e_create: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: {
                /**
                 * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
                 *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
                 * @example gzip
                 */
                "Content-Encoding"?: components["parameters"]["CaptureContentEncoding"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CapturePayload"];
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_e_options: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CapturePreflight"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_capture_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
                /**
                 * @description The payload of a GET capture request: JSON (URL-encoded), or base64 or lz64 of it (see `compression`).
                 *     When it is missing or empty the request has no payload (400).
                 * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
                 */
                data?: components["parameters"]["CaptureData"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_capture_create: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: {
                /**
                 * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
                 *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
                 * @example gzip
                 */
                "Content-Encoding"?: components["parameters"]["CaptureContentEncoding"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CapturePayload"];
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_capture_options: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CapturePreflight"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_track_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
                /**
                 * @description The payload of a GET capture request: JSON (URL-encoded), or base64 or lz64 of it (see `compression`).
                 *     When it is missing or empty the request has no payload (400).
                 * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
                 */
                data?: components["parameters"]["CaptureData"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_track_create: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: {
                /**
                 * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
                 *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
                 * @example gzip
                 */
                "Content-Encoding"?: components["parameters"]["CaptureContentEncoding"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CapturePayload"];
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_track_options: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CapturePreflight"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_engage_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
                /**
                 * @description The payload of a GET capture request: JSON (URL-encoded), or base64 or lz64 of it (see `compression`).
                 *     When it is missing or empty the request has no payload (400).
                 * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
                 */
                data?: components["parameters"]["CaptureData"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_engage_create: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: {
                /**
                 * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
                 *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
                 * @example gzip
                 */
                "Content-Encoding"?: components["parameters"]["CaptureContentEncoding"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CapturePayload"];
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_engage_options: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CapturePreflight"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_batch_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
                /**
                 * @description The payload of a GET capture request: JSON (URL-encoded), or base64 or lz64 of it (see `compression`).
                 *     When it is missing or empty the request has no payload (400).
                 * @example W3siZXZlbnQiOiIkcGFnZXZpZXciLCJwcm9wZXJ0aWVzIjp7ImRpc3RpbmN0X2lkIjoidXNlci0xIiwidG9rZW4iOiJwaGNfM2tXcTlyVHpWN21OMmJYYzVkTGZIOGpQczRHeUE2dUUxb1FpUjB0S3daeCIsIiRjdXJyZW50X3VybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vIn19XQ==
                 */
                data?: components["parameters"]["CaptureData"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_batch_create: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: {
                /**
                 * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
                 *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
                 * @example gzip
                 */
                "Content-Encoding"?: components["parameters"]["CaptureContentEncoding"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CapturePayload"];
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_batch_options: {
        parameters: {
            query?: {
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
                /**
                 * @description `1` when posthog-js sent the request with `navigator.sendBeacon` while the page unloads. The answer is
                 *     the same 200 as for any other request.
                 * @example 1
                 */
                beacon?: components["parameters"]["CaptureBeacon"];
                /**
                 * @description How many times posthog-js has already sent this request.
                 * @example 1
                 */
                retry_count?: components["parameters"]["CaptureRetryCount"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CapturePreflight"];
            default: components["responses"]["OtherError"];
        };
    };
    flags_create: {
        parameters: {
            query?: {
                /**
                 * @description The version of the answer the SDK expects; posthog-js asks for `2`.
                 * @example 2
                 */
                v?: components["parameters"]["FlagsVersion"];
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
            };
            header?: {
                /**
                 * @description `gzip` when the body is gzipped, as posthog-node sends it. Without the header gzip is still recognised
                 *     by its magic bytes (posthog-js sends gzip as `text/plain` without it).
                 * @example gzip
                 */
                "Content-Encoding"?: components["parameters"]["CaptureContentEncoding"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlagsRequest"];
                "text/plain": string;
            };
        };
        responses: {
            /** @description The flags of the caller (none). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagsResponse"];
                };
            };
            400: components["responses"]["CaptureBadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["CapturePayloadTooLarge"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    flags_options: {
        parameters: {
            query?: {
                /**
                 * @description The version of the answer the SDK expects; posthog-js asks for `2`.
                 * @example 2
                 */
                v?: components["parameters"]["FlagsVersion"];
                /**
                 * @description When the SDK sent the request, in milliseconds since the epoch (posthog-js adds it to every request).
                 *     Corrects the client's clock skew like `sent_at` when the body has none; values before 2021 (such as
                 *     seconds) are ignored.
                 * @example 1763719200000
                 */
                _?: components["parameters"]["CaptureSentAt"];
                /**
                 * @description The SDK's version, as older posthog-js versions send it. Accepted and ignored.
                 * @example 1.290.0
                 */
                ver?: components["parameters"]["CaptureLibVersion"];
                /**
                 * @description How the payload is encoded: `gzip` or `gzip-js` (gzip), `lz64` or `lz-string` (LZ-string in base64),
                 *     `base64` or `b64`. Other values are ignored. gzip is also recognised by its magic bytes, and a payload
                 *     made only of base64 characters is decoded as base64.
                 * @example gzip-js
                 */
                compression?: components["parameters"]["CaptureCompression"];
                /**
                 * @description Whether the SDK asks for the client's IP address to be kept (`1`) or not (`0`). Accepted and ignored.
                 * @example 0
                 */
                ip?: components["parameters"]["CaptureIp"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["CapturePreflight"];
            default: components["responses"]["OtherError"];
        };
    };
    remote_config_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project API key (`phc_...`).
                 * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
                 */
                token: components["parameters"]["ProjectToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's remote configuration. */
            200: {
                headers: {
                    /** @description The request's `Origin`, when it has one. */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RemoteConfig"];
                };
            };
            401: components["responses"]["CaptureUnauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    remote_config_js_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project API key (`phc_...`).
                 * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
                 */
                token: components["parameters"]["ProjectToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    /** @description The request's `Origin`, when it has one. */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/javascript": string;
                };
            };
            401: components["responses"]["CaptureUnauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["CaptureUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_query_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QueryRequest"];
            };
        };
        responses: {
            /** @description The query's rows; for an asynchronous query whose status exists and is complete, that status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResponse"] | components["schemas"]["QueryStatusResponse"];
                };
            };
            /** @description The query is queued to run asynchronously (or was already); its status. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QueryTooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_query_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The query's id.
                 * @example 4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f
                 */
                id: components["parameters"]["QueryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The query is complete; its response is in `results`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"];
                };
            };
            /** @description The query is queued or running. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"];
                };
            };
            /**
             * @description The query failed, or was cancelled: its status, whose `error_message` says why. A request that is
             *     not valid (its query string) is answered in the error format.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"] | components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_query_with_kind_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The query's kind (`HogQLQuery`, `EventsQuery`); named `id` because the path is shared with a query's status.
                 * @example EventsQuery
                 */
                id: components["parameters"]["QueryKind"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QueryRequest"];
            };
        };
        responses: {
            /** @description The query's rows (or the status of its finished asynchronous run). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResponse"] | components["schemas"]["QueryStatusResponse"];
                };
            };
            /** @description The query is queued to run asynchronously (or was already); its status. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QueryTooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_query_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The query's id.
                 * @example 4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f
                 */
                id: components["parameters"]["QueryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The query is cancelled, or there was none to cancel; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_query_check_auth_for_async_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller may run queries in this environment; no body. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_query_draft_sql_retrieve: {
        parameters: {
            query: {
                /**
                 * @description What the query should answer, in words; at most 400 characters (else 400, code `too_long`).
                 * @example how many pageviews per day in the last 7 days
                 */
                prompt: string;
                /**
                 * @description The query being edited; accepted and not used.
                 * @example select event from events
                 */
                current_query?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The drafted query. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DraftSql"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_list: {
        parameters: {
            query?: {
                /** @description Only playlists created by the user with this id. */
                created_by?: number;
                /** @description Number of results per page (default 100, at most 1000). */
                limit?: components["parameters"]["Limit"];
                /** @description The index of the first result to return (default 0). */
                offset?: components["parameters"]["Offset"];
                /** @description Only the playlist with this short id. */
                short_id?: string;
                /** @description Only playlists whose `name` or `derived_name` contains this text, ignoring case. */
                search?: string;
                /** @description `true`: only pinned playlists; `false`: only playlists that are not pinned. */
                pinned?: boolean;
                /** @description Only playlists of this type. */
                type?: components["schemas"]["PlaylistType"];
                /**
                 * @description The field to sort by, ascending, or descending with a leading `-` (default `-last_modified_at`).
                 *     Ties are broken by id, in the same direction.
                 */
                order?: "id" | "-id" | "short_id" | "-short_id" | "name" | "-name" | "derived_name" | "-derived_name" | "description" | "-description" | "pinned" | "-pinned" | "type" | "-type" | "created_at" | "-created_at" | "created_by" | "-created_by" | "last_modified_at" | "-last_modified_at" | "last_modified_by" | "-last_modified_by";
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of playlists. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedSessionRecordingPlaylistList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionRecordingPlaylistCreate"];
            };
        };
        responses: {
            /** @description The new playlist. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingPlaylist"];
                };
            };
            400: components["responses"]["PlaylistBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The playlist. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingPlaylist"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Hard delete is not allowed; PATCH with `deleted` set to true instead. */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchedSessionRecordingPlaylist"];
            };
        };
        responses: {
            /** @description The updated playlist. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingPlaylist"];
                };
            };
            400: components["responses"]["PlaylistBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_recordings_retrieve: {
        parameters: {
            query?: {
                /** @description Number of recordings per page (default 50, at most 1000). */
                limit?: number;
                /** @description The index of the first result to return (default 0). */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of pinned recordings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlaylistRecordings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_recordings_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
                /**
                 * @description The session id of the recording (the `$session_id` its events carry).
                 * @example 0190f1c4-7a1b-7c2d-8e3f-4a5b6c7d8e9f
                 */
                session_recording_id: components["parameters"]["SessionRecordingId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recording is pinned. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlaylistRecordingChange"];
                };
            };
            /** @description The playlist is a saved search (`type` `filters`), to which recordings cannot be pinned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_session_recording_playlists_recordings_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The playlist's short id.
                 * @example aB3dE5gH
                 */
                short_id: components["parameters"]["ShortId"];
                /**
                 * @description The session id of the recording (the `$session_id` its events carry).
                 * @example 0190f1c4-7a1b-7c2d-8e3f-4a5b6c7d8e9f
                 */
                session_recording_id: components["parameters"]["SessionRecordingId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recording is no longer pinned. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlaylistRecordingChange"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    organizations_list: {
        parameters: {
            query?: {
                /** @description Number of results per page (default 100, at most 1000). */
                limit?: components["parameters"]["Limit"];
                /** @description The index of the first result to return (default 0). */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of organizations, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedOrganizationList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    organizations_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrganizationCreate"];
            };
        };
        responses: {
            /** @description The new organization. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    organizations_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization's UUID.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                id: components["parameters"]["OrganizationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    organizations_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization's UUID.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                id: components["parameters"]["OrganizationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    organizations_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization's UUID.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                id: components["parameters"]["OrganizationId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchedOrganization"];
            };
        };
        responses: {
            /** @description The updated organization. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    organizations_environments_rollback_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The organization's UUID.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                id: components["parameters"]["OrganizationId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnvironmentsRollbackRequest"];
            };
        };
        responses: {
            /** @description The organization after the move. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    projects_list: {
        parameters: {
            query?: {
                /** @description Number of results per page (default 100, at most 1000). */
                limit?: components["parameters"]["Limit"];
                /** @description The index of the first result to return (default 0). */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of projects, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedProjectList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    projects_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_list: {
        parameters: {
            query?: {
                /** @description Number of results per page (default 100, at most 1000). */
                limit?: components["parameters"]["Limit"];
                /** @description The index of the first result to return (default 0). */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of batch exports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedBatchExportList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchExportCreate"];
            };
        };
        responses: {
            /** @description The new batch export. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch export. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchedBatchExport"];
            };
        };
        responses: {
            /** @description The updated batch export. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_backfill_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchExportBackfillRequest"];
            };
        };
        responses: {
            /** @description The backfill was started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportBackfillStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_pause_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export is paused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportPaused"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    batch_exports_unpause_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The UUID of the organization that owns the batch exports.
                 * @example 0190f1c4-5b2a-7d1e-9a3f-2b8c6d4e1f00
                 */
                organization_id: components["parameters"]["BatchExportOrganizationId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BatchExportUnpauseRequest"];
            };
        };
        responses: {
            /** @description The export is unpaused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportPaused"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_list: {
        parameters: {
            query?: {
                /** @description Number of results per page (default 100, at most 1000). */
                limit?: components["parameters"]["Limit"];
                /** @description The index of the first result to return (default 0). */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of batch exports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedBatchExportList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchExportCreate"];
            };
        };
        responses: {
            /** @description The new batch export. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch export. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchedBatchExport"];
            };
        };
        responses: {
            /** @description The updated batch export. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_backfill_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchExportBackfillRequest"];
            };
        };
        responses: {
            /** @description The backfill was started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportBackfillStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_pause_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export is paused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportPaused"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_unpause_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BatchExportUnpauseRequest"];
            };
        };
        responses: {
            /** @description The export is unpaused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportPaused"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_backfills_list: {
        parameters: {
            query?: {
                /** @description The pagination cursor value, from a `next` or `previous` link. */
                cursor?: components["parameters"]["PageCursor"];
                /** @description Number of results per page (default 100, at most 1000). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of backfills. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedBatchExportBackfillList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_backfills_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchExportBackfillRequest"];
            };
        };
        responses: {
            /** @description The backfill was started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportBackfillStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_backfills_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The backfill's UUID, as `backfill_id` answered when it was started.
                 * @example 0190f1c4-9b00-7c00-8000-0000000000b1
                 */
                backfill_id: components["parameters"]["BatchExportBackfillId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backfill. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportBackfill"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_backfills_cancel_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The backfill's UUID, as `backfill_id` answered when it was started.
                 * @example 0190f1c4-9b00-7c00-8000-0000000000b1
                 */
                backfill_id: components["parameters"]["BatchExportBackfillId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backfill is cancelled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportCancelled"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_runs_list: {
        parameters: {
            query?: {
                /** @description The pagination cursor value, from a `next` or `previous` link. */
                cursor?: components["parameters"]["PageCursor"];
                /**
                 * @description Only runs created at or after this point: an ISO-8601 datetime (in the environment's time zone when it
                 *     has no offset) or a span before now such as `-7d` (units `s`, `M` minutes, `h`, `d`, `w`, `m` months,
                 *     `q` quarters of 13 weeks, `y`; at most 100 years). Defaults to `-7d`. Another value is a 400 (PostHog
                 *     takes it as now).
                 * @example -7d
                 */
                after?: string;
                /**
                 * @description Only runs created at or before this point, in the same forms as `after`. Defaults to now.
                 * @example 2026-11-21T00:00:00Z
                 */
                before?: string;
                /**
                 * @description `-created_at` (the default), `created_at`, `-data_interval_start` or `data_interval_start`; any other
                 *     value is ignored, as PostHog's ordering filter ignores it.
                 * @example -data_interval_start
                 */
                ordering?: string;
                /**
                 * @description Ordered by `data_interval_start` only: runs whose interval starts at or after this point, in the forms
                 *     of `after`. Defaults to `-7d`.
                 * @example -30d
                 */
                start?: string;
                /**
                 * @description Ordered by `data_interval_start` only: runs whose interval ends at or before this point, in the forms
                 *     of `after`. Defaults to now.
                 * @example 2026-11-21T00:00:00Z
                 */
                end?: string;
                /**
                 * @description Only runs in these statuses; repeat the parameter for several.
                 * @example [
                 *       "Failed"
                 *     ]
                 */
                status?: ("Cancelled" | "Completed" | "ContinuedAsNew" | "Failed" | "FailedRetryable" | "FailedBilling" | "Terminated" | "TimedOut" | "Running" | "Starting")[];
                /** @description Number of results per page (default 100, at most 1000). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedBatchExportRunList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_runs_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The run's UUID.
                 * @example 0190f1c4-9a00-7c00-8000-000000000001
                 */
                run_id: components["parameters"]["BatchExportRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportRun"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_runs_cancel_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The run's UUID.
                 * @example 0190f1c4-9a00-7c00-8000-000000000001
                 */
                run_id: components["parameters"]["BatchExportRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run is cancelled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportCancelled"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_batch_exports_runs_retry_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The batch export's UUID.
                 * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
                 */
                id: components["parameters"]["BatchExportId"];
                /**
                 * @description The run's UUID.
                 * @example 0190f1c4-9a00-7c00-8000-000000000001
                 */
                run_id: components["parameters"]["BatchExportRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backfill that retries the run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchExportBackfillStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            default: components["responses"]["OtherError"];
        };
    };
    query_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QueryRequest"];
            };
        };
        responses: {
            /** @description The query's rows; for an asynchronous query whose status exists and is complete, that status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResponse"] | components["schemas"]["QueryStatusResponse"];
                };
            };
            /** @description The query is queued to run asynchronously (or was already); its status. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QueryTooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    query_with_kind_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The query's kind (`HogQLQuery`, `EventsQuery`); named `id` because the path is shared with a query's status.
                 * @example EventsQuery
                 */
                id: components["parameters"]["QueryKind"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QueryRequest"];
            };
        };
        responses: {
            /** @description The query's rows (or the status of its finished asynchronous run). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResponse"] | components["schemas"]["QueryStatusResponse"];
                };
            };
            /** @description The query is queued to run asynchronously (or was already); its status. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["QueryTooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    events_list: {
        parameters: {
            query?: {
                /**
                 * @description Only events after this time (exclusive): ISO 8601, or relative to now such as `-7d`, `-12h`, `-30M`
                 *     (units s, M, h, d, w, m, q, y), where `Start` or `End` after an hour, day, month or year moves it to
                 *     the start or end of that period in the project's timezone (`-1dStart`, `mEnd`). A time without an
                 *     offset is read in the project's timezone. No lower bound by default.
                 * @example -7d
                 */
                after?: components["parameters"]["EventsAfter"];
                /**
                 * @description Only events before this time (exclusive), in the same forms as `after`. No upper bound by default.
                 * @example 2026-11-21T12:00:00Z
                 */
                before?: components["parameters"]["EventsBefore"];
                /**
                 * @description Only events of this distinct id.
                 * @example user-1
                 */
                distinct_id?: components["parameters"]["EventsDistinctId"];
                /**
                 * @description Only events with this name.
                 * @example $pageview
                 */
                event?: components["parameters"]["EventsEvent"];
                /**
                 * @description The response format. Without it, the Accept header chooses, as PostHog's REST framework negotiates it:
                 *     the most specific media ranges first, JSON winning a tie, so `text/csv` or `text/*` asks for CSV and
                 *     `*\/*` or `application/json` for JSON (quality values are not read).
                 *
                 *     CSV is written for spreadsheets, so that stored text cannot become a formula there (OWASP's CSV
                 *     Injection advice): a text cell, column names included, that starts with `=`, `+`, `-`, `@`, a tab, a
                 *     carriage return or a line feed is written with a single quote in front and quoted (`-2+3` as
                 *     `"'-2+3"`). Numbers are written as they are, a negative one with its minus sign (`-12.5`): they cannot
                 *     hold a formula, and a quote would make them text. Text that looks like a number is still text
                 *     (`"'-12.5"`).
                 */
                format?: components["parameters"]["EventFormat"];
                /**
                 * @description Events per page: 100 by default (1,000 for CSV). At most 1,000: a larger value is lowered to
                 *     1,000, as PostHog does.
                 * @example 100
                 */
                limit?: components["parameters"]["EventsLimit"];
                /**
                 * @deprecated
                 * @description Skips this many matching events before the page (at most 100,000). Prefer following `next`.
                 * @example 0
                 */
                offset?: components["parameters"]["EventsOffset"];
                /**
                 * @description Only events of this person (its numeric id or UUID): events of every distinct id it has now, including
                 *     ids merged into it by an alias.
                 * @example 42
                 */
                person_id?: components["parameters"]["EventsPersonId"];
                /**
                 * @description JSON property filters: a list (all must hold) or a group `{"type": "AND"|"OR", "values": [...]}` nested
                 *     to any depth (100 levels). A filter is `{"key", "value", "operator", "type"}`: `type` is `event`
                 *     (default), `person`, `element` (key `tag_name`, `text`, `href` or `selector`), `group` (with
                 *     `group_type_index` 0-4), `event_metadata` (an event field) or `hogql` (`key` is a HogQL condition);
                 *     `operator` is `exact` (default), `is_not`, `icontains`, `not_icontains`, `regex`, `not_regex`, `gt`,
                 *     `lt`, `gte`, `lte`, `is_set`, `is_not_set`, `is_date_exact`, `is_date_before`, `is_date_after`, `in`
                 *     or `not_in`. A list `value` with `exact`/`in` means any of them, with `is_not`/`not_in` none of them.
                 *     Negative operators hold for events without the property. PostHog's old style is read too: an object of
                 *     `<key>` or `<key>__<operator>` to values, each an event property filter (`{"$browser__icontains": "chr"}`).
                 * @example [{"key": "$browser", "value": "Chrome", "operator": "exact", "type": "event"}]
                 */
                properties?: components["parameters"]["EventsProperties"];
                /**
                 * @description (Experimental) A JSON list of HogQL expressions to return instead of events, each optionally
                 *     `... AS name`; the response then has `columns` and rows of values.
                 * @example ["event", "count()"]
                 */
                select?: components["parameters"]["EventsSelect"];
                /**
                 * @description (Experimental) A JSON list of HogQL conditions that every event returned must pass.
                 * @example ["properties.$browser = 'Chrome'"]
                 */
                where?: components["parameters"]["EventsWhere"];
                /**
                 * @description `["-timestamp"]` (newest first, the default) or `["timestamp"]` (oldest first).
                 * @example ["timestamp"]
                 */
                orderBy?: components["parameters"]["EventsOrderBy"];
                /**
                 * @description Where the page starts; set by the `next` link, not to be written by hand.
                 * @example eyJ0IjoiMjAyNi0xMS0yMVQxMDowMDowMC4wMDAwMDBaIiwidSI6IjAxOTBmMWM0LWFhYWEtN2JiYi04Y2NjLWRkZGRkZGRkZGRkZCJ9
                 */
                cursor?: components["parameters"]["EventsCursor"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["EventPage"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    events_values_retrieve: {
        parameters: {
            query: {
                /**
                 * @description The response format. Without it, the Accept header chooses, as PostHog's REST framework negotiates it:
                 *     the most specific media ranges first, JSON winning a tie, so `text/csv` or `text/*` asks for CSV and
                 *     `*\/*` or `application/json` for JSON (quality values are not read).
                 *
                 *     CSV is written for spreadsheets, so that stored text cannot become a formula there (OWASP's CSV
                 *     Injection advice): a text cell, column names included, that starts with `=`, `+`, `-`, `@`, a tab, a
                 *     carriage return or a line feed is written with a single quote in front and quoted (`-2+3` as
                 *     `"'-2+3"`). Numbers are written as they are, a negative one with its minus sign (`-12.5`): they cannot
                 *     hold a formula, and a quote would make them text. Text that looks like a number is still text
                 *     (`"'-12.5"`).
                 */
                format?: components["parameters"]["EventFormat"];
                /**
                 * @description The property whose values to list (an event column's name with `is_column=true`).
                 * @example $browser
                 */
                key: components["parameters"]["PropertyValuesKey"];
                /**
                 * @description Only values containing this text (case-insensitive).
                 * @example chr
                 */
                value?: components["parameters"]["PropertyValuesValue"];
                /**
                 * @description Only values seen on events with these names; repeat the parameter for several.
                 * @example [
                 *       "$pageview"
                 *     ]
                 */
                event_name?: components["parameters"]["PropertyValuesEventName"];
                /**
                 * @description `true` to list values of the event column `key` (`event`, `distinct_id`, `elements_chain`).
                 * @example false
                 */
                is_column?: components["parameters"]["PropertyValuesIsColumn"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["PropertyValues"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    events_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description The response format. Without it, the Accept header chooses, as PostHog's REST framework negotiates it:
                 *     the most specific media ranges first, JSON winning a tie, so `text/csv` or `text/*` asks for CSV and
                 *     `*\/*` or `application/json` for JSON (quality values are not read).
                 *
                 *     CSV is written for spreadsheets, so that stored text cannot become a formula there (OWASP's CSV
                 *     Injection advice): a text cell, column names included, that starts with `=`, `+`, `-`, `@`, a tab, a
                 *     carriage return or a line feed is written with a single quote in front and quoted (`-2+3` as
                 *     `"'-2+3"`). Numbers are written as they are, a negative one with its minus sign (`-12.5`): they cannot
                 *     hold a formula, and a quote would make them text. Text that looks like a number is still text
                 *     (`"'-12.5"`).
                 */
                format?: components["parameters"]["EventFormat"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The event's UUID, with or without its hyphens.
                 * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
                 */
                id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneEvent"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_events_list: {
        parameters: {
            query?: {
                /**
                 * @description Only events after this time (exclusive): ISO 8601, or relative to now such as `-7d`, `-12h`, `-30M`
                 *     (units s, M, h, d, w, m, q, y), where `Start` or `End` after an hour, day, month or year moves it to
                 *     the start or end of that period in the project's timezone (`-1dStart`, `mEnd`). A time without an
                 *     offset is read in the project's timezone. No lower bound by default.
                 * @example -7d
                 */
                after?: components["parameters"]["EventsAfter"];
                /**
                 * @description Only events before this time (exclusive), in the same forms as `after`. No upper bound by default.
                 * @example 2026-11-21T12:00:00Z
                 */
                before?: components["parameters"]["EventsBefore"];
                /**
                 * @description Only events of this distinct id.
                 * @example user-1
                 */
                distinct_id?: components["parameters"]["EventsDistinctId"];
                /**
                 * @description Only events with this name.
                 * @example $pageview
                 */
                event?: components["parameters"]["EventsEvent"];
                /**
                 * @description The response format. Without it, the Accept header chooses, as PostHog's REST framework negotiates it:
                 *     the most specific media ranges first, JSON winning a tie, so `text/csv` or `text/*` asks for CSV and
                 *     `*\/*` or `application/json` for JSON (quality values are not read).
                 *
                 *     CSV is written for spreadsheets, so that stored text cannot become a formula there (OWASP's CSV
                 *     Injection advice): a text cell, column names included, that starts with `=`, `+`, `-`, `@`, a tab, a
                 *     carriage return or a line feed is written with a single quote in front and quoted (`-2+3` as
                 *     `"'-2+3"`). Numbers are written as they are, a negative one with its minus sign (`-12.5`): they cannot
                 *     hold a formula, and a quote would make them text. Text that looks like a number is still text
                 *     (`"'-12.5"`).
                 */
                format?: components["parameters"]["EventFormat"];
                /**
                 * @description Events per page: 100 by default (1,000 for CSV). At most 1,000: a larger value is lowered to
                 *     1,000, as PostHog does.
                 * @example 100
                 */
                limit?: components["parameters"]["EventsLimit"];
                /**
                 * @deprecated
                 * @description Skips this many matching events before the page (at most 100,000). Prefer following `next`.
                 * @example 0
                 */
                offset?: components["parameters"]["EventsOffset"];
                /**
                 * @description Only events of this person (its numeric id or UUID): events of every distinct id it has now, including
                 *     ids merged into it by an alias.
                 * @example 42
                 */
                person_id?: components["parameters"]["EventsPersonId"];
                /**
                 * @description JSON property filters: a list (all must hold) or a group `{"type": "AND"|"OR", "values": [...]}` nested
                 *     to any depth (100 levels). A filter is `{"key", "value", "operator", "type"}`: `type` is `event`
                 *     (default), `person`, `element` (key `tag_name`, `text`, `href` or `selector`), `group` (with
                 *     `group_type_index` 0-4), `event_metadata` (an event field) or `hogql` (`key` is a HogQL condition);
                 *     `operator` is `exact` (default), `is_not`, `icontains`, `not_icontains`, `regex`, `not_regex`, `gt`,
                 *     `lt`, `gte`, `lte`, `is_set`, `is_not_set`, `is_date_exact`, `is_date_before`, `is_date_after`, `in`
                 *     or `not_in`. A list `value` with `exact`/`in` means any of them, with `is_not`/`not_in` none of them.
                 *     Negative operators hold for events without the property. PostHog's old style is read too: an object of
                 *     `<key>` or `<key>__<operator>` to values, each an event property filter (`{"$browser__icontains": "chr"}`).
                 * @example [{"key": "$browser", "value": "Chrome", "operator": "exact", "type": "event"}]
                 */
                properties?: components["parameters"]["EventsProperties"];
                /**
                 * @description (Experimental) A JSON list of HogQL expressions to return instead of events, each optionally
                 *     `... AS name`; the response then has `columns` and rows of values.
                 * @example ["event", "count()"]
                 */
                select?: components["parameters"]["EventsSelect"];
                /**
                 * @description (Experimental) A JSON list of HogQL conditions that every event returned must pass.
                 * @example ["properties.$browser = 'Chrome'"]
                 */
                where?: components["parameters"]["EventsWhere"];
                /**
                 * @description `["-timestamp"]` (newest first, the default) or `["timestamp"]` (oldest first).
                 * @example ["timestamp"]
                 */
                orderBy?: components["parameters"]["EventsOrderBy"];
                /**
                 * @description Where the page starts; set by the `next` link, not to be written by hand.
                 * @example eyJ0IjoiMjAyNi0xMS0yMVQxMDowMDowMC4wMDAwMDBaIiwidSI6IjAxOTBmMWM0LWFhYWEtN2JiYi04Y2NjLWRkZGRkZGRkZGRkZCJ9
                 */
                cursor?: components["parameters"]["EventsCursor"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["EventPage"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_events_values_retrieve: {
        parameters: {
            query: {
                /**
                 * @description The response format. Without it, the Accept header chooses, as PostHog's REST framework negotiates it:
                 *     the most specific media ranges first, JSON winning a tie, so `text/csv` or `text/*` asks for CSV and
                 *     `*\/*` or `application/json` for JSON (quality values are not read).
                 *
                 *     CSV is written for spreadsheets, so that stored text cannot become a formula there (OWASP's CSV
                 *     Injection advice): a text cell, column names included, that starts with `=`, `+`, `-`, `@`, a tab, a
                 *     carriage return or a line feed is written with a single quote in front and quoted (`-2+3` as
                 *     `"'-2+3"`). Numbers are written as they are, a negative one with its minus sign (`-12.5`): they cannot
                 *     hold a formula, and a quote would make them text. Text that looks like a number is still text
                 *     (`"'-12.5"`).
                 */
                format?: components["parameters"]["EventFormat"];
                /**
                 * @description The property whose values to list (an event column's name with `is_column=true`).
                 * @example $browser
                 */
                key: components["parameters"]["PropertyValuesKey"];
                /**
                 * @description Only values containing this text (case-insensitive).
                 * @example chr
                 */
                value?: components["parameters"]["PropertyValuesValue"];
                /**
                 * @description Only values seen on events with these names; repeat the parameter for several.
                 * @example [
                 *       "$pageview"
                 *     ]
                 */
                event_name?: components["parameters"]["PropertyValuesEventName"];
                /**
                 * @description `true` to list values of the event column `key` (`event`, `distinct_id`, `elements_chain`).
                 * @example false
                 */
                is_column?: components["parameters"]["PropertyValuesIsColumn"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["PropertyValues"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
    environments_events_retrieve: {
        parameters: {
            query?: {
                /**
                 * @description The response format. Without it, the Accept header chooses, as PostHog's REST framework negotiates it:
                 *     the most specific media ranges first, JSON winning a tie, so `text/csv` or `text/*` asks for CSV and
                 *     `*\/*` or `application/json` for JSON (quality values are not read).
                 *
                 *     CSV is written for spreadsheets, so that stored text cannot become a formula there (OWASP's CSV
                 *     Injection advice): a text cell, column names included, that starts with `=`, `+`, `-`, `@`, a tab, a
                 *     carriage return or a line feed is written with a single quote in front and quoted (`-2+3` as
                 *     `"'-2+3"`). Numbers are written as they are, a negative one with its minus sign (`-12.5`): they cannot
                 *     hold a formula, and a quote would make them text. Text that looks like a number is still text
                 *     (`"'-12.5"`).
                 */
                format?: components["parameters"]["EventFormat"];
            };
            header?: never;
            path: {
                /**
                 * @description The project (environment) id, as listed by `GET /api/projects/`; `@current` names the caller's current
                 *     project.
                 * @example 2
                 */
                project_id: components["parameters"]["ProjectId"];
                /**
                 * @description The event's UUID, with or without its hyphens.
                 * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
                 */
                id: components["parameters"]["EventId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OneEvent"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["QueryTimeout"];
            default: components["responses"]["OtherError"];
        };
    };
}
