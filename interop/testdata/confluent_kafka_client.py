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
"""
import json
import sys
import time

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
    else:
        raise SystemExit("unknown operation " + op)
    json.dump(out, sys.stdout)


main()
