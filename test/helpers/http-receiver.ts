/** A local HTTP destination for batch export tests: it records the `/batch/` posts it receives. */
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** A receiver of `/batch/` posts that keeps their bodies and answers with `answer`'s status and body. */
export async function startReceiver(): Promise<{ url: string; bodies: any[]; answer: { status: number; body: string }; close(): Promise<void> }> {
  const bodies: any[] = [];
  const answer = { status: 200, body: '{"status":1}' };
  const server: Server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      bodies.push({ contentType: request.headers['content-type'], body: JSON.parse(text) });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/batch/`,
    bodies,
    answer,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
