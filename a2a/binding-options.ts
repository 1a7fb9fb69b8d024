/** What every binding (HTTP+JSON or JSON-RPC, A2A 1.0 or 0.3) is built from. */
import type { SelectedInterface } from './agent-card.js';
import type { HttpClient } from './http.js';

export interface BindingOptions {
  endpoint: SelectedInterface;
  /** Sends the requests; its `limits` bound what is read, its `secrets` are kept out of messages. */
  http: HttpClient;
  /** Default `timeoutMs` of unary calls and `connectTimeoutMs` of streams. */
  timeoutMs?: number;
}
