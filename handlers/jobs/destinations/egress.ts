/**
 * The connections a run makes, held to the address policy (db/destinations/address-policy.ts): HTTP(S) agents
 * that check every socket before it connects (an address host at once, a name through a lookup that resolves
 * it and checks every answer), and the one message every connection-level failure is reported with.
 *
 * Why one message: a run's latest_error is answered to whoever configured the export, and "connection
 * refused", "reset", "timed out" and a TLS failure tell apart a closed port, an open one and a firewalled one.
 */
import type { LookupAddress, LookupOneOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { DestinationAddressError, type AddressPolicy } from '../../../db/destinations/address-policy.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect: the policy's resolution, so a refused answer fails the socket before it connects. */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: LookupOneOptions & { all?: boolean }, callback: LookupCallback): void => {
    policy.resolve(hostname).then(
      (answers) => {
        const family = options.family === 4 || options.family === 6 ? options.family : null;
        const wanted = family === null ? answers : answers.filter((answer) => answer.family === family);
        if (wanted.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '');
        } else if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

type CreateConnection = (options: http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void) => Duplex | null | undefined;

/**
 * A host that is an address is connected to without a lookup, so the agent checks it itself; a refused one
 * fails the request through the callback and no socket is made.
 */
function guardConnections(agent: http.Agent, policy: AddressPolicy): void {
  const create = agent.createConnection.bind(agent) as CreateConnection;
  agent.createConnection = ((options, callback) => {
    try {
      policy.checkLiteral(options.host ?? 'localhost');
    } catch (error) {
      callback?.(error as Error, undefined as unknown as Duplex);
      return undefined;
    }
    return create(options, callback);
  }) as CreateConnection;
}

export interface GuardedAgents {
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  destroy(): void;
}

/** The agents every HTTP connection of one run goes through (the HTTP destination's and the S3 SDK's). */
export function guardedAgents(policy: AddressPolicy, options: { keepAlive?: boolean } = {}): GuardedAgents {
  const lookup = guardedLookup(policy) as unknown as http.AgentOptions['lookup'];
  const httpAgent = new http.Agent({ keepAlive: options.keepAlive ?? true, lookup } as http.AgentOptions);
  const httpsAgent = new https.Agent({ keepAlive: options.keepAlive ?? true, lookup } as https.AgentOptions);
  guardConnections(httpAgent, policy);
  guardConnections(httpsAgent, policy);
  return {
    httpAgent,
    httpsAgent,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/** The address refusal somewhere in an error's causes, if it is one. */
export function addressRefusalIn(error: unknown): DestinationAddressError | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof DestinationAddressError) return current;
  }
  return null;
}

/**
 * The longest one request to a destination may take, start to end (an HTTP POST and its answer, one S3 request
 * with its retries): not an idle timeout, which a destination sending a byte now and then would keep resetting
 * while it holds one of the engine's slots. Past it the request is aborted and the run retried.
 */
export const DESTINATION_REQUEST_DEADLINE_MS = 5 * 60_000;

export interface RequestDeadline {
  /** The run's signal and the deadline's together: what the request is given. */
  signal: AbortSignal;
  /** Whether the deadline, not the run, ended the request. */
  expired(): boolean;
}

export function requestDeadline(runSignal: AbortSignal | null, deadlineMs: number): RequestDeadline {
  const deadline = AbortSignal.timeout(deadlineMs);
  return {
    signal: runSignal === null ? deadline : AbortSignal.any([runSignal, deadline]),
    expired: () => deadline.aborted && !(runSignal?.aborted ?? false),
  };
}

/** Every connection-level failure, whatever its cause, is reported as this. */
export const UNREACHABLE_MESSAGE = 'ConnectionError: the destination could not be reached';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EPROTO',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
]);

/**
 * Whether the error is the network's or TLS's (no answer of the destination's protocol came back): refused,
 * reset, timed out, unreachable, a name that does not resolve, a handshake or certificate failure, an answer
 * that is not HTTP.
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|ERR_CERT|HPE_)/.test(code))) return true;
    if (current.name === 'TimeoutError' || /socket hang up|Client network socket disconnected/i.test(current.message)) return true;
  }
  return false;
}

/** At most `limit` characters of a destination's text, on one line: enough to say what went wrong. */
export function excerpt(text: string, limit = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}
