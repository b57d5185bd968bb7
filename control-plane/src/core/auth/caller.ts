/**
 * @module core/auth/caller
 * Who is calling a `/v0` route, after its credential was verified. The credentials feature resolves
 * the `authorization` header into one of these; routes and services only ever see a `Caller`.
 * Credential kinds and their prefixes are the spec's Authentication table.
 */

/** A member API key (tooling as the app's owner or a workspace admin). */
export interface MemberCaller {
  kind: 'member';
  workspaceId: string;
  memberId: string;
  role: 'owner' | 'admin' | 'member';
}

/** An install token `platapp_…` (one hour): anything the install's approved scopes allow. */
export interface InstallCaller {
  kind: 'install';
  workspaceId: string;
  appId: string;
  installId: string;
  installKind: 'workspace' | 'dev';
  scopes: string[];
  /** A replay's token: reads only (core/http/v0-auth.ts refuses writes). */
  readOnly?: boolean;
}

/** An interaction token `platint_…` (15 minutes): one block, or one command/message-action run. */
export interface InteractionCaller {
  kind: 'interaction';
  workspaceId: string;
  appId: string;
  installId: string;
  blockId: string | null;
  invocationId: string | null;
  /** The token's unit of work (core/unit-of-work): what a block action's handler stages. */
  unitKey: string;
  /** The install's kind, from the row the resolver read (absent: read it again). */
  installKind?: 'workspace' | 'dev';
  /** A replay's token: reads only. */
  readOnly?: boolean;
}

/** A deploy token `platdep_…` (15 minutes): tooling for one app, maybe previews only. */
export interface DeployCaller {
  kind: 'deploy';
  appId: string;
  previewOnly: boolean;
}

/** An agent builder token (one turn): tooling for apps the member owns, previews only. */
export interface AgentCaller {
  kind: 'agent';
  workspaceId: string;
  memberId: string;
}

/** Client credentials (HTTP Basic `client_id:client_secret`): minting install tokens only. */
export interface ClientCredentialsCaller {
  kind: 'client';
  appId: string;
}

export type Caller = MemberCaller | InstallCaller | InteractionCaller | DeployCaller | AgentCaller | ClientCredentialsCaller;
export type CallerKind = Caller['kind'];
