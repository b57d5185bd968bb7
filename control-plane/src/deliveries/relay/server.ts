/**
 * @module deliveries/relay/server
 * The relay's WebSocket endpoint, `GET /v0/apps/{app_id}/relay` with an upgrade. The caller is
 * the developer (member API key or agent builder token, like `PUT /v0/apps/dev`); the app must be
 * their own development app (self-hosted, or hosted: `platform dev` then runs its bundle locally),
 * and its dev install must exist (a sync creates it).
 * Anything else is refused before the upgrade with the spec's error body.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { PlatformError, isPlatformError, relayPath, type RelayReady } from '@platform/sdk';
import type { Caller } from '../../core/auth/caller.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { findApp } from '../../apps/apps/store.ts';
import { findLiveInstall } from '../../apps/installs/store.ts';
import { createRelayConnection } from './connection.ts';
import type { RelayHub } from './hub.ts';

const PATH = new RegExp(`^${relayPath('APP').replace('APP', '([^/?#]+)').replace(/\//g, '\\/')}$`);
/** Frames larger than a delivery answer may be (1 MB) plus framing are refused by the socket. */
const MAX_FRAME_BYTES = 2 * 1024 * 1024;

export interface RelayServer {
  /** Takes an upgrade request for the relay path; answers false for any other path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): void;
}

const notFound = () => new PlatformError('PlatformAppNotFoundError', 'No development app of yours with that id', { path: ['appId'] });

function refuse(socket: Duplex, err: PlatformError): void {
  const body = JSON.stringify(err.toBody());
  socket.end(`HTTP/1.1 ${err.status} ${err.status === 401 ? 'Unauthorized' : err.status === 404 ? 'Not Found' : 'Forbidden'}\r\n`
    + `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

export interface RelayServerDeps {
  db: Db;
  hub: RelayHub;
  logger: Logger;
  resolveCaller(authorization: string | undefined): Promise<Caller>;
  /** Called once a relay is ready (lifecycle deliveries that waited for it are sent now). */
  onConnected?(installId: string): Promise<void>;
}

export function createRelayServer(deps: RelayServerDeps): RelayServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  async function authorize(req: IncomingMessage, appId: string) {
    const caller = await deps.resolveCaller(req.headers.authorization);
    if (caller.kind !== 'member' && caller.kind !== 'agent') {
      throw new PlatformError('PlatformAppTokenInvalidError', 'The relay takes a member API key or an agent builder token');
    }
    const app = await findApp(deps.db, appId);
    if (app === undefined || app.dev_base_slug === null || app.owner_member_id !== caller.memberId || app.workspace_id !== caller.workspaceId) {
      throw notFound();
    }
    const install = await findLiveInstall(deps.db, app.id, app.workspace_id, 'dev');
    if (install === undefined) throw new PlatformError('PlatformAppInstallNotFoundError', 'The app has no development install yet: sync it with PUT /v0/apps/dev first');
    return { app, install };
  }

  return {
    handleUpgrade(req, socket, head) {
      const path = (req.url ?? '').split('?')[0]!;
      const match = PATH.exec(path);
      if (match === null) return false;
      socket.on('error', () => undefined);
      let appId: string;
      try {
        appId = decodeURIComponent(match[1]!);
      } catch {
        refuse(socket, notFound());
        return true;
      }
      authorize(req, appId).then(({ app, install }) => {
        wss.handleUpgrade(req, socket, head, (ws) => {
          const connection = createRelayConnection(ws, install.id);
          void deps.hub.register(connection).then(async () => {
            // What waited for the relay is due before the CLI hears it is connected.
            await deps.onConnected?.(install.id).catch((err: unknown) => deps.logger.warn({ err }, 'deliveries waiting for the relay not re-queued'));
            const ready: RelayReady = { type: 'ready', appId: app.id, slug: app.slug, installId: install.id };
            ws.send(JSON.stringify(ready));
            deps.logger.info({ appId: app.id, installId: install.id }, 'development relay connected');
          }).catch((err: unknown) => {
            deps.logger.error({ err }, 'relay registration failed');
            ws.close(1011, 'The relay could not be registered');
          });
        });
      }, (err: unknown) => {
        if (!isPlatformError(err)) deps.logger.error({ err }, 'relay upgrade failed');
        refuse(socket, isPlatformError(err) && err.status < 500 ? err : new PlatformError('PlatformApiInternalServerError', 'Internal server error'));
      });
      return true;
    },
    close() {
      wss.close();
    },
  };
}
