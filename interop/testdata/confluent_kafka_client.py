"""confluent-kafka-python (Debian's python3-confluent-kafka, librdkafka) as the
interop tests drive it.

usage: confluent_kafka_client.py OP BOOTSTRAP [ARGS...]; the records to
produce come on stdin, and every answer goes to stdout, as JSON with keys
and values in hex.

  produce TOPIC ACKS          stdin [{"key","value"}]; out [{"key","value","partition","offset"}]
  produce-for TOPIC SECONDS    an idempotent acks=all producer sends keyed records for SECONDS,
                               then waits for every delivery report; out {"acked": [records],
                               "failed": N, "first_error": "..."}
  consume-plain TOPIC PARTS N  out [{"key","value","partition","offset"}]
  consume-group TOPIC GROUP N  reads N records as a member of GROUP, commits, leaves
  committed GROUP TOPIC PARTS  out {"partition": offset}
  list-groups                  out ["group"]
  describe-group GROUP         out {"state","protocol_type","members"}
  add-partitions TOPIC COUNT   grows TOPIC to COUNT partitions; out true
  delete-group GROUP           deletes GROUP; out true, or false when this confluent-kafka has
                               no AdminClient.delete_consumer_groups (Debian's 1.7 has none)
  alter-configs TOPIC          stdin [{"op","name","value"}], SETs only: AdminClient.alter_configs, the
                               legacy AlterConfigs, whose configs replace the topic's own (1.7 has no
                               incremental_alter_configs: KIP-339 came in confluent-kafka 2.2.0);
                               out "AlterConfigs"
  describe-configs TOPIC       out {"name": {"value","source"}}, source as DescribeConfigs numbers it
                               (librdkafka's rd_kafka_ConfigSource_t, ConfigSource here)

The transactions, as testdata/ckjs_txn.js runs them with the same JSON in, each printing
{"librdkafka": version, "out": ...}:

  txn-run TOPIC TXN_ID         stdin [{"commit", "records": [{"key","value"}]}]: one transactional
                               producer runs the transactions in order, committing or aborting
                               each; out [{"commit", "records": [records]}]
  txn-consume TOPIC PARTS N ISOLATION
                               reads the partitions from their start at isolation.level ISOLATION
                               until it has N records, then for 1.5 s more; out [records]
  txn-fence TOPIC TXN_ID       a zombie writes in a transaction; a second producer with the same
                               transactional.id writes and commits; the zombie writes again and
                               commits; out {"zombie", "fresh", "zombie_error"}
  txn-copy IN OUT GROUP N TXN_ID
                               consume-transform-produce: copies IN's records (read_committed, as
                               a member of GROUP) to OUT, each poll's records and the group's
                               offsets (send_offsets_to_transaction) in one transaction, until N
                               are copied; out [records written]
"""
import json
import sys
import time

import confluent_kafka
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, ConfigResource, NewPartitions


def rec(m):
    return {"key": m.key().hex(), "value": m.value().hex(), "partition": m.partition(), "offset": m.offset()}


def reports():
    """The records delivered, the errors, and the delivery callback that fills them."""
    out, errors = [], []

    def delivered(err, m):
        if err is not None:
            errors.append(str(err))
        else:
            out.append(rec(m))

    return out, errors, delivered


def read(consumer, n, deadline):
    out = []
    while len(out) < n:
        if time.time() > deadline:
            raise SystemExit("read %d of %d records" % (len(out), n))
        m = consumer.poll(0.5)
        if m is None:
            continue
        if m.error():
            raise KafkaException(m.error())
        out.append(rec(m))
    return out


def txn_producer(bootstrap, name, txn_id):
    """A transactional producer, its transactions initialised (InitProducerId)."""
    p = Producer({"bootstrap.servers": bootstrap, "client.id": name, "transactional.id": txn_id,
                  "transaction.timeout.ms": 60000, "linger.ms": 5})
    p.init_transactions(30)
    return p


def send(p, topic, key, value):
    """Produces one record and waits for its delivery report: the record, or KafkaException."""
    got = []
    p.produce(topic, key=key, value=value, on_delivery=lambda err, m: got.append((err, m)))
    p.flush(30)
    if not got:
        raise SystemExit("no delivery report for %r" % value)
    err, m = got[0]
    if err is not None:
        raise KafkaException(err)
    return rec(m)


