// ckjs_txn.js OP BOOTSTRAP [ARGS...]
//
// Transactions with Confluent's JavaScript client (librdkafka inside), as
// the interop tests drive them; the same operations as
// confluent_kafka_client.py's txn-* ones, with the same JSON in and out
// (keys and values in hex):
//
//   txn-run TOPIC TXN_ID         stdin [{"commit", "records": [{"key","value"}]}]: one
//                                transactional producer runs the transactions in order, each
//                                begun, its records produced and flushed, then committed or
//                                aborted; out [{"commit", "records": [{"key","value","partition","offset"}]}]
//   txn-consume TOPIC PARTS N ISOLATION
//                                reads the topic's partitions from their start at isolation.level
//                                ISOLATION until it has N records, then for 1.5 s more (a record
//                                too many shows); out [records]
//   txn-fence TOPIC TXN_ID       a zombie begins a transaction and writes a record; a second
//                                producer with the same transactional.id starts, writes and
//                                commits; the zombie writes again and commits; out {"zombie":
//                                [records acked], "fresh": [records], "zombie_error": "..."}
//   txn-copy IN OUT GROUP N TXN_ID
//                                consume-transform-produce: reads IN at read_committed as a member
//                                of GROUP and copies each record to OUT in a transaction that also
//                                commits the group's offsets (sendOffsetsToTransaction), until N
//                                records are copied; out [records written]
//
// librdkafka's debug contexts go to stderr when CKJS_DEBUG names them.
'use strict';
const Kafka = require('@confluentinc/kafka-javascript');

const [op, bootstrap, ...args] = process.argv.slice(2);
const timeoutMs = 30000;
const debug = process.env.CKJS_DEBUG ? { debug: process.env.CKJS_DEBUG } : {};

function rec(m) {
  return {
    key: m.key ? Buffer.from(m.key).toString('hex') : '',
    value: Buffer.from(m.value).toString('hex'),
    partition: m.partition,
    offset: m.offset,
  };
}

function call(fn) {
  return new Promise((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));
}

function logTo(name, client) {
  client.on('event.error', (e) => process.stderr.write(`${name}: error ${e.message}\n`));
  client.on('event.log', (l) => process.stderr.write(`${name}: ${l.fac} ${l.message}\n`));
}

// producer connects a transactional producer and initialises its
// transactions (InitProducerId). Its delivered() promises a record's
// delivery report.
async function producer(name, txnId) {
  const p = new Kafka.Producer({
    ...debug,
    'bootstrap.servers': bootstrap,
    'client.id': name,
    'transactional.id': txnId,
    'transaction.timeout.ms': 60000,
    'linger.ms': 5,
    dr_cb: true,
    dr_msg_cb: true, // the report carries the record's value
  });
  logTo(name, p);
  const waiting = new Map();
  p.on('delivery-report', (err, report) => {
    const w = waiting.get(report.opaque);
    waiting.delete(report.opaque);
    if (w) (err ? w.reject(err) : w.resolve(report));
  });
  p.setPollInterval(10);
  await call((cb) => { p.once('ready', () => cb()); p.once('connection.failure', cb); p.connect(); });
  await call((cb) => p.initTransactions(timeoutMs, cb));
  let n = 0;
  p.send = (topic, r) => {
    const opaque = ++n;
    const done = new Promise((resolve, reject) => waiting.set(opaque, { resolve, reject }));
    p.produce(topic, null, Buffer.from(r.value, 'hex'), r.key ? Buffer.from(r.key, 'hex') : null, null, opaque);
    return done;
  };
  return p;
}

async function runTxns(topic, txnId, txns) {
  const p = await producer('ckjs-txn', txnId);
  const out = [];
  for (const t of txns) {
    await call((cb) => p.beginTransaction(cb));
    const reports = await Promise.all(t.records.map((r) => p.send(topic, r)));
    if (t.commit) await call((cb) => p.commitTransaction(timeoutMs, cb));
    else await call((cb) => p.abortTransaction(timeoutMs, cb));
    out.push({ commit: t.commit, records: reports.map(rec) });
  }
  await call((cb) => p.disconnect(cb));
  return out;
}

async function consume(topic, parts, n, isolation) {
  const c = new Kafka.KafkaConsumer({
    ...debug,
    'bootstrap.servers': bootstrap,
    'client.id': 'ckjs-' + isolation,
    'group.id': 'ckjs-unused',
    'enable.auto.commit': false,
    'isolation.level': isolation,
    'fetch.wait.max.ms': 100,
  }, {});
  logTo('consumer', c);
  await call((cb) => { c.once('ready', () => cb()); c.once('connection.failure', cb); c.connect(); });
  const read = [];
  const assignment = [];
  for (let p = 0; p < parts; p++) assignment.push({ topic, partition: p, offset: 0 });
  c.assign(assignment);
  const deadline = Date.now() + 60000;
  let until = 0;
  for (;;) {
    const ms = await call((cb) => c.consume(100, cb));
    for (const m of ms) read.push(rec(m));
    if (read.length >= n && until === 0) until = Date.now() + 1500;
    if (until !== 0 && Date.now() > until) break;
    if (Date.now() > deadline) throw new Error(`read ${read.length} of ${n} records`);
  }
  await call((cb) => c.disconnect(cb));
  return read;
}

