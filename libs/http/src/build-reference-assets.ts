// The second step of `@workcell/http:build`: the reference pages' static files (reference-assets.ts says why).
import { REFERENCE_PAGES, writeReferenceAssets } from './reference-assets.js';

const outcome = await writeReferenceAssets(REFERENCE_PAGES);
process.stdout.write(`reference pages' assets: ${outcome}\n`);