def txn_run(bootstrap, topic, txn_id, txns):
    p = txn_producer(bootstrap, "confluent-txn", txn_id)
    out = []
    for t in txns:
        p.begin_transaction()
        done, errors, delivered = reports()
        for r in t["records"]:
            p.produce(topic, key=bytes.fromhex(r["key"]), value=bytes.fromhex(r["value"]), on_delivery=delivered)
        p.flush(30)
        if errors or len(done) != len(t["records"]):
            raise SystemExit("not delivered: %s" % errors)
        if t["commit"]:
            p.commit_transaction(30)
        else:
            p.abort_transaction(30)
        order = {r["value"]: i for i, r in enumerate(t["records"])}
        done.sort(key=lambda r: order[r["value"]])
        out.append({"commit": t["commit"], "records": done})
    return out


def txn_consume(bootstrap, topic, parts, n, isolation):
    c = Consumer({"bootstrap.servers": bootstrap, "client.id": "confluent-" + isolation, "group.id": "unused",
                  "enable.auto.commit": False, "isolation.level": isolation, "fetch.wait.max.ms": 100})
    c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(parts)])
    out = read(c, n, time.time() + 60)
    until = time.time() + 1.5
    while time.time() < until:  # a record too many shows
        m = c.poll(0.1)
        if m is not None and not m.error():
            out.append(rec(m))
    c.close()
    return out


def txn_fence(bootstrap, topic, txn_id):
    zombie = txn_producer(bootstrap, "confluent-zombie", txn_id)
    zombie.begin_transaction()
    z = [send(zombie, topic, b"", b"zombie-0")]
    # a new instance: InitProducerId bumps the epoch and aborts the zombie's open transaction
    fresh = txn_producer(bootstrap, "confluent-fresh", txn_id)
    fresh.begin_transaction()
    f = [send(fresh, topic, b"", b"fresh-0")]
    fresh.commit_transaction(30)
    zerr = ""
    try:
        z.append(send(zombie, topic, b"", b"zombie-1"))
        zombie.commit_transaction(30)
    except KafkaException as e:
        err = e.args[0]
        zerr = "%s (code %s)" % (err.str(), err.code())
    return {"zombie": z, "fresh": f, "zombie_error": zerr}


def txn_copy(bootstrap, in_topic, out_topic, group, n, txn_id):
    p = txn_producer(bootstrap, "confluent-copy", txn_id)
    c = Consumer({"bootstrap.servers": bootstrap, "client.id": "confluent-copy-in", "group.id": group,
                  "auto.offset.reset": "earliest", "enable.auto.commit": False,
                  "isolation.level": "read_committed", "fetch.wait.max.ms": 100})
    c.subscribe([in_topic])
    written, deadline = [], time.time() + 90
    while len(written) < n:
        if time.time() > deadline:
            raise SystemExit("copied %d of %d records" % (len(written), n))
        ms = [m for m in c.consume(50, 0.5) if not m.error()]
        if not ms:
            continue
        p.begin_transaction()
        done, errors, delivered = reports()
        for m in ms:
            p.produce(out_topic, key=m.key(), value=b"copy-" + m.value(), on_delivery=delivered)
        nxt = {}
        for m in ms:
            nxt[m.partition()] = m.offset() + 1
        p.send_offsets_to_transaction([TopicPartition(in_topic, part, off) for part, off in nxt.items()],
                                      c.consumer_group_metadata(), 30)
        p.commit_transaction(30)
        if errors:
            raise SystemExit("not delivered: %s" % errors)
        written.extend(done)
    c.close()
    return written