async function fence(topic, txnId) {
  const zombie = await producer('ckjs-zombie', txnId);
  await call((cb) => zombie.beginTransaction(cb));
  const z = [rec(await zombie.send(topic, { key: '', value: Buffer.from('zombie-0').toString('hex') }))];
  // a new instance: InitProducerId bumps the epoch and aborts the
  // zombie's open transaction
  const fresh = await producer('ckjs-fresh', txnId);
  await call((cb) => fresh.beginTransaction(cb));
  const f = [rec(await fresh.send(topic, { key: '', value: Buffer.from('fresh-0').toString('hex') }))];
  await call((cb) => fresh.commitTransaction(timeoutMs, cb));
  // the zombie's record fails (librdkafka purges it once the coordinator
  // has said the epoch is old: a fatal error), and so does its commit,
  // with the fatal error itself
  const errs = [];
  try {
    z.push(rec(await zombie.send(topic, { key: '', value: Buffer.from('zombie-1').toString('hex') })));
  } catch (e) {
    errs.push(`produce: ${e.message} (code ${e.code})`);
  }
  try {
    await call((cb) => zombie.commitTransaction(timeoutMs, cb));
  } catch (e) {
    errs.push(`commit: ${e.message} (code ${e.code})`);
  }
  const zerr = errs.join('; ');
  await call((cb) => fresh.disconnect(cb));
  await new Promise((resolve) => { zombie.disconnect(1000, () => resolve()); setTimeout(resolve, 3000); });
  return { zombie: z, fresh: f, zombie_error: zerr };
}

async function copy(inTopic, outTopic, group, n, txnId) {
  const p = await producer('ckjs-copy', txnId);
  const c = new Kafka.KafkaConsumer({
    ...debug,
    'bootstrap.servers': bootstrap,
    'client.id': 'ckjs-copy-in',
    'group.id': group,
    'enable.auto.commit': false,
    'isolation.level': 'read_committed',
    'fetch.wait.max.ms': 100,
  }, { 'auto.offset.reset': 'earliest' });
  logTo('copy-in', c);
  await call((cb) => { c.once('ready', () => cb()); c.once('connection.failure', cb); c.connect(); });
  c.subscribe([inTopic]);
  const written = [];
  const deadline = Date.now() + 90000;
  while (written.length < n) {
    if (Date.now() > deadline) throw new Error(`copied ${written.length} of ${n} records`);
    const ms = await call((cb) => c.consume(50, cb));
    if (ms.length === 0) continue;
    await call((cb) => p.beginTransaction(cb));
    const reports = await Promise.all(ms.map((m) => p.send(outTopic, {
      key: m.key ? Buffer.from(m.key).toString('hex') : '',
      value: Buffer.concat([Buffer.from('copy-'), Buffer.from(m.value)]).toString('hex'),
    })));
    const next = new Map();
    for (const m of ms) next.set(m.partition, m.offset + 1);
    const offsets = [...next].map(([partition, offset]) => ({ topic: inTopic, partition, offset }));
    await call((cb) => p.sendOffsetsToTransaction(offsets, c, timeoutMs, cb));
    await call((cb) => p.commitTransaction(timeoutMs, cb));
    for (const r of reports) written.push(rec(r));
  }
  await call((cb) => c.disconnect(cb));
  await call((cb) => p.disconnect(cb));
  return written;
}

async function main() {
  let out;
  switch (op) {
    case 'txn-run': {
      const txns = JSON.parse(require('fs').readFileSync(0, 'utf8'));
      out = await runTxns(args[0], args[1], txns);
      break;
    }
    case 'txn-consume':
      out = await consume(args[0], Number(args[1]), Number(args[2]), args[3]);
      break;
    case 'txn-fence':
      out = await fence(args[0], args[1]);
      break;
    case 'txn-copy':
      out = await copy(args[0], args[1], args[2], Number(args[3]), args[4]);
      break;
    default:
      throw new Error('unknown operation ' + op);
  }
  process.stdout.write(JSON.stringify({ librdkafka: Kafka.librdkafkaVersion, out }) + '\n');
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`${op}: ${e.stack || e}\n`);
  process.exit(1);
});
