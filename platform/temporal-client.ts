import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import type { AppConfig } from './config.js';

/**
 * Connection options shared by the api's client and the worker's native connection: the address,
 * TLS (server CA, SNI name, client certificate pair for mTLS) and Temporal Cloud's API key.
 */
export function temporalConnectionOptions(t: AppConfig['temporal']): {
  address: string;
  tls?: { serverNameOverride?: string; serverRootCACertificate?: Buffer; clientCertPair?: { crt: Buffer; key: Buffer } } | boolean;
  apiKey?: string;
} {
  if (!t.tls) return { address: t.address };
  const tls = {
    ...(t.tls.serverName ? { serverNameOverride: t.tls.serverName } : {}),
    ...(t.tls.caFile ? { serverRootCACertificate: readFileSync(t.tls.caFile) } : {}),
    ...(t.tls.certFile && t.tls.keyFile ? { clientCertPair: { crt: readFileSync(t.tls.certFile), key: readFileSync(t.tls.keyFile) } } : {}),
  };
  return { address: t.address, tls: Object.keys(tls).length > 0 ? tls : true, ...(t.apiKey ? { apiKey: t.apiKey } : {}) };
}

export async function createTemporalClient(t: AppConfig['temporal']): Promise<{ client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect(temporalConnectionOptions(t));
  return { client: new Client({ connection, namespace: t.namespace }), close: () => connection.close() };
}
