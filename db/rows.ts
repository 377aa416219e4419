/** Row types of the tables, as the `pg` driver returns them. */

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  logo_media_id: string | null;
  plugins_access_level: number;
  is_member_join_email_enabled: boolean;
  enforce_2fa: boolean | null;
  members_can_invite: boolean;
  is_ai_data_processing_approved: boolean | null;
  default_experiment_stats_method: 'bayesian' | 'frequentist';
  customer_id: string | null;
  available_product_features: Record<string, unknown>[];
  created_at: Date;
  updated_at: Date;
}

export interface ProjectRow {
  id: number;
  uuid: string;
  organization_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface EnvironmentRow {
  id: number;
  uuid: string;
  organization_id: string;
  project_id: number;
  name: string;
  api_token: string;
  timezone: string;
  is_demo: boolean;
  ingested_event: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface UserRow {
  id: number;
  uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: boolean | null;
  hedgehog_config: Record<string, unknown> | null;
  role_at_organization: string | null;
  is_active: boolean;
  current_organization_id: string | null;
  current_team_id: number | null;
  created_at: Date;
}

/** Membership levels as PostHog numbers them. */
export const MembershipLevel = { member: 1, admin: 8, owner: 15 } as const;
export type MembershipLevel = (typeof MembershipLevel)[keyof typeof MembershipLevel];

export interface PersonalApiKeyRow {
  id: string;
  user_id: number;
  label: string;
  secure_value: string;
  mask_value: string;
  scopes: string[];
  scoped_organizations: string[] | null;
  scoped_teams: number[] | null;
  created_at: Date;
  last_used_at: Date | null;
}

export type PlaylistType = 'collection' | 'filters';

export interface SessionRecordingPlaylistRow {
  id: number;
  team_id: number;
  short_id: string;
  name: string | null;
  derived_name: string | null;
  description: string;
  pinned: boolean;
  deleted: boolean;
  filters: unknown;
  type: PlaylistType;
  create_in_folder: string | null;
  created_at: Date;
  created_by: number | null;
  last_modified_at: Date;
  last_modified_by: number | null;
}

export interface SessionRecordingPlaylistItemRow {
  id: string;
  team_id: number;
  playlist_id: number;
  session_id: string;
  created_at: Date;
}
