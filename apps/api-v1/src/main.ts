import { serve } from '@workcell/http';
import { createApiV1App, SERVICE } from './app.js';

await serve(SERVICE, (config) => config.ports.apiV1, createApiV1App);
