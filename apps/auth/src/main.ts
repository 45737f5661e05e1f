import { serve } from '@workcell/http';
import { createAuthApp, SERVICE } from './app.js';

await serve(SERVICE, (config) => config.ports.auth, createAuthApp);
