// A webhook receiver that accepts only notifications signed as Form3 signs them, with the verifier
// scheme-sim ships (docs/notifications.md). Run against a simulator on SCHEME_SIM_URL:
//
//   npm run build && TOKEN=<bearer token> node examples/form3-receiver.mjs
//
// It listens on PORT (default 4000); subscribe with callback_uri http://127.0.0.1:4000/hooks.
// A valid notification gets 204 and is printed; an unsigned or tampered one gets 401.
import { createServer } from 'node:http';
import { signingKeysFromApi, verifyForm3Notification } from 'scheme-sim';

const base = process.env.SCHEME_SIM_URL ?? 'http://127.0.0.1:8080';
const fetchKey = signingKeysFromApi(base, { authorization: `Bearer ${process.env.TOKEN ?? ''}` });

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks);
    try {
      const { keyId } = await verifyForm3Notification(
        { method: req.method, url: req.url, headers: req.headers, body },
        fetchKey,
      );
      const n = JSON.parse(body.toString('utf8'));
      console.log(`accepted ${n.event_type} ${n.record_type} ${n.id} (key ${keyId})`);
      res.writeHead(204).end();
    } catch (err) {
      console.log(`refused: ${err.message}`);
      res.writeHead(401, { 'content-type': 'text/plain' }).end(err.message);
    }
  });
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/hooks`);
});
