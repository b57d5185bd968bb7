// Serves app.ts on node:http: `node server.ts`. The environment gives PLATFORM_SIGNING_SECRET
// (whsec_…, printed once by `platform deploy --create`) and PLATFORM_API_URL; PORT picks the port.
import { serve } from '@platform/sdk/node';
import app from './app.ts';

const server = await serve(app, { port: Number(process.env.PORT ?? 8787) });
process.stdout.write(`Deliveries go to ${server.url}/platform\n`);
