/**
 * @module blocks/invocations/available
 * What a member can run (`GET /client/v1/commands`): per install, the slash commands and message
 * actions the installed version's manifest declares, in the shape a client needs to offer them and
 * fill in their options. Installs: the workspace's active ones, and the member's own development
 * apps' dev installs (another member's work in progress is not offered). Apps declaring neither are
 * left out. Manifests hold nothing secret, but only the fields named here are passed on.
 */
import type { CommandDefinition, MessageActionDefinition } from '@platform/sdk';
import type { Actor } from '../../core/auth/actor.ts';
import type { Db } from '../../core/db/db.ts';
import type { AvailableApp } from './schemas.ts';
import { runnableInstalls, type RunnableInstall } from './store.ts';

function commandView(command: CommandDefinition): AvailableApp['commands'][number] {
  return {
    name: command.name,
    description: command.description,
    options: (command.options ?? []).map((o) => ({
      name: o.name, description: o.description, type: o.type, required: o.required ?? false,
      choices: o.choices?.map((c) => ({ value: c.value, label: c.label })) ?? null, objectKind: o.objectKind ?? null,
    })),
  };
}

function messageActionView(action: MessageActionDefinition): AvailableApp['messageActions'][number] {
  return { id: action.id, label: action.label, icon: action.icon ?? null, context: action.context ?? 'message' };
}

export function availableApp(row: RunnableInstall): AvailableApp {
  return {
    installId: row.install_id, installKind: row.kind, appId: row.app_id, name: row.name, version: row.version,
    commands: ((row.manifest.commands ?? []) as CommandDefinition[]).map(commandView),
    messageActions: ((row.manifest.messageActions ?? []) as MessageActionDefinition[]).map(messageActionView),
  };
}

/**
 * @example
 * const { items } = await availableCommands(db, actor); // [{ installId, appId, name, commands: [{ name: 'deploy', … }], messageActions: […] }]
 */
export async function availableCommands(db: Db, actor: Actor): Promise<{ items: AvailableApp[] }> {
  const apps = (await runnableInstalls(db, actor.workspaceId, actor.memberId)).map(availableApp);
  return { items: apps.filter((a) => a.commands.length > 0 || a.messageActions.length > 0) };
}