def main():
    op, bootstrap, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    deadline = time.time() + 60
    if op == "produce":
        topic, acks = args[0], args[1]
        p = Producer({"bootstrap.servers": bootstrap, "client.id": "confluent-acks-" + acks, "acks": acks,
                      "linger.ms": 5, "enable.idempotence": acks == "all"})
        out, errors, delivered = reports()

        recs = json.load(sys.stdin)
        for r in recs:
            p.produce(topic, key=bytes.fromhex(r["key"]), value=bytes.fromhex(r["value"]), on_delivery=delivered)
        if p.flush(30) != 0 or errors:
            raise SystemExit("not delivered: %s" % errors)
        # delivery reports come in order per partition: put them in the order sent
        order = {r["value"]: i for i, r in enumerate(recs)}
        out.sort(key=lambda r: order[r["value"]])
    elif op == "produce-for":
        topic, seconds = args[0], float(args[1])
        p = Producer({"bootstrap.servers": bootstrap, "client.id": "confluent-faults-producer", "acks": "all",
                      "linger.ms": 5, "enable.idempotence": True, "message.timeout.ms": 120000})
        out, errors, delivered = reports()

        end, i = time.time() + seconds, 0
        while time.time() < end:
            for _ in range(20):
                while True:
                    try:
                        p.produce(topic, key=b"key-%d" % (i % 7), value=b"c%07d" % i, on_delivery=delivered)
                        break
                    except BufferError:  # the local queue is full while a leader is away: wait
                        p.poll(0.1)
                i += 1
            p.poll(0)
            time.sleep(0.01)
        if p.flush(120) != 0:
            raise SystemExit("%d records neither delivered nor failed after 120 s" % len(p))
        out = {"acked": out, "failed": len(errors), "first_error": errors[0] if errors else ""}
    elif op == "consume-plain":
        topic, parts, n = args[0], int(args[1]), int(args[2])
        c = Consumer({"bootstrap.servers": bootstrap, "client.id": "confluent-plain", "group.id": "unused",
                      "enable.auto.commit": False})
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(parts)])
        out = read(c, n, deadline)
        c.close()
    elif op == "consume-group":
        topic, group, n = args[0], args[1], int(args[2])
        c = Consumer({"bootstrap.servers": bootstrap, "client.id": "confluent-group", "group.id": group,
                      "auto.offset.reset": "earliest", "enable.auto.commit": False})
        c.subscribe([topic])
        out = read(c, n, deadline)
        c.commit(asynchronous=False)
        c.close()  # leaves the group
    elif op == "committed":
        group, topic, parts = args[0], args[1], int(args[2])
        c = Consumer({"bootstrap.servers": bootstrap, "client.id": "confluent-offsets", "group.id": group})
        tps = c.committed([TopicPartition(topic, p) for p in range(parts)], timeout=30)
        out = {str(tp.partition): tp.offset for tp in tps if tp.offset >= 0}
        c.close()
    elif op == "list-groups":
        a = AdminClient({"bootstrap.servers": bootstrap, "client.id": "confluent-admin"})
        out = [g.id for g in a.list_groups(timeout=30)]
    elif op == "describe-group":
        a = AdminClient({"bootstrap.servers": bootstrap, "client.id": "confluent-admin"})
        (g,) = a.list_groups(args[0], timeout=30)
        if g.error is not None:
            raise SystemExit("describe %s: %s" % (args[0], g.error))
        out = {"state": g.state, "protocol_type": g.protocol_type, "members": len(g.members)}
    elif op == "delete-group":
        a = AdminClient({"bootstrap.servers": bootstrap, "client.id": "confluent-admin"})
        if not hasattr(a, "delete_consumer_groups"):
            out = False
        else:
            for f in a.delete_consumer_groups([args[0]], request_timeout=30).values():
                f.result()
            out = True
    elif op == "add-partitions":
        a = AdminClient({"bootstrap.servers": bootstrap, "client.id": "confluent-admin"})
        for f in a.create_partitions([NewPartitions(args[0], int(args[1]))], request_timeout=30).values():
            f.result()  # raises KafkaException with the broker's error
        out = True
    elif op == "alter-configs":
        topic, ops = args[0], json.load(sys.stdin)
        if any(o["op"] != "SET" for o in ops):
            raise SystemExit("alter_configs (AlterConfigs) only sets configs: %s" % ops)
        a = AdminClient({"bootstrap.servers": bootstrap, "client.id": "confluent-admin"})
        res = ConfigResource(ConfigResource.Type.TOPIC, topic, set_config={o["name"]: o["value"] for o in ops})
        for f in a.alter_configs([res], request_timeout=30).values():
            f.result()  # raises KafkaException with the broker's error
        out = "AlterConfigs"
    elif op == "describe-configs":
        a = AdminClient({"bootstrap.servers": bootstrap, "client.id": "confluent-admin"})
        (f,) = a.describe_configs([ConfigResource(ConfigResource.Type.TOPIC, args[0])], request_timeout=30).values()
        # ConfigEntry.source is a ConfigSource, or its number
        out = {name: {"value": e.value, "source": int(getattr(e.source, "value", e.source))}
               for name, e in f.result().items()}
    elif op.startswith("txn-"):
        if op == "txn-run":
            out = txn_run(bootstrap, args[0], args[1], json.load(sys.stdin))
        elif op == "txn-consume":
            out = txn_consume(bootstrap, args[0], int(args[1]), int(args[2]), args[3])
        elif op == "txn-fence":
            out = txn_fence(bootstrap, args[0], args[1])
        elif op == "txn-copy":
            out = txn_copy(bootstrap, args[0], args[1], args[2], int(args[3]), args[4])
        else:
            raise SystemExit("unknown operation " + op)
        out = {"librdkafka": confluent_kafka.libversion()[0], "out": out}
    else:
        raise SystemExit("unknown operation " + op)
    json.dump(out, sys.stdout)


main()
