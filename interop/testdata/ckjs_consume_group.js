// ckjs_consume_group.js BOOTSTRAP TOPIC GROUP PROTOCOL COUNT TIMEOUT_MS
//
// Two members of GROUP (Confluent's JavaScript client, librdkafka inside)
// subscribe to TOPIC with group.protocol=PROTOCOL ("consumer" for KIP-848,
// "classic" for JoinGroup and SyncGroup) and read until they have COUNT
// records between them, or TIMEOUT_MS passes. It prints one JSON object:
// the records each member read ({key, value} in hex, partition, offset,
// member) and the librdkafka version. Progress goes to stderr, and
// librdkafka's debug contexts too when CKJS_DEBUG names them.
'use strict';
const Kafka = require('@confluentinc/kafka-javascript');

const [bootstrap, topic, group, protocol, countArg, timeoutArg] = process.argv.slice(2);
const count = Number(countArg), timeoutMs = Number(timeoutArg);
const read = [];
const members = [];
let done = false;

function finish(code) {
  if (done) return;
  done = true;
  let pending = members.length;
  const out = () => {
    process.stdout.write(JSON.stringify({ librdkafka: Kafka.librdkafkaVersion, records: read }) + '\n');
    process.exit(code);
  };
  for (const c of members) {
    c.disconnect(() => { if (--pending === 0) out(); });
  }
  setTimeout(out, 10000); // a leave that hangs does not hide the records read
}

for (const name of ['ckjs-a', 'ckjs-b']) {
  const c = new Kafka.KafkaConsumer({
    ...(process.env.CKJS_DEBUG ? { debug: process.env.CKJS_DEBUG } : {}), // e.g. cgrp,protocol
    'bootstrap.servers': bootstrap,
    'group.id': group,
    'group.protocol': protocol,
    'client.id': name,
    'enable.auto.commit': true,
    'auto.commit.interval.ms': 200,
    'fetch.wait.max.ms': 100,
    'rebalance_cb': true, // the 'rebalance' events, the client's own (incremental) assignment
  }, { 'auto.offset.reset': 'earliest' });
  c.on('ready', () => {
    c.subscribe([topic]);
    c.consume();
  });
  c.on('rebalance', (err, assignment) => {
    const parts = assignment.map((a) => a.partition).join(',');
    process.stderr.write(`${name}: ${err.message} [${parts}]\n`);
  });
  c.on('data', (m) => {
    read.push({
      key: m.key ? Buffer.from(m.key).toString('hex') : '',
      value: Buffer.from(m.value).toString('hex'),
      partition: m.partition,
      offset: m.offset,
      member: name,
    });
    if (read.length >= count) finish(0);
  });
  c.on('event.error', (e) => process.stderr.write(`${name}: error ${e.message}\n`));
  c.on('event.log', (l) => process.stderr.write(`${name}: ${l.fac} ${l.message}\n`));
  c.connect();
  members.push(c);
}
setTimeout(() => finish(0), timeoutMs);
