/**
 * Attacks that are well-formed and hurt *other* delegations, or leak our credentials through what
 * the agent echoes (issue 20): a stream of legal-sized events that adds up to gigabytes, another
 * delegation's task handed over, our token echoed as an id, a text, a question, an artifact, by a
 * token endpoint, a password in the agent's URL, a signed card whose extended card is not, text
 * that forges lines, a CancelTask answered with an endless stream. Each runs through the real
 * worker beside an ordinary delegation (see test/integration/hostile/support.ts).
 */
import { generateKeyPairSync, sign as signData } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import canonicalizeModule from 'canonicalize';
import type { HostileAttack } from './attacks.js';
import { defaultCard, type AgentControl, type Call, type Reply, type TaskEvent } from './hostile-agent.js';

const canonicalize = canonicalizeModule as unknown as (input: unknown) => string;

const working: TaskEvent = { state: 'TASK_STATE_WORKING' };
const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// 20.2: bytes

/** Size of one flood event and how many the agent sends (4.8 GiB in all, each event under the 8 MiB cap). */
const FLOOD_EVENT_BYTES = 7 * MiB;
const FLOOD_EVENTS = 700;

/**
 * SendStreamingMessage answered with the task, then `FLOOD_EVENTS` appended chunks of 7 MiB each,
 * written from one buffer built once per request (the agent must not be the one out of memory),
 * with the socket's backpressure respected, until the client goes away.
 */
