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
         * @description Answers 200 while the process serves requests; it does not touch the database.
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
    "/i/v0/e/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture one event
         * @description Records one event. The body must carry `api_key`, `event` and `distinct_id`; `properties` and `timestamp`
         *     are optional. An event without a name or with a missing or empty `distinct_id` is answered 200 and not
         *     ingested, so that SDKs never retry it (counted by reason).
         */
        post: operations["capture_event_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batch/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture a batch of events
         * @description Records every event of `batch`, all for the project named by `api_key`. The number of events is not
         *     limited; the request body must be under 20 MB. With `historical_migration: true` the events are imported
         *     historical data, processed in request order. In a batch item `distinct_id` may be given inside
         *     `properties` instead.
         */
        post: operations["capture_batch_create"];
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
                /**
                 * @description The query's id.
                 * @example 4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f
                 */
                id: components["parameters"]["QueryId"];
            };
            cookie?: never;
        };
        /**
         * Read the status of an asynchronous query
         * @description (Experimental) The status of the query `id` run inside the environment.
         */
        get: operations["environments_query_retrieve"];
        put?: never;
        post?: never;
        /**
         * Cancel an asynchronous query
         * @description (Experimental) Cancels the query `id`, running or finished. Needs only `query:read`.
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
         * @description (Experimental) Answers 200 with no body when the key may query this environment. The contract shows no
         *     scope; Hedgerow asks for `query:read`, the scope every other query operation needs.
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
         * @description (Experimental) Answers 200 with no body. The contract shows no scope; Hedgerow asks for `query:read`.
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
         * @description Playlists of the environment that are not deleted, newest change first.
         */
        get: operations["environments_session_recording_playlists_list"];
        put?: never;
        /**
         * Create a session recording playlist
         * @description Creates a playlist owned by the caller.
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
         * @description Hard delete of a playlist is not allowed: this answers 405 with no body and deletes nothing. Use a PATCH
         *     that sets `deleted` to true instead. The write scope is still checked first.
         */
        delete: operations["environments_session_recording_playlists_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a session recording playlist
         * @description Changes any subset of the writable fields. Setting `deleted: true` is the way to delete a playlist (it then
         *     disappears from list and retrieve); `deleted: false` restores it.
         */
        patch: operations["environments_session_recording_playlists_partial_update"];
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
         * @description The organizations the caller is a member of (only the key's scoped ones, if it has any).
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
         *     `Environments not found: …`; a source that is also another pair's target answers 400. A pair whose source
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
         * @description Creates a batch export of the organization.
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
         * @description (Deprecated, kept for backwards compatibility.) Stored events of the project, newest first. Use the query
         *     endpoint to list or aggregate ad hoc, and batch exports to export in bulk.
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
                /** @description The event's UUID. */
                id: string;
            };
            cookie?: never;
        };
        /**
         * Read an event
         * @deprecated
         * @description (Deprecated, kept for backwards compatibility.) One stored event by its UUID.
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
         * @description (Deprecated, kept for backwards compatibility.) Up to 10 distinct values of the property `key` seen in the
         *     last 7 days. The contract shows no response; Hedgerow answers as PostHog does, a list of `{name}`.
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The one error format of every endpoint (written by `handlers/errors.ts`). */
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
         *     none); the `saved_filters` fields stay null until recordings matching the filters have been counted.
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
            [key: string]: {
                [key: string]: unknown;
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
        };
        /**
         * @description The writable playlist fields. `type` must be given (PostHog reads it from the request even though it is
         *     read-only afterwards).
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
             * @description `collection` or `filters`; required.
             * @example collection
             */
            type?: string;
            /**
             * @description The folder to file the new playlist in; stored, never returned.
             * @example Replay/Checkout
             */
            _create_in_folder?: string;
        };
        /** @description Any subset of the writable playlist fields; read-only fields sent here are ignored. */
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
             * @description The environment id used in `/api/environments/{project_id}/…` paths.
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
             * @description The project API key (`phc_…`) that capture requests carry.
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
             * @description Instance metadata as a JSON-encoded string (`{"instance_tag": …}`). PostHog returns the object itself;
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
             * @description The full query response once finished, else null.
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
            /** @example null */
            task_id: string | null;
            /** @example null */
            insight_id: number | null;
            /** @example null */
            dashboard_id: number | null;
            /** @example null */
            labels: string[] | null;
            query_progress: components["schemas"]["QueryProgress"];
        };
        /** @description How far a running query has got; null unless progress was asked for while it runs. */
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
         * @description How often a run is triggered.
         * @example hour
         * @enum {string}
         */
        BatchExportInterval: "hour" | "day" | "week" | "every 5 minutes";
        /**
         * @description Where the data goes. `config` holds the destination's settings (for S3: `bucket_name`, `region`,
         *     `prefix`, …); secret settings are accepted but never returned.
         */
        BatchExportDestination: {
            /**
             * @example S3
             * @enum {string}
             */
            type: "S3" | "Snowflake" | "Postgres" | "Redshift" | "BigQuery" | "Databricks" | "HTTP" | "NoOp";
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
            /** @example null */
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
            readonly latest_runs: components["schemas"]["BatchExportRun"][];
            /** @example  */
            hogql_query: string;
            /**
             * @description The exported columns, derived from `hogql_query`; null for the model's defaults.
             * @example null
             */
            readonly schema: unknown;
            /**
             * @description Property filters on what is exported; any JSON value, null for none.
             * @example null
             */
            filters: unknown;
        };
        /** @description The writable batch export fields. */
        BatchExportCreate: {
            /** @example Events to S3 */
            name: string;
            model?: components["schemas"]["BatchExportModel"];
            destination: components["schemas"]["BatchExportDestination"];
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
        };
        /** @description Any subset of the writable batch export fields. */
        PatchedBatchExport: {
            /** @example Events to S3 */
            name?: string;
            model?: components["schemas"]["BatchExportModel"];
            destination?: components["schemas"]["BatchExportDestination"];
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
        };
        /** @description The window to backfill; the create fields are accepted too and ignored. */
        BatchExportBackfillRequest: {
            /**
             * Format: date-time
             * @example 2026-11-20T00:00:00Z
             */
            start_at?: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T00:00:00Z
             */
            end_at?: string | null;
        };
        /** @description The backfill that was started. */
        BatchExportBackfillStarted: {
            /** @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d-Backfill-2026-11-20T00:00:00+00:00-2026-11-21T00:00:00+00:00 */
            backfill_id: string;
        };
        PaginatedBatchExportList: components["schemas"]["PageLinks"] & {
            results: components["schemas"]["BatchExport"][];
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
             * @example 2026-11-21T10:00:00Z
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
         *     `distinct_id` may be given inside `properties` instead; it is stringified and cut to 200 characters.
         */
        CaptureEvent: {
            /**
             * @description The project API key (`phc_…`).
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            api_key?: string;
            /**
             * @description The event name; names starting with `$` are PostHog's reserved ones.
             * @example $pageview
             */
            event?: string;
            /**
             * @description Who did it.
             * @example user-1
             */
            distinct_id?: unknown;
            /**
             * @example {
             *       "$current_url": "https://example.com/"
             *     }
             */
            properties?: {
                [key: string]: unknown;
            };
            /**
             * @description When it happened, ISO 8601; the server's time when absent.
             * @example 2026-11-21T10:00:00Z
             */
            timestamp?: string;
            /**
             * Format: uuid
             * @description The event's id; an event whose uuid is already stored for the project is not stored twice.
             * @example 0190f1c4-aaaa-7bbb-8ccc-dddddddddddd
             */
            uuid?: string;
        };
        /** @description A batch of events for one project. */
        CaptureBatch: {
            /**
             * @description The project API key (`phc_…`).
             * @example phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx
             */
            api_key?: string;
            /**
             * @description True when importing historical data; the events are then processed in request order.
             * @example false
             */
            historical_migration?: boolean;
            /**
             * @description When the client sent the batch, ISO 8601; used to correct the client's clock skew.
             * @example 2026-11-21T10:00:01Z
             */
            sent_at?: string;
            batch: components["schemas"]["CaptureEvent"][];
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
        /** @description The request is malformed or a field fails validation; `attr` names the field. */
        BadRequest: {
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
        /** @description The project API key is missing, malformed, unknown, or a personal API key. */
        CaptureUnauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The key lacks the operation's scope, or the caller's membership level is too low. */
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
        /** @description The key sent more requests than its rate limit allows; retry after `Retry-After` seconds. */
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
         * @description Every event of the request that could be ingested is durably stored. Events without a name or
         *     `distinct_id` are dropped silently and counted by reason.
         */
        CaptureAccepted: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CaptureResponse"];
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
        /**
         * @description The batch export's UUID.
         * @example 0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d
         */
        BatchExportId: string;
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
        /** @description The response format. */
        EventFormat: "csv" | "json";
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health_retrieve: {
        parameters: {
            query?: never;
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
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            500: components["responses"]["ServerError"];
        };
    };
    readiness_retrieve: {
        parameters: {
            query?: never;
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
            /** @description The database is unreachable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    capture_event_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureEvent"];
            };
        };
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["ServerError"];
            default: components["responses"]["OtherError"];
        };
    };
    capture_batch_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureBatch"];
            };
        };
        responses: {
            200: components["responses"]["CaptureAccepted"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["CaptureUnauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["ServerError"];
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
            /** @description The query's status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryStatusResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
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
            /** @description The query is cancelled; no body. */
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
            /** @description The caller may run asynchronous queries in this environment; no body. */
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
            default: components["responses"]["OtherError"];
        };
    };
    environments_query_draft_sql_retrieve: {
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
            /** @description Drafted; no body. */
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
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
            /** @description Hard delete is not allowed; no body. PATCH with `deleted` set to true instead. */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
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
            default: components["responses"]["OtherError"];
        };
    };
    events_list: {
        parameters: {
            query?: {
                /** @description Only events after this time (ISO 8601, or relative such as `-7d`). */
                after?: string;
                /** @description Only events before this time (ISO 8601, or relative such as `-1h`). */
                before?: string;
                /** @description Only events of this distinct id. */
                distinct_id?: string;
                /** @description Only events with this name. */
                event?: string;
                /** @description The response format. */
                format?: components["parameters"]["EventFormat"];
                /** @description The maximum number of events to return (default 100). */
                limit?: number;
                /** @description The index of the first result to return (default 0). */
                offset?: components["parameters"]["Offset"];
                /** @description Only events of any distinct id of this person. */
                person_id?: string;
                /** @description A JSON list of property filters (ANDed), or a property group `{type, values}`. */
                properties?: string;
                /** @description (Experimental) JSON-serialized HogQL expressions to return. */
                select?: string;
                /** @description (Experimental) JSON-serialized HogQL expressions that must pass. */
                where?: string;
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
            /** @description One page of events; `next` links to the following page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LegacyEventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            default: components["responses"]["OtherError"];
        };
    };
    events_retrieve: {
        parameters: {
            query?: {
                /** @description The response format. */
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
                /** @description The event's UUID. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LegacyEvent"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            default: components["responses"]["OtherError"];
        };
    };
    events_values_retrieve: {
        parameters: {
            query?: {
                /** @description The response format. */
                format?: components["parameters"]["EventFormat"];
                /** @description The property whose values to list. */
                key?: string;
                /** @description Only values containing this text (case-insensitive). */
                value?: string;
                /** @description Only values seen on events with this name. */
                event_name?: string;
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
            /** @description The values. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyValue"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            default: components["responses"]["OtherError"];
        };
    };
}
