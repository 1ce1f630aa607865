// The fauxqs test server lives in lib/local-aws/fauxqs-server.ts (the local pipeline starts it
// too); tests keep importing it from here.
export { startFauxqs, type Fauxqs } from '../../lib/local-aws/fauxqs-server';
