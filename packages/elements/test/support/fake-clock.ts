// Kept so existing imports read naturally: the one controlled clock lives in test/support/manual-clock.ts.
export { ManualClock as FakeClock } from "../../../../test/support/manual-clock.js";
