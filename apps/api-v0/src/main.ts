import { serve } from '@workcell/http';
import { createApiV0App, SERVICE } from './app.js';

await serve(SERVICE, (config) => config.ports.apiV0, createApiV0App);
