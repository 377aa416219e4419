/**
 * The ceiling of the capture benchmark: a node:http server that reads each request body and answers 200
 * `{"status":1}`, doing nothing else. Prints its port.
 */
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":1}');
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
