import { serve } from '@workcell/http';
import { createWorkerApp, SERVICE } from './app.js';

await serve(SERVICE, (config) => config.ports.worker, createWorkerApp);
