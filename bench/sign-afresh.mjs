// Test-only: a simulator that signs every name-verification answer afresh, for the CI ratio guard's
// "signed afresh" load (bench/ratio-guard.ts). Preloaded into `scheme-sim start` (`node --import
// bench/sign-afresh.mjs …`; bench/processes.ts does it for simServer's signAfresh option), it sets
// the default size of the responder's signature cache to 0 as the module loads (a load hook:
// bench/sign-afresh-hooks.mjs), the in-process equivalent of bench/cop-signing.ts's
// withoutSignatureCache. The product has no such flag; the guard checks that two answers to one
// body carry different signatures (PSS is randomised: a cached signature would repeat).
import { register } from 'node:module';

register('./sign-afresh-hooks.mjs', import.meta.url);
