/**
 * Where the canonical document is: resolved from this module's own location, which the build output keeps
 * (scripts/build.ts copies the spec beside the compiled tree).
 */
import { fileURLToPath } from 'node:url';

export const SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
