// Types for the Node tests that import the loopback ws server directly.
export interface WsTestServer {
  port: number;
  url(room: string): string;
  received(room: string): string[];
  connections(room: string): { total: number; open: number };
  waitForReceived(room: string, count: number): Promise<string[]>;
  waitForConnections(room: string, total: number, open: number): Promise<{ total: number; open: number }>;
  drop(room: string): Promise<number>;
  closeWith(room: string, code: number, reason?: string): Promise<number>;
  send(room: string, frames: string[], binary?: boolean): number;
  close(): Promise<void>;
}
export function startWsTestServer(): Promise<WsTestServer>;
export function wsServerPlugin(): unknown;