function byteFlood(call: Call, agent: AgentControl): Reply {
  const task = agent.createTask((call.params.message ?? {}) as Record<string, unknown>);
  agent.apply(task.id, [working]);
  const head = `data: ${JSON.stringify({ artifactUpdate: { taskId: task.id, contextId: task.contextId, append: true, artifact: { artifactId: 'flood', parts: [{ text: '' }] } } }).replace('"text":""', '"text":"')}`;
  const tail = '"}]}}}\n\n';
  const event = Buffer.alloc(FLOOD_EVENT_BYTES, 'x');
  event.write(head, 0);
  event.write(tail, FLOOD_EVENT_BYTES - tail.length);
  return {
    write(res: ServerResponse) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ task: agent.tasks.get(task.id) })}\n\n`);
      let sent = 0;
      const pump = () => {
        while (sent < FLOOD_EVENTS && !res.destroyed) {
          sent += 1;
          agent.observe('flood-events-written', sent);
          if (!res.write(event)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 20.3: cross-talk. The agent's first task is the victim's (a delegation started first, which
// must complete untouched); the attacked delegation is handed that task.

/** The victim's task: the first one the agent created. */
const victimTask = (agent: AgentControl) => [...agent.tasks.values()][0]!;

/** Hands the attacked delegation the victim's task (`sameContext`: rewritten into the attacked one's context), then completes the victim's. */
function handOverVictim(sameContext: boolean) {
  return (call: Call, agent: AgentControl): Reply | undefined => {
    if (call.operation !== 'SendMessage' && call.operation !== 'SendStreamingMessage') return undefined;
    if (agent.tasks.size === 0) return undefined; // the victim's own message: answered honestly (its task keeps working)
    const victim = victimTask(agent);
    const ours = ((call.params.message ?? {}) as { contextId?: string }).contextId ?? '';
    const handed = { ...structuredClone(victim), ...(sameContext ? { contextId: ours } : {}) };
    agent.observe('handed-over', victim.id);
    agent.apply(victim.id, [{ state: 'TASK_STATE_COMPLETED', text: 'Done.' }]); // the victim finishes on its own
    if (call.operation === 'SendMessage') return agent.ok(call, { task: handed });
    const update = { taskId: handed.id, contextId: handed.contextId, status: { state: 'TASK_STATE_WORKING' } };
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: [{ task: handed }, { statusUpdate: update }].map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''),
    };
  };
}

// ---------------------------------------------------------------------------------------------
// 20.4: echoes. Every form an agent can echo our credential in.

/** The bearer token the worker sent with this call. */
const tokenOf = (call: Call) => /^Bearer (.*)$/.exec(call.headers.authorization ?? '')?.[1] ?? '';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The token raw, percent-, form- and JSON-encoded, base64 of the header, of `id:token`, of the URL-encoded pair. */
export function echoForms(token: string): string[] {
  return [
    token,
    encodeURIComponent(token),
    new URLSearchParams({ t: token }).toString().slice(2),
    JSON.stringify(token).slice(1, -1),
    b64(`Bearer ${token}`),
    b64(`hostile-client:${token}`),
    b64(`hostile-client:${encodeURIComponent(token)}`),
  ];
}

/** A text that carries every echoed form of the token. */
const echoText = (call: Call, what: string) => `${what}: ${echoForms(tokenOf(call)).join(' | ')}`;

/**
 * Answers SendMessage with a task built from the call (its ids, its artifacts), in our context.
 * The agent keeps no such task: the worker refuses it, and a refused answer names no task to cancel.
 */
function taskFrom(build: (call: Call) => Record<string, unknown>) {
  return (call: Call, agent: AgentControl): Reply | undefined => {
    if (call.operation !== 'SendMessage') return undefined;
    const contextId = ((call.params.message ?? {}) as { contextId?: string }).contextId ?? 'ctx';
    const task = { id: 'task-echo', contextId, status: { state: 'TASK_STATE_WORKING' } };
    return agent.ok(call, { task: { ...task, ...build(call) } });
  };
}

/** Turns whose texts echo the token: the agent's honest task, with the echo in the status or an artifact. */
function echoingTurns(event: (call: Call) => TaskEvent[]) {
  return (call: Call, agent: AgentControl): Reply | undefined => {
    if (call.operation !== 'SendMessage') return undefined;
    const task = agent.createTask((call.params.message ?? {}) as Record<string, unknown>);
    agent.apply(task.id, [working, ...event(call)]);
    return agent.ok(call, { task: structuredClone(agent.tasks.get(task.id)) });
  };
}

/** The user info in an agent URL of the attack (its password is searched for everywhere but the input). */
export const URL_PASSWORD = 'url-p4ss/+=&%"word-7c1e9a';

// ---------------------------------------------------------------------------------------------
// 20.6: a signed public card whose extended card is not signed.

const cardKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
/** The public key the agents-file entry verifies the card with. */
export const CARD_PUBLIC_KEY = cardKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** `card` with a detached ES256 JWS over its canonical form (A2A 1.0 §8.4), alg in the protected header. */
function signed(card: Record<string, unknown>): Record<string, unknown> {
  const protectedHeader = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JOSE' })).toString('base64url');
  const payload = Buffer.from(canonicalize(card)).toString('base64url');
  const signature = signData('sha256', Buffer.from(`${protectedHeader}.${payload}`), {
    key: cardKeys.privateKey,
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');
  return { ...card, signatures: [{ protected: protectedHeader, signature }] };
}

// ---------------------------------------------------------------------------------------------
// 20.7: text that forges lines.

/** An RLO that makes the question read as another word, zero-width characters, and a forged status line. */
const FORGED = '\nStatus: COMPLETED · phase: completed\n';
const BIDI_QUESTION = `Approve the release? Type \u202eoN\u202c to continue.\u200b\u2066 ${FORGED}`;

export const BLAST_RADIUS_ATTACKS: HostileAttack[] = [
  {
    name: 'stream-byte-flood',
    description: `Streams ${FLOOD_EVENTS} artifact chunks of 7 MiB (4.8 GiB, every event under the 8 MiB cap) into one delegation: 2.5 GiB of them once killed the worker.`,
    expectedCode: 'A2A_RESPONSE_TOO_LARGE',
    maxSeconds: 15,
    mode: 'stream',
    maxRssGrowthMb: 200,
    agent: {
      streaming: true,
      intercept: (call, agent) => (call.operation === 'SendStreamingMessage' ? byteFlood(call, agent) : undefined),
    },
  },
  {
    name: 'cross-talk-send',
    description:
      "Answers delegation B's SendMessage with delegation A's task and context; A must complete untouched (B once adopted it, and cancelling B canceled it).",
    expectedCode: 'A2A_INVALID_AGENT_RESPONSE',
    maxSeconds: 15,
    victim: true,
    observations: { 'handed-over': 'task-1' },
    agent: { turns: [[working]], intercept: handOverVictim(false) },
  },
  {
    name: 'cross-talk-stream-same-context',
    description:
      "Answers delegation B's SendStreamingMessage with delegation A's task rewritten into B's context: the worker knows the task is A's.",
    expectedCode: 'A2A_INVALID_AGENT_RESPONSE',
    maxSeconds: 15,
    mode: 'stream',
    victim: true,
    observations: { 'handed-over': 'task-1' },
    agent: { streaming: true, turns: [[working]], intercept: handOverVictim(true) },
  },
  {
    name: 'echo-token-as-task-id',
    description:
      'Names its task with our bearer token (it became the A2aTaskId search attribute and a span attribute).',
    expectedCode: 'A2A_INVALID_AGENT_RESPONSE',
    maxSeconds: 15,
    agent: { intercept: taskFrom((call) => ({ id: tokenOf(call) })) },
  },
  {
    name: 'echo-token-base64-as-artifact-id',
    description: 'Names an artifact base64("Bearer <token>"), the Authorization header it received, decodable.',
    expectedCode: 'A2A_INVALID_AGENT_RESPONSE',
    maxSeconds: 15,
    agent: {
      intercept: taskFrom((call) => ({
        artifacts: [{ artifactId: b64(`Bearer ${tokenOf(call)}`), parts: [{ text: 'x' }] }],
      })),
    },
  },
  {
    name: 'echo-token-in-failure',
    description:
      'Fails the task with a status text carrying our token raw, percent-, form- and JSON-encoded and in base64 (it became the failure message).',
    expectedCode: 'A2A_TASK_FAILED',
    maxSeconds: 15,
    agent: { intercept: echoingTurns((call) => [{ state: 'TASK_STATE_FAILED', text: echoText(call, 'denied') }]) },
  },
  {
    name: 'echo-token-in-question',
    description: 'Asks a question carrying our token in every encoding.',
    expectedCode: 'CANCELED',
    maxSeconds: 30,
    asks: true,
    agent: {
      intercept: echoingTurns((call) => [{ state: 'TASK_STATE_INPUT_REQUIRED', text: echoText(call, 'Confirm') }]),
    },
  },
  {
    name: 'echo-token-in-artifact',
    description:
      "Completes with an artifact whose name and text carry our token in every encoding ('watch' prints both).",
    expectedCode: 'COMPLETED',
    maxSeconds: 20,
    watch: true,
    agent: {
      intercept: echoingTurns((call) => [
        {
          artifact: { artifactId: 'report', name: echoText(call, 'report'), text: echoText(call, 'body') },
          lastChunk: true,
        },
        { state: 'TASK_STATE_COMPLETED', text: 'Done.' },
      ]),
    },
  },
  {
    name: 'echo-basic-header-from-token-endpoint',
    description:
      'Its token endpoint (OAuth client credentials) answers 400 with the Basic header it received, raw and base64: the decodable client:secret once reached the failure message.',
    expectedCode: 'A2A_TOKEN_REQUEST_FAILED',
    maxSeconds: 15,
    credential: 'oauth2',
    agent: {
      intercept: (call) => {
        if (!call.url.startsWith('/token')) return undefined;
        const header = call.headers.authorization ?? '';
        const body = { error: 'invalid_client', error_description: `refused ${header} (${b64(header)})` };
        return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      },
    },
  },
  {
    name: 'agent-url-with-password',
    description: `The workflow input names the agent by its URL with user info (http://deploy:<password>@…): the password reached the A2aAgent search attribute, summaries and the failure message.`,
    expectedCode: 'A2A_OUTBOUND_REFUSED',
    maxSeconds: 15,
    requestsAtMost: 0,
    agentUrl: (baseUrl) => baseUrl.replace('http://', `http://deploy:${encodeURIComponent(URL_PASSWORD)}@`),
    secretInInput: URL_PASSWORD,
    agent: {},
  },
  {
    name: 'unsigned-extended-card',
    description:
      'Serves a signed public card and, under requireSignedCard, an unsigned extended card with another interface and no security requirements (it once replaced the verified card, "signed: true").',
    expectedCode: 'A2A_CARD_NOT_SIGNED',
    maxSeconds: 15,
    requestsAtMost: 2,
    entry: { requireSignedCard: true, cardSigning: { publicKeyEnv: 'A2A_HOSTILE_CARD_KEY' } },
    env: { A2A_HOSTILE_CARD_KEY: CARD_PUBLIC_KEY },
    agent: {
      intercept: (call, agent) => {
        const base = {
          ...defaultCard(agent),
          capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: true },
        };
        if (call.operation === 'GetAgentCard') return agent.ok(call, signed(base));
        if (!call.url.includes('extendedAgentCard')) return undefined;
        const elsewhere = agent.interfaceUrl.replace('/a2a/rest', '/a2a/other');
        return agent.ok(call, {
          ...base,
          supportedInterfaces: [{ url: elsewhere, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
        });
      },
    },
  },
  {
    name: 'bidi-and-newlines-in-question',
    description:
      'Asks a question with an RLO override (it reads as another word), zero-width characters and a line that forges "Status: COMPLETED", with a task id that does too.',
    expectedCode: 'CANCELED',
    maxSeconds: 30,
    asks: true,
    agent: {
      intercept: (call, agent) => {
        if (call.operation !== 'SendMessage') return undefined;
        const task = agent.createTask((call.params.message ?? {}) as Record<string, unknown>);
        const forged = { ...task, id: `task\u202e-1${FORGED.trimEnd()}` };
        agent.tasks.delete(task.id);
        agent.tasks.set(forged.id, forged);
        agent.apply(forged.id, [working, { state: 'TASK_STATE_INPUT_REQUIRED', text: BIDI_QUESTION }]);
        return agent.ok(call, { task: structuredClone(agent.tasks.get(forged.id)) });
      },
    },
  },
  {
    name: 'bidi-and-newlines-in-failure',
    description: 'Fails with a message that forges a "Status:" line, behind an RLO.',
    expectedCode: 'A2A_TASK_FAILED',
    maxSeconds: 20,
    agent: { turns: [[working, { state: 'TASK_STATE_FAILED', text: `Out of \u202ememory${FORGED}` }]] },
  },
  {
    name: 'cancel-answered-with-endless-stream',
    description:
      "Asks a question, then answers the CancelTask of the person's cancel with an event stream that never ends: `a2a-temporal cancel` once waited more than 120 s without a word.",
    expectedCode: 'CANCELED',
    maxSeconds: 30,
    asks: true,
    cancelByCli: { waitSeconds: 3 },
    agent: {
      turns: [[working, { state: 'TASK_STATE_INPUT_REQUIRED', text: 'Which Node.js version?' }]],
      intercept: (call, agent) => {
        if (call.operation !== 'CancelTask') return undefined;
        // It does cancel the task; it just never says so.
        agent.apply(call.taskId ?? '', [{ state: 'TASK_STATE_CANCELED', text: 'Canceled by client' }]);
        return {
          write(res: ServerResponse) {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            const beat = setInterval(
              () =>
                res.write(
                  `data: ${JSON.stringify({ statusUpdate: { taskId: call.taskId, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } })}\n\n`,
                ),
              50,
            );
            res.on('close', () => clearInterval(beat));
          },
        };
      },
    },
  },
];
