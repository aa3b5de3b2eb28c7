export type { BackoffOptions } from "@pi-elements/core";
export type { AgentCommand, AgentExitInfo } from "./agent-process.js";
export { type BridgeOptions, type RestartPolicy, type RunningBridge, startBridge } from "./bridge.js";
export { CloseCode } from "./client-frames.js";
export { defaultAgentCommand } from "./resolve-agent.js";
export { DEFAULT_ALLOWED_ORIGINS, generateToken } from "./security.js";
